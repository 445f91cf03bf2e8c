import { useId } from 'react';
import { signedInApi } from '../../api/signed-in';
import { showToast } from '../toast';
import { cardStyles } from '../ui';
import { useSavedAtOnce } from './use-saved-at-once';

/**
 * Whether the account's reported job times count in the starting point new and sparse
 * accounts are estimated from. On by default; saved as soon as it is changed, like a switch.
 */
export function ShareJobTimesSection({ saved }: { saved: boolean }) {
  const hintId = useId();
  const { shown: checked, saving, press } = useSavedAtOnce(
    saved,
    (shareJobTimes: boolean) => signedInApi.settings.update({ shareJobTimes }),
    (settings) =>
      showToast({
        title: settings.shareJobTimes ? 'Sharing Your Job Times' : 'Not Sharing Your Job Times',
        description: settings.shareJobTimes
          ? "Your reported times help everyone's starting estimates."
          : 'Your reported times are left out from the next estimate on.',
      }),
  );

  return (
    <section aria-labelledby="share-job-times-title" className={`${cardStyles} mt-8 p-4 sm:p-6`}>
      <h2 id="share-job-times-title" className="text-xl font-bold text-green-900">
        Starting estimates
      </h2>
      <label className="mt-3 flex items-start gap-3 text-stone-900">
        <input
          type="checkbox"
          role="switch"
          className="mt-1 size-5 shrink-0 accent-green-800"
          checked={checked}
          disabled={saving}
          aria-describedby={hintId}
          onChange={(event) => press(event.target.checked)}
        />
        <span className="font-medium">Share my job times, without names or photos, to improve everyone&apos;s starting estimates</span>
      </label>
      <p id={hintId} className="mt-2 text-sm text-stone-700 sm:ml-8">
        The actual times you report are pooled with those of at least two other crews to give new accounts a better first
        estimate; your own estimates learn from your jobs either way.
      </p>
    </section>
  );
}
