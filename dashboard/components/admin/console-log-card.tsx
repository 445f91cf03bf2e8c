import { LoaderCircle, ScrollText } from 'lucide-react';
import { ADMIN_LOG_ERROR_DEFAULT, ADMIN_LOG_ERROR_TITLE } from '../../../core/admin';
import { useLogAccounts } from '../../api/admin';
import { errorMessage } from '../../api/client';
import { showErrorToast } from '../toast';
import { buttonStyles, cardStyles } from '../ui';

/**
 * docs/product.md, Help assistant and admin log: "Trigger Console Log" writes every account to the server log and
 * shows the answer's message and total users; a failure is the "Error" toast. While it
 * runs the button stays focused and says so (aria-disabled: disabled would drop focus).
 */
export function ConsoleLogCard() {
  const log = useLogAccounts();
  const busy = log.isPending;

  function trigger() {
    if (busy) return;
    log.mutate(undefined, {
      onError: (error) => showErrorToast({ title: ADMIN_LOG_ERROR_TITLE, description: errorMessage(error, ADMIN_LOG_ERROR_DEFAULT) }),
    });
  }

  return (
    <section aria-labelledby="console-log-heading" className={`${cardStyles} flex flex-col gap-4 p-5 sm:p-6`}>
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-green-100 text-green-800">
          <ScrollText aria-hidden="true" className="size-5" />
        </span>
        <div>
          <h2 id="console-log-heading" className="text-lg font-semibold text-stone-900">
            Server console log
          </h2>
          <p className="mt-1 max-w-prose text-sm text-stone-700">
            Writes one line per account to the server&rsquo;s log: id, username, e-mail, name, dates, plan, status, credit
            balance and refill dates. Passwords, sessions and tokens are never written.
          </p>
        </div>
      </div>
      <div>
        <button type="button" className={buttonStyles.primary} aria-disabled={busy || undefined} onClick={trigger}>
          {busy ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          {busy ? 'Logging accounts…' : 'Trigger Console Log'}
        </button>
        {/* Always in the page (never display:none), so screen readers announce the answer when it arrives. */}
        <div role="status">
          {log.data ? (
            <div className="mt-4 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-950">
              <p className="font-medium">{log.data.message}</p>
              <p className="mt-1">
                Total users: <strong data-testid="total-users">{log.data.totalUsers}</strong>
              </p>
            </div>
          ) : null}
        </div>
      </div>
    </section>
  );
}
