import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ImageUp, LoaderCircle, Save, Trash2 } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useForm } from 'react-hook-form';
import type { SettingsResponse } from '../../../core/settings';
import {
  companyProfileSchema,
  formatVatNumber,
  LOGO_HINT,
  MAX_ADDRESS_LINES,
  MAX_LOGO_BYTES,
  MAX_QUOTE_VALIDITY_DAYS,
  MIN_QUOTE_VALIDITY_DAYS,
  type CompanyProfileInput,
  type CompanyProfileResponse,
} from '../../../core/company-profile';
import { errorMessage, isApiError } from '../../api/client';
import { signedInApi } from '../../api/signed-in';
import { queryKeys } from '../../api/query-client';
import { SubmitButton } from '../submit-button';
import { TextArea } from '../text-area';
import { TextField } from '../text-field';
import { showErrorToast, showToast } from '../toast';
import { buttonStyles, cardStyles } from '../ui';

const FIELDS = ['tradingName', 'phone', 'email', 'address', 'vatNumber', 'quoteValidityDays'] as const;

function formValues(profile: CompanyProfileResponse): CompanyProfileInput {
  const { logoUrl: _logo, ...values } = profile;
  return values;
}

/**
 * The company profile printed at the head of every quote (docs/analysis.md,
 * Quotes), saved with its own button: Reset to Default above fills in the AI settings
 * only and never touches these details.
 */
export function CompanyProfileSection({ saved }: { saved: CompanyProfileResponse }) {
  const queryClient = useQueryClient();
  const form = useForm({ resolver: zodResolver(companyProfileSchema), defaultValues: formValues(saved) });
  const { errors } = form.formState;

  const save = useMutation({
    mutationFn: (companyProfile: CompanyProfileInput) => signedInApi.settings.update({ companyProfile }),
    onSuccess: (settings) => {
      queryClient.setQueryData(queryKeys.settings, settings);
      form.reset(formValues(settings.companyProfile));
      showToast({ title: 'Company Profile Saved', description: 'Your quotes will show these details.' });
    },
    onError: (error) => {
      // The server names fields as "companyProfile.vatNumber": put each message under its field.
      if (isApiError(error, 'VALIDATION_ERROR')) {
        for (const field of FIELDS) {
          const message = error.details?.[`companyProfile.${field}`]?.[0];
          if (message) form.setError(field, { message });
        }
      }
      showErrorToast({ title: 'Failed to Update Settings', description: errorMessage(error, 'Please try again.') });
    },
  });

  return (
    <section aria-labelledby="company-profile-title" className={`${cardStyles} mt-8 p-4 sm:p-6`}>
      <h2 id="company-profile-title" className="text-xl font-bold text-green-900">
        Company profile
      </h2>
      <p className="mt-1 text-sm text-stone-700">
        Printed at the top of every quote you download, so your customer knows who it is from and how to accept it.
        Reset to Default above does not change these details.
      </p>
      <div className="mt-5 grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <form
          noValidate
          aria-label="Company profile"
          onSubmit={form.handleSubmit((values) => save.mutate(values))}
          className="flex flex-col gap-4"
        >
          <TextField
            label="Trading name"
            hint="The name your customers know you by, e.g. Oak & Ash Tree Care Ltd."
            autoComplete="organization"
            error={errors.tradingName?.message}
            {...form.register('tradingName')}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label="Phone" type="tel" autoComplete="tel" error={errors.phone?.message} {...form.register('phone')} />
            <TextField label="E-mail" type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
          </div>
          <TextArea
            label="Address"
            hint={`As it should appear on the quote, one line per line (at most ${MAX_ADDRESS_LINES}).`}
            rows={4}
            autoComplete="street-address"
            error={errors.address?.message}
            {...form.register('address')}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="VAT number (optional)"
              hint="Only if you are VAT-registered, e.g. GB 123 4567 89. Quotes then show the price before VAT, VAT at 20% and the total."
              autoCapitalize="characters"
              error={errors.vatNumber?.message}
              // Shown as quotes print it (GB 123 4567 89) as soon as it is typed, not only once saved.
              {...form.register('vatNumber', { onBlur: (event: ChangeEvent<HTMLInputElement>) => form.setValue('vatNumber', formatVatNumber(event.target.value)) })}
            />
            <TextField
              label="Quote valid for (days)"
              hint={`How long your price holds, ${MIN_QUOTE_VALIDITY_DAYS} to ${MAX_QUOTE_VALIDITY_DAYS} days. Quotes show the date as "Valid until".`}
              type="number"
              inputMode="numeric"
              min={MIN_QUOTE_VALIDITY_DAYS}
              max={MAX_QUOTE_VALIDITY_DAYS}
              step={1}
              error={errors.quoteValidityDays?.message}
              {...form.register('quoteValidityDays', { valueAsNumber: true })}
            />
          </div>
          <div>
            <SubmitButton pending={save.isPending} fullWidth={false} icon={<Save aria-hidden="true" className="size-4" />}>
              Save Company Profile
            </SubmitButton>
          </div>
        </form>
        <LogoField logoUrl={saved.logoUrl} />
      </div>
    </section>
  );
}

