import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RotateCcw, Save } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  MAX_QUOTE_REMINDER_DAYS,
  MAX_QUOTE_TERMS_CHARS,
  QUOTE_TERMS_MESSAGE,
  quoteReminderDaysSchema,
  quoteTermsText,
  standardQuoteTerms,
} from '../../../core/quote-settings';
import { errorMessage, isApiError } from '../../api/client';
import { queryKeys } from '../../api/query-client';
import { signedInApi } from '../../api/signed-in';
import { SubmitButton } from '../submit-button';
import { TextArea } from '../text-area';
import { TextField } from '../text-field';
import { showErrorToast, showToast } from '../toast';
import { buttonStyles, cardStyles } from '../ui';

/** Counted as the server counts: once tidied (core/quote-settings.ts quoteTermsText). */
const schema = z.object({
  quoteTerms: z.string().refine((text) => quoteTermsText(text).length <= MAX_QUOTE_TERMS_CHARS, QUOTE_TERMS_MESSAGE),
  quoteReminderDays: quoteReminderDaysSchema,
});

/**
 * The terms printed on the surgeon's job quotes, which the customer agrees to when accepting,
 * saved with their own button like the company profile. The standard terms are shown until the
 * surgeon writes their own; an empty box or "Use the standard terms" goes back to them.
 */
export function QuoteTermsSection({ saved, savedReminderDays, paymentTermsDays }: { saved: string; savedReminderDays: number; paymentTermsDays: number }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState('');
  const form = useForm({ resolver: zodResolver(schema), defaultValues: { quoteTerms: saved, quoteReminderDays: savedReminderDays } });
  const terms = useWatch({ control: form.control, name: 'quoteTerms' });
  // The standard terms' payment sentence follows Getting paid's payment terms: a change saved there
  // reaches the box here, unless the surgeon is in the middle of editing it.
  const { isDirty } = form.formState;
  useEffect(() => {
    if (!isDirty) form.reset({ quoteTerms: saved, quoteReminderDays: savedReminderDays });
  }, [saved, savedReminderDays, isDirty, form]);

  const save = useMutation({
    mutationFn: (values: z.output<typeof schema>) => signedInApi.settings.update(values),
    onSuccess: (settings) => {
      queryClient.setQueryData(queryKeys.settings, settings);
      form.reset({ quoteTerms: settings.quoteTerms, quoteReminderDays: settings.quoteReminderDays });
      setStatus('');
      showToast({
        title: 'Quote Terms Saved',
        description: settings.quoteTerms === standardQuoteTerms(settings.paymentTermsDays) ? 'Your quotes will carry the standard terms.' : 'Your quotes will carry your own terms.',
      });
    },
    onError: (error) => {
      const details = isApiError(error, 'VALIDATION_ERROR') ? error.details : undefined;
      if (details?.quoteTerms?.[0]) form.setError('quoteTerms', { message: details.quoteTerms[0] });
      if (details?.quoteReminderDays?.[0]) form.setError('quoteReminderDays', { message: details.quoteReminderDays[0] });
      showErrorToast({ title: 'Failed to Update Settings', description: errorMessage(error, 'Please try again.') });
    },
  });

  function fillStandardTerms() {
    form.setValue('quoteTerms', standardQuoteTerms(paymentTermsDays), { shouldDirty: true, shouldValidate: true });
    setStatus('The standard terms are filled in. Select Save Quote Terms to keep them.');
  }

  return (
    <section aria-labelledby="quote-terms-title" className={`${cardStyles} mt-8 p-4 sm:p-6`}>
      <h2 id="quote-terms-title" className="text-xl font-bold text-green-900">
        Quote terms
      </h2>
      <p className="mt-1 max-w-prose text-sm text-stone-700">
        Printed on every job quote you send; your customer agrees to them when they accept. The standard terms cover
        payment, insurance, protected trees, nesting birds, the wood, access and the right to cancel. Change them to suit
        how you work.
      </p>
      <form noValidate aria-label="Quote terms" onSubmit={form.handleSubmit((values) => save.mutate(values))} className="mt-5 flex flex-col gap-3">
        <div>
          <TextArea
            label="Your terms"
            hint="One clause per line. Leave it empty, or use the standard terms, to go back to them."
            rows={12}
            maxLength={MAX_QUOTE_TERMS_CHARS}
            error={form.formState.errors.quoteTerms?.message}
            {...form.register('quoteTerms')}
          />
          <p className="mt-1 text-right text-xs text-stone-600">
            {terms.length} / {MAX_QUOTE_TERMS_CHARS} characters
          </p>
        </div>
        <div className="max-w-xs">
          <TextField
            label="Remind an unanswered customer after (days)"
            hint={`Once, by e-mail, with a link to the same quote. 0 for never; at most ${MAX_QUOTE_REMINDER_DAYS}.`}
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_QUOTE_REMINDER_DAYS}
            step={1}
            error={form.formState.errors.quoteReminderDays?.message}
            {...form.register('quoteReminderDays', { valueAsNumber: true })}
          />
        </div>
        <p role="status" className="min-h-5 text-sm text-stone-700">
          {status}
        </p>
        <div className="flex flex-col gap-2 sm:flex-row">
          <SubmitButton pending={save.isPending} fullWidth={false} icon={<Save aria-hidden="true" className="size-4" />}>
            Save Quote Terms
          </SubmitButton>
          <button type="button" className={buttonStyles.secondary} onClick={fillStandardTerms}>
            <RotateCcw aria-hidden="true" className="size-4" />
            Use the standard terms
          </button>
        </div>
      </form>
    </section>
  );
}
