import { Circle, CircleCheck, LoaderCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { EMBED_PROCESSING_STEPS } from '../../../core/embed';
import { cardStyles } from '../ui';
import { FileImage } from './file-image';
import { StageHeading } from './stage-heading';

/** The widget's four steps (SPEC 2, Embedded widget), shown here too so both read alike. */
export const PROCESSING_STEPS = EMBED_PROCESSING_STEPS;

/** SPEC 4 and 9: a cosmetic counter, one row every 800 ms, not tied to the server. */
export const PROCESSING_STEP_MS = 800;

/**
 * The least time the processing stage shows: until its last row is reached. The local
 * provider answers in about 100 ms, and a stage that flashes by reads as a glitch.
 */
export const MIN_PROCESSING_MS = (PROCESSING_STEPS.length - 1) * PROCESSING_STEP_MS;

/** Runs a request, and settles (either way) no sooner than MIN_PROCESSING_MS after the start. */
export async function atProcessingPace<T>(work: Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work;
  } finally {
    const left = MIN_PROCESSING_MS - (Date.now() - started);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  }
}

function useProcessingStep(): number {
  const [step, setStep] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => {
      setStep((current) => Math.min(current + 1, PROCESSING_STEPS.length - 1));
    }, PROCESSING_STEP_MS);
    return () => clearInterval(timer);
  }, []);
  return step;
}

function StepRow({ label, state }: { label: string; state: 'done' | 'current' | 'waiting' }) {
  const icon =
    state === 'done' ? (
      <CircleCheck aria-hidden="true" className="size-5 text-green-700" />
    ) : state === 'current' ? (
      <LoaderCircle aria-hidden="true" className="size-5 animate-spin text-green-800" />
    ) : (
      <Circle aria-hidden="true" className="size-5 text-stone-400" />
    );
  return (
    <li
      className={`flex items-center gap-3 rounded-lg px-3 py-2.5 ${
        state === 'current' ? 'bg-green-50 font-semibold text-green-900' : state === 'done' ? 'text-stone-800' : 'text-stone-600'
      }`}
    >
      {icon}
      <span>{label}</span>
      <span className="sr-only">{state === 'done' ? '(done)' : state === 'current' ? '(in progress)' : '(waiting)'}</span>
    </li>
  );
}

/** SPEC 2, Processing: the photo, four progress rows and the expected wait. */
export function ProcessingStage({ file }: { file: File }) {
  const step = useProcessingStep();
  return (
    <section aria-labelledby="processing-stage-title" className={`${cardStyles} p-4 sm:p-6`}>
      <StageHeading id="processing-stage-title" focus>
        Analyzing Your Tree
      </StageHeading>
      <div className="mt-4 grid gap-6 md:grid-cols-2 md:items-center">
        <FileImage
          file={file}
          alt="The tree photo being analyzed"
          className="max-h-80 w-full rounded-xl bg-stone-100 object-contain"
        />
        <div>
          <ol className="flex flex-col gap-1.5">
            {PROCESSING_STEPS.map((label, index) => (
              <StepRow
                key={label}
                label={label}
                state={index < step ? 'done' : index === step ? 'current' : 'waiting'}
              />
            ))}
          </ol>
          <p role="status" aria-live="polite" className="sr-only">
            {`Step ${step + 1} of ${PROCESSING_STEPS.length}: ${PROCESSING_STEPS[step]}`}
          </p>
          <p className="mt-4 text-sm text-stone-700">This usually takes 10-30 seconds...</p>
        </div>
      </div>
    </section>
  );
}
