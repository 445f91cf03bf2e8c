import { Circle, CircleCheck, LoaderCircle } from 'lucide-react';
import { useEffect, useEffectEvent, useState } from 'react';
import { EMBED_PROCESSING_STEPS } from '../../../core/embed';
import { cardStyles } from '../ui';
import { FileImage } from './file-image';
import { StageHeading } from './stage-heading';

/** The widget's four steps (docs/product.md, Embed widget), shown here too so both read alike. */
export const PROCESSING_STEPS = EMBED_PROCESSING_STEPS;

/** A cosmetic counter, one row every 800 ms, not tied to the server... */
export const PROCESSING_STEP_MS = 800;

/**
 * ...until the answer is in: then the rows left finish at this pace, so a finished result
 * is not held back to play them out, yet the stage never just flashes by.
 */
export const FINISHING_STEP_MS = 150;

/**
 * What the counter does next from `step` (0 to 4; 4 means every row is done): wait this
 * many ms and advance, hold on the last row while the answer is out, or hand over.
 */
export function nextProcessingStep(step: number, answered: boolean): number | 'hold' | 'finished' {
  if (step >= PROCESSING_STEPS.length) return 'finished';
  if (answered) return FINISHING_STEP_MS;
  return step < PROCESSING_STEPS.length - 1 ? PROCESSING_STEP_MS : 'hold';
}

function useProcessingStep(answered: boolean, onFinished: () => void): number {
  const [step, setStep] = useState(0);
  const finish = useEffectEvent(onFinished);
  useEffect(() => {
    const next = nextProcessingStep(step, answered);
    if (next === 'finished') return finish();
    if (next === 'hold') return;
    const timer = setTimeout(() => setStep(step + 1), next);
    return () => clearTimeout(timer);
  }, [step, answered]);
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

interface ProcessingStageProps {
  file: File;
  /** The server has answered: the rows left finish quickly, then onFinished. */
  answered: boolean;
  onFinished: () => void;
}

/** Processing: the photo, four progress rows and the expected wait. */
export function ProcessingStage({ file, answered, onFinished }: ProcessingStageProps) {
  const step = useProcessingStep(answered, onFinished);
  const shownStep = Math.min(step, PROCESSING_STEPS.length - 1);
  return (
    // Busy until the server has answered; the rows left then finish on their own.
    <section aria-labelledby="processing-stage-title" aria-busy={!answered} className={`${cardStyles} p-4 sm:p-6`}>
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
            {step < PROCESSING_STEPS.length
              ? `Step ${shownStep + 1} of ${PROCESSING_STEPS.length}: ${PROCESSING_STEPS[shownStep]}`
              : 'Analysis finished'}
          </p>
          <p className="mt-4 text-sm text-stone-700">This usually takes 10-30 seconds...</p>
        </div>
      </div>
    </section>
  );
}
