import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Landmark, Pencil, Save, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { SettingsResponse } from '../../../core/settings';
import { bankDetailsSchema } from '../../../core/invoices';
import { errorMessage, isApiError } from '../../api/client';
import { queryKeys } from '../../api/query-client';
import { signedInApi } from '../../api/signed-in';
import { SubmitButton } from '../submit-button';
import { TextField } from '../text-field';
import { showErrorToast, showToast } from '../toast';
import { tallButtonStyles } from '../ui';

const FIELDS = ['accountName', 'sortCode', 'accountNumber'] as const;
const EMPTY = { accountName: '', sortCode: '', accountNumber: '' };

/**
 * The account invoices ask to be paid into (docs/product.md, Getting paid). The server answers it
 * masked ("12-34-56", "****5678"), so the saved details are shown as they are and replaced whole,
 * never edited in place: the full number is never sent back to the page.
 */
export function BankDetailsForm({ saved }: { saved: SettingsResponse['bankDetails'] }) {
  const queryClient = useQueryClient();
  const [replacing, setReplacing] = useState(false);
  const form = useForm({ resolver: zodResolver(bankDetailsSchema), defaultValues: EMPTY });
  const { errors } = form.formState;
  const replaceButton = useRef<HTMLButtonElement>(null);

  const save = useMutation({
    mutationFn: (bankDetails: z.output<typeof bankDetailsSchema> | null) => signedInApi.settings.update({ bankDetails }),
    onSuccess: (settings) => {
      queryClient.setQueryData(queryKeys.settings, settings);
      form.reset(EMPTY);
      setReplacing(false);
      showToast(
        settings.bankDetails
          ? { title: 'Bank Details Saved', description: 'Invoices you issue from now on ask to be paid into this account.' }
          : { title: 'Bank Details Removed', description: 'Invoices you issue from now on carry no bank details.' },
      );
      requestAnimationFrame(() => replaceButton.current?.focus());
    },
    onError: (error) => {
      if (isApiError(error, 'VALIDATION_ERROR')) {
        for (const field of FIELDS) {
          const message = error.details?.[`bankDetails.${field}`]?.[0];
          if (message) form.setError(field, { message });
        }
      }
      showErrorToast({ title: 'Failed to Update Settings', description: errorMessage(error, 'Please try again.') });
    },
  });

  if (saved && !replacing) {
    return (
      <div className="flex flex-col gap-3">
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 rounded-lg bg-stone-50 px-3 py-2.5 text-sm">
          <dt className="text-stone-600">Account name</dt>
          <dd className="font-medium break-words text-stone-900">{saved.accountName}</dd>
          <dt className="text-stone-600">Sort code</dt>
          <dd className="font-medium text-stone-900 tabular-nums">{saved.sortCode}</dd>
          <dt className="text-stone-600">Account number</dt>
          <dd className="font-medium text-stone-900 tabular-nums">
            <span aria-hidden="true">{saved.accountNumber}</span>
            <span className="sr-only">{`ending ${saved.accountNumber.slice(-4)}`}</span>
          </dd>
        </dl>
        <div className="flex flex-col gap-2 sm:flex-row">
          <button ref={replaceButton} type="button" className={tallButtonStyles.secondary} onClick={() => setReplacing(true)}>
            <Pencil aria-hidden="true" className="size-4" />
            Replace bank details
          </button>
          <button type="button" className={tallButtonStyles.dangerOutline} onClick={() => save.mutate(null)} disabled={save.isPending} aria-busy={save.isPending || undefined}>
            <Trash2 aria-hidden="true" className="size-4" />
            Remove bank details
          </button>
        </div>
      </div>
    );
  }

  return (
    <form noValidate aria-label="Bank details" onSubmit={form.handleSubmit((values) => save.mutate(values))} className="flex flex-col gap-3">
      {saved ? null : (
        <p className="flex items-start gap-2 text-sm text-stone-700">
          <Landmark aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          No bank details yet: invoices say how much and when, but not where to pay.
        </p>
      )}
      <TextField label="Account name" autoComplete="off" error={errors.accountName?.message} {...form.register('accountName')} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Sort code" hint="6 digits, e.g. 12-34-56" inputMode="numeric" autoComplete="off" error={errors.sortCode?.message} {...form.register('sortCode')} />
        <TextField label="Account number" hint="8 digits" inputMode="numeric" autoComplete="off" error={errors.accountNumber?.message} {...form.register('accountNumber')} />
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <SubmitButton pending={save.isPending} fullWidth={false} tall icon={<Save aria-hidden="true" className="size-4" />}>
          Save Bank Details
        </SubmitButton>
        {saved ? (
          <button
            type="button"
            className={tallButtonStyles.secondary}
            onClick={() => {
              form.reset(EMPTY);
              setReplacing(false);
            }}
          >
            Keep the saved details
          </button>
        ) : null}
      </div>
    </form>
  );
}
