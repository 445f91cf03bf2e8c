import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, LoaderCircle, Trash2 } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { ACCOUNT_EXPORT_PATH, DELETE_PASSWORD_REQUIRED } from '../../../core/account-data';
import { errorMessage } from '../../api/client';
import { endSession } from '../../api/session';
import { signedInApi } from '../../api/signed-in';
import { Dialog } from '../dialog';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { buttonStyles, cardStyles } from '../ui';

/**
 * Settings, "Your data" (docs/product.md, Accounts; UK GDPR articles 15, 17 and 20): a ZIP of everything the
 * account holds, and deleting the account, confirmed with the password in a dialog.
 */
export function YourDataSection() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const openerRef = useRef<HTMLButtonElement>(null);

  const remove = useMutation({
    mutationFn: signedInApi.account.delete,
    onSuccess: ({ message }) => {
      endSession(queryClient);
      showToast({ title: 'Account Deleted', description: message });
      navigate('/login');
    },
    onError: (err) => setError(errorMessage(err, 'Your account could not be deleted. Please try again.')),
  });

  function close() {
    if (remove.isPending) return;
    setOpen(false);
    setPassword('');
    setError(undefined);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) return setError(DELETE_PASSWORD_REQUIRED);
    setError(undefined);
    remove.mutate({ password });
  }

  return (
    <section aria-labelledby="your-data-title" className={`${cardStyles} mt-8 p-4 sm:p-6`}>
      <h2 id="your-data-title" className="text-xl font-bold text-green-900">
        Your data
      </h2>
      <p className="mt-2 text-stone-700">
        Download a copy of everything your account holds: your details, settings, businesses and their quote requests,
        every analysis with its photo, your invoices, and your credit history.
      </p>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row">
        <a href={ACCOUNT_EXPORT_PATH} download className={buttonStyles.secondary}>
          <Download aria-hidden="true" className="size-4" />
          Download my data
        </a>
        <button ref={openerRef} type="button" className={buttonStyles.dangerOutline} onClick={() => setOpen(true)}>
          <Trash2 aria-hidden="true" className="size-4" />
          Delete my account
        </button>
      </div>

      <Dialog
        open={open}
        onClose={close}
        title="Delete your account?"
        description="This removes your account, every analysis and photo, your businesses and their quote requests, and your credits. It cannot be undone."
        returnFocusRef={openerRef}
        actions={
          <>
            <button type="button" className={buttonStyles.secondary} onClick={close} disabled={remove.isPending}>
              Keep My Account
            </button>
            <button
              type="submit"
              form="delete-account-form"
              className={buttonStyles.danger}
              disabled={remove.isPending}
              aria-busy={remove.isPending || undefined}
            >
              {remove.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
              Delete My Account
            </button>
          </>
        }
      >
        <form id="delete-account-form" onSubmit={submit} noValidate>
          <p className="mb-4 text-stone-800">Any subscription is cancelled first. Download your data before you go if you want a copy.</p>
          <TextField
            label="Your password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={error}
            required
          />
        </form>
      </Dialog>
    </section>
  );
}
