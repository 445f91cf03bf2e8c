import { Circle, CircleCheck } from 'lucide-react';
import { VISITOR_PROCESSING_STEPS } from '../../core/embed';
import { Spinner } from '../components/spinner';
import { ViewHeading } from '../components/view-heading';

/**
 * docs/product.md, Embed widget: four steps and a bar of (step+1)*25 %, driven by a cosmetic
 * tick (0 to 3, once a second) that the parent owns and announces; not tied to the server.
 */
export function ProcessingView({ tick, focus }: { tick: number; focus: boolean }) {
  const percent = (tick + 1) * 25;
  const label = VISITOR_PROCESSING_STEPS[tick] ?? VISITOR_PROCESSING_STEPS[0];
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-1">
        <ViewHeading focus={focus}>Working out your price</ViewHeading>
        <p className="text-stone-700">This usually takes 10-30 seconds...</p>
      </div>

      <div
        role="progressbar"
        aria-label="Analysis progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%: ${label}`}
        className="h-3 w-full overflow-hidden rounded-full bg-stone-200"
      >
        <div className="h-full rounded-full bg-accent-visible transition-[width] duration-500" style={{ width: `${percent}%` }} />
      </div>

      <ol className="flex flex-col gap-1">
        {VISITOR_PROCESSING_STEPS.map((step, index) => {
          const state = index < tick ? 'done' : index === tick ? 'current' : 'waiting';
          return (
            <li
              key={step}
              aria-current={state === 'current' ? 'step' : undefined}
              className={`flex items-center gap-3 rounded-lg px-3 py-2 ${
                state === 'current' ? 'bg-stone-100 font-semibold text-stone-900' : 'text-stone-700'
              }`}
            >
              {state === 'done' ? (
                <CircleCheck aria-hidden="true" className="size-5 shrink-0 text-accent-visible" />
              ) : state === 'current' ? (
                <Spinner className="size-5 shrink-0 text-accent-visible" />
              ) : (
                <Circle aria-hidden="true" className="size-5 shrink-0 text-stone-400" />
              )}
              {step}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
