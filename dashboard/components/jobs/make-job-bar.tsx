import { ClipboardList, ListPlus, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { buttonStyles } from '../ui';
import { AddToJobDialog } from './add-to-job-dialog';
import { MakeJobDialog } from './make-job-dialog';

/**
 * History's "Make a job": once analyses are ticked, a bar at the foot of the screen says how many
 * and makes one job (one quote) of them, after asking the customer's name, or adds them to a job
 * still open for changes ("Add to a job"; first choice when History was opened from that job).
 */
export function MakeJobBar({ analysisIds, onClear, forJobId }: { analysisIds: readonly number[]; onClear: () => void; forJobId?: number }) {
  const [making, setMaking] = useState(false);
  const [adding, setAdding] = useState(false);
  const makeButton = useRef<HTMLButtonElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const count = analysisIds.length;
  return (
    <>
      {/*
        Always in the page, so the count is announced as analyses are ticked. Kept clear of the chat
        button in the corner (right-4, size-14) until the page is wide enough to end short of it.
      */}
      <div
        className={
          count > 0
            ? 'sticky bottom-0 z-10 -mx-4 mt-4 border-t border-stone-200 bg-white/95 py-3 pr-20 pl-4 backdrop-blur-sm sm:mx-0 sm:rounded-t-xl sm:border sm:border-b-0 xl:pr-4'
            : 'sr-only'
        }
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p role="status" className="text-sm font-medium text-stone-800">
            {count === 0 ? '' : `${count} ${count === 1 ? 'analysis' : 'analyses'} ticked`}
          </p>
          {count > 0 ? (
            <div className="flex flex-wrap justify-end gap-2">
              <button type="button" className={`${buttonStyles.quiet} px-3`} onClick={onClear}>
                <X aria-hidden="true" className="size-4" />
                Clear
              </button>
              <button ref={addButton} type="button" className={forJobId ? buttonStyles.primary : buttonStyles.secondary} onClick={() => setAdding(true)}>
                <ListPlus aria-hidden="true" className="size-4" />
                Add to a job
              </button>
              <button ref={makeButton} type="button" className={forJobId ? buttonStyles.secondary : buttonStyles.primary} onClick={() => setMaking(true)}>
                <ClipboardList aria-hidden="true" className="size-4" />
                Make a job
              </button>
            </div>
          ) : null}
        </div>
      </div>
      <AddToJobDialog open={adding} onClose={() => setAdding(false)} analysisIds={analysisIds} preferredJobId={forJobId} returnFocusRef={addButton} />
      <MakeJobDialog open={making} onClose={() => setMaking(false)} analysisIds={analysisIds} returnFocusRef={makeButton} />
    </>
  );
}