/** The logo, uploaded and removed at once (not with Save): a preview, Upload or Replace, Remove. */
function LogoField({ logoUrl }: { logoUrl: string | null }) {
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const [problem, setProblem] = useState('');
  const saved = (settings: SettingsResponse) => {
    queryClient.setQueryData(queryKeys.settings, settings);
    setProblem('');
  };
  const failed = (error: unknown) => {
    const message = errorMessage(error, 'Please try again.');
    setProblem(message);
    showErrorToast({ title: 'Failed to Update Settings', description: message });
  };
  const upload = useMutation({
    mutationFn: signedInApi.settings.uploadLogo,
    onSuccess: (settings) => {
      saved(settings);
      showToast({ title: 'Logo Updated', description: 'Your quotes will show the new logo.' });
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: signedInApi.settings.removeLogo,
    onSuccess: (settings) => {
      saved(settings);
      showToast({ title: 'Logo Removed', description: 'Your quotes will show your trading name without a logo.' });
    },
    onError: failed,
  });
  const busy = upload.isPending || remove.isPending;

  function chosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    // The server checks again, by the file's bytes; this only saves sending a file it would refuse.
    if (file.size > MAX_LOGO_BYTES) {
      setProblem('Logo is too large. The maximum file size is 2 MB.');
      return;
    }
    upload.mutate(file);
  }

  return (
    <div role="group" aria-labelledby={`${id}-label`} className="flex flex-col gap-2">
      <span id={`${id}-label`} className="text-sm font-medium text-stone-800">
        Logo (optional)
      </span>
      <div className="flex min-h-28 items-center justify-center rounded-lg border border-stone-300 bg-white p-3">
        {logoUrl ? (
          <img src={logoUrl} alt="Your logo, as it appears on quotes" className="max-h-24 max-w-full object-contain" />
        ) : (
          <p className="text-sm text-stone-600">No logo yet. Quotes show your trading name alone.</p>
        )}
      </div>
      <p id={`${id}-hint`} className="text-xs text-stone-600">
        {LOGO_HINT}
      </p>
      <input
        ref={inputRef}
        type="file"
        accept="image/png,image/jpeg,image/webp"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onChange={chosen}
      />
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <button
          type="button"
          className={buttonStyles.secondary}
          onClick={() => inputRef.current?.click()}
          disabled={busy}
          aria-busy={upload.isPending || undefined}
          aria-describedby={`${id}-hint`}
        >
          {upload.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <ImageUp aria-hidden="true" className="size-4" />}
          {logoUrl ? 'Replace Logo' : 'Upload Logo'}
        </button>
        {logoUrl ? (
          <button type="button" className={buttonStyles.dangerOutline} onClick={() => remove.mutate()} disabled={busy} aria-busy={remove.isPending || undefined}>
            {remove.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Trash2 aria-hidden="true" className="size-4" />}
            Remove Logo
          </button>
        ) : null}
      </div>
      <p role="alert" className="min-h-5 text-sm text-red-700">
        {problem}
      </p>
    </div>
  );
}
