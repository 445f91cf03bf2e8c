import { MailWarning, RefreshCw, Send } from 'lucide-react';
import { useId } from 'react';
import type { OutboxMail } from '../../../core/mail-outbox';
import { errorMessage } from '../../api/client';
import { useSendAgain, useUndeliveredMail } from '../../api/mail-outbox';
import { ErrorAlert } from '../alert';
import { momentWords } from '../invoices/invoice-history';
import { showErrorToast, showToast } from '../toast';
import { buttonStyles, cardStyles, tallButtonStyles } from '../ui';

/**
 * Settings, "E-mail not yet delivered" (docs/product.md, E-mail that cannot be lost): the
 * account's e-mails the mail server has not taken yet, tried again by themselves, and those given
 * up after 48 hours, with why and "Send again". Nothing is shown while every e-mail has gone.
 */
function MailRow({ mail }: { mail: OutboxMail }) {
  const sendAgain = useSendAgain();
  const failed = mail.state === 'failed';
  return (
    <li className="flex flex-col gap-2 rounded-lg bg-stone-50 p-3 text-sm text-stone-800 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0 [overflow-wrap:anywhere]">
        <p className="font-semibold text-stone-900">{mail.subject}</p>
        <p>
          To {mail.to}
          <span className="text-stone-600">{` · written ${momentWords(mail.createdAt)}`}</span>
        </p>
        <p className={failed ? 'text-red-800' : 'text-stone-700'}>
          {failed
            ? `Given up after ${mail.tries} ${mail.tries === 1 ? 'try' : 'tries'}.`
            : mail.tries === 0
              ? 'Not tried yet.'
              : `Tried ${mail.tries} ${mail.tries === 1 ? 'time' : 'times'}; next try ${mail.nextTryAt ? momentWords(mail.nextTryAt) : 'soon'}.`}
          {mail.lastError ? ` ${mail.lastError}` : ''}
        </p>
      </div>
      <button
        type="button"
        className={`${tallButtonStyles.secondary} shrink-0`}
        disabled={sendAgain.isPending}
        onClick={() =>
          sendAgain.mutate(mail.id, {
            onSuccess: () => showToast({ title: 'Sending again', description: `"${mail.subject}" to ${mail.to} is being sent now.` }),
            onError: (error) => showErrorToast({ title: 'Not sent again', description: errorMessage(error, 'Please try again.') }),
          })
        }
      >
        <Send aria-hidden="true" className="size-4" />
        Send again<span className="sr-only">{`: ${mail.subject} to ${mail.to}`}</span>
      </button>
    </li>
  );
}

export function UndeliveredMailSection() {
  const mails = useUndeliveredMail();
  const headingId = useId();
  if (mails.isError) {
    return (
      <div className="mb-8">
        <ErrorAlert>The e-mails not yet delivered could not be loaded. Please reload the page.</ErrorAlert>
      </div>
    );
  }
  if (!mails.data || mails.data.length === 0) return null;
  const failed = mails.data.filter((mail) => mail.state === 'failed');
  const waiting = mails.data.filter((mail) => mail.state === 'waiting');
  return (
    <section aria-labelledby={headingId} className={`${cardStyles} mb-8 flex flex-col gap-4 border-amber-300 p-4 sm:p-6`}>
      <div>
        <h2 id={headingId} className="flex items-center gap-2 text-xl font-bold text-green-900">
          <MailWarning aria-hidden="true" className="size-5 text-amber-700" />
          E-mail not yet delivered
        </h2>
        <p className="mt-2 text-stone-700">
          The mail server has not taken these yet. Each is tried again by itself for 48 hours, with longer waits between tries; after that it is given up and
          waits here for you to send it again. If many are waiting, the install&apos;s mail server may be down: the person who runs it can check.
        </p>
      </div>
      {failed.length > 0 ? (
        <div>
          <h3 className="font-semibold text-stone-900">Given up</h3>
          <ul className="mt-2 flex flex-col gap-2">
            {failed.map((mail) => (
              <MailRow key={mail.id} mail={mail} />
            ))}
          </ul>
        </div>
      ) : null}
      {waiting.length > 0 ? (
        <div>
          <h3 className="font-semibold text-stone-900">Waiting to be tried again</h3>
          <ul className="mt-2 flex flex-col gap-2">
            {waiting.map((mail) => (
              <MailRow key={mail.id} mail={mail} />
            ))}
          </ul>
        </div>
      ) : null}
      <div>
        <button type="button" className={buttonStyles.secondary} onClick={() => void mails.refetch()} disabled={mails.isFetching}>
          <RefreshCw aria-hidden="true" className="size-4" />
          Check again
        </button>
      </div>
    </section>
  );
}
