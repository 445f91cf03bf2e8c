import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import type { SettingsResponse } from '../../../core/analysis';
import { errorMessage } from '../../api/client';
import { signedInApi } from '../../api/signed-in';
import { queryKeys } from '../../api/query-client';
import { showErrorToast, showToast } from '../toast';
import { cardStyles } from '../ui';

/**
 * Whether the account's reported job times count in the starting point new and sparse
 * accounts are estimated from. On by default; saved as soon as it is changed, like a switch.
 */
export function ShareJobTimesSection({ saved }: { saved: boolean }) {
  const queryClient = useQueryClient();
  const hintId = useId();
  const save = useMutation({
    mutationFn: (shareJobTimes: boolean) => signedInApi.settings.update({ shareJobTimes }),
    onSuccess: (settings: SettingsResponse) => {
      queryClient.setQueryData(queryKeys.settings, settings);
      showToast({
        title: settings.shareJobTimes ? 'Sharing Your Job Times' : 'Not Sharing Your Job Times',
        description: settings.shareJobTimes
          ? "Your reported times help everyone's starting estimates."
          : 'Your reported times are left out from the next estimate on.',
      });
    },
    onError: (error) => showErrorToast({ title: 'Failed to Update Settings', description: errorMessage(error, 'Please try again.') }),
  });
  const checked = save.isPending ? save.variables : saved;

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
          disabled={save.isPending}
          aria-describedby={hintId}
          onChange={(event) => save.mutate(event.target.checked)}
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
