import { Ban, LoaderCircle, Send } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { LOCKED_STATUSES, type Job } from '../../../core/jobs';
import { errorMessage } from '../../api/client';
import { useRevokeJob, useSendJob } from '../../api/jobs';
import { ErrorAlert } from '../alert';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { buttonStyles } from '../ui';
import { versionWords } from './version-words';

/** What the send box says under its address: what to do first, or what sending does. */
function sendHint({ unsaved, noAddress, again }: { unsaved: boolean; noAddress: boolean; again: boolean }): string {
  if (unsaved) return 'Save your changes first: the saved job is what is sent.';
  if (noAddress) return "Type the address to send it to, or save the customer's e-mail above.";
  return again ? 'Sending again makes a new version; the link sent before stops working.' : 'They get a link to read, accept, decline or ask for a change.';
}

/**
 * Sending the quote (docs/product.md, Jobs and quotes): to the customer's e-mail or a typed one,
 * as a new version whose link replaces the one before; each version sent, when it was opened and
 * answered; and withdrawing the current link. Save changes first: what is sent is the saved job.
 */
export function SendQuotePanel({ job, unsaved }: { job: Job; unsaved: boolean }) {
  const saved = job.customer.email ?? '';
  const [email, setEmail] = useState(saved);
  // The box follows the customer's saved e-mail: saving one (or a new one) on the job puts it here.
  // Adjusted while rendering (react.dev, "Adjusting some state when a prop changes"), not in an effect.
  const [followed, setFollowed] = useState(saved);
  if (followed !== saved) {
    setFollowed(saved);
    setEmail(saved);
  }
  const [failure, setFailure] = useState<string | null>(null);
  const send = useSendJob(job.id);
  const revoke = useRevokeJob(job.id);
  const headingId = useId();
  const locked = LOCKED_STATUSES.has(job.status);
  const current = job.versions.find((v) => v.replacedAt === null && v.revokedAt === null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    send.mutate(email.trim(), {
      onSuccess: (sent) => showToast({ title: 'Quote Sent', description: `${sent.reference} was e-mailed to ${sent.versions[0]?.sentTo ?? email}.` }),
      onError: (error) => setFailure(errorMessage(error, 'The quote could not be sent. Please try again.')),
    });
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4">
      <h2 id={headingId} className="text-lg font-semibold text-stone-900">
        Send the quote
      </h2>
      {locked ? null : (
        <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="min-w-0 flex-1">
            <TextField
              label="Send the quote to"
              type="email"
              autoComplete="off"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              hint={sendHint({ unsaved, noAddress: email.trim() === '', again: current !== undefined })}
            />
          </div>
          <button type="submit" className={buttonStyles.primary} disabled={unsaved || job.items.length === 0 || email.trim() === ''} aria-busy={send.isPending || undefined}>
            {send.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Send aria-hidden="true" className="size-4" />}
            {current ? 'Send again' : 'Send quote'}
          </button>
        </form>
      )}
      {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
      {job.versions.length > 0 ? (
        <ol className="flex flex-col gap-2 text-sm text-stone-800">
          {job.versions.map((v) => (
            <li key={v.version} className="rounded-lg bg-stone-50 px-3 py-2">
              <span className="font-semibold">{`Version ${v.version}`}</span>
              {versionWords(v)}
            </li>
          ))}
        </ol>
      ) : null}
      {current && !locked ? (
        <button
          type="button"
          className={`${buttonStyles.secondary} self-start`}
          onClick={() => revoke.mutate(undefined, { onError: (error) => setFailure(errorMessage(error, 'The link could not be withdrawn.')) })}
        >
          <Ban aria-hidden="true" className="size-4" />
          Withdraw the link
        </button>
      ) : null}
    </section>
  );
}
