import { useQuery } from '@tanstack/react-query';
import { HandCoins, LoaderCircle, Save } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { jobUpdateSchema, type Job } from '../../../core/jobs';
import { errorMessage, isApiError } from '../../api/client';
import { useUpdateJob } from '../../api/jobs';
import { queryKeys } from '../../api/query-client';
import { signedInApi } from '../../api/signed-in';
import { ErrorAlert } from '../alert';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { tallButtonStyles } from '../ui';
import { depositAskNow, depositAskWords, underThreshold } from './deposit-ask';
import { formatPounds } from './job-list-summary';

/**
 * The deposit a job's quote asks on acceptance (docs/product.md, Card payments: deposits): the
 * Settings deposit rule (null), none (0), or this job's own percentage of the accepted total.
 * Saved on its own; it goes into the quote's copy when the quote is sent, so a quote already sent
 * keeps what it asked until it is sent again. Shown until the customer accepts.
 */

type Choice = 'rule' | 'none' | 'own';

const choiceOf = (percent: number | null): Choice => (percent === null ? 'rule' : percent === 0 ? 'none' : 'own');

const percentField = jobUpdateSchema.shape.depositPercent;

export function DepositOnAcceptance({ job }: { job: Job }) {
  const settings = useQuery({ queryKey: queryKeys.settings, queryFn: signedInApi.settings.get });
  const update = useUpdateJob(job.id);
  const [choice, setChoice] = useState<Choice>(() => choiceOf(job.deposit.percent));
  const [percent, setPercent] = useState(() => (job.deposit.percent ? String(job.deposit.percent) : ''));
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const headingId = useId();
  const name = useId();

  const rule = settings.data?.depositRule ?? null;
  const ruleWords = settings.isSuccess ? `(${rule ? depositAskWords(depositAskNow(null, rule)) : 'none is set in Settings'})` : '';
  // What the quote would ask if sent now, against what the latest copy sent asks (job.deposit.asked).
  const sent = job.versions.length > 0;
  const sendAgain = sent && settings.isSuccess && depositAskWords(depositAskNow(job.deposit.percent, rule)) !== depositAskWords(job.deposit.asked);

  function save(event: FormEvent) {
    event.preventDefault();
    if (update.isPending) return;
    setFailure(null);
    let value: number | null = choice === 'rule' ? null : 0;
    if (choice === 'own') {
      const checked = percentField.safeParse(percent.trim() === '' ? Number.NaN : Number(percent));
      if (!checked.success || checked.data === undefined || checked.data === null || checked.data === 0) {
        setError(checked.success ? 'Type a percentage over 0, or choose No deposit' : (checked.error.issues[0]?.message ?? 'Type a percentage'));
        return;
      }
      value = checked.data;
    }
    setError(undefined);
    update.mutate(
      { depositPercent: value },
      {
        onSuccess: (saved) =>
          showToast({
            title: 'Deposit set',
            description: `${saved.reference} ${saved.versions.length > 0 ? 'sent again will ask' : 'asks'} ${depositAskWords(depositAskNow(value, rule))} on acceptance.`,
          }),
        onError: (err) => {
          const message = isApiError(err) ? err.details?.depositPercent?.[0] : undefined;
          if (message) setError(message);
          else setFailure(errorMessage(err, 'The deposit could not be saved. Please try again.'));
        },
      },
    );
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4">
      <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-stone-900">
        <HandCoins aria-hidden="true" className="size-5" />
        Deposit on acceptance
      </h2>
      <p className="text-sm text-stone-800">
        <span className="font-medium">{`The quote ${sent ? 'sent ' : ''}asks ${depositAskWords(job.deposit.asked)}.`}</span>
        {underThreshold(job.deposit.asked, job.totalsWithOptional.gross) ? ` This job's ${formatPounds(job.totalsWithOptional.gross)} is not over that, so none is asked.` : ''}
        {sendAgain ? ' Send the quote again to ask the deposit set here.' : ''}
      </p>
      <form onSubmit={save} noValidate className="flex flex-col gap-3">
        <fieldset>
          <legend className="sr-only">The deposit this quote asks</legend>
          <label className="flex min-h-11 items-center gap-2 text-sm text-stone-900">
            <input type="radio" name={name} checked={choice === 'rule'} onChange={() => setChoice('rule')} className="size-5 shrink-0 accent-green-800" />
            <span>
              Follow my deposit rule <span className="text-stone-600">{ruleWords}</span>
            </span>
          </label>
          <label className="flex min-h-11 items-center gap-2 text-sm text-stone-900">
            <input type="radio" name={name} checked={choice === 'none'} onChange={() => setChoice('none')} className="size-5 shrink-0 accent-green-800" />
            No deposit
          </label>
          <label className="flex min-h-11 items-center gap-2 text-sm text-stone-900">
            <input type="radio" name={name} checked={choice === 'own'} onChange={() => setChoice('own')} className="size-5 shrink-0 accent-green-800" />
            A percentage of the accepted total
          </label>
        </fieldset>
        {choice === 'own' ? (
          <div className="sm:max-w-48">
            <TextField
              label="Deposit (%)"
              inputMode="decimal"
              autoComplete="off"
              value={percent}
              error={error}
              onChange={(event) => {
                setPercent(event.target.value);
                setError(undefined);
              }}
            />
          </div>
        ) : null}
        {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
        <button type="submit" className={`${tallButtonStyles.secondary} self-start`} aria-disabled={update.isPending || undefined} aria-busy={update.isPending || undefined}>
          {update.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Save aria-hidden="true" className="size-4" />}
          Set the deposit
        </button>
      </form>
    </section>
  );
}
