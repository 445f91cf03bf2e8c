import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { useId } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { z } from 'zod';
import { hourlyRateTextSchema } from '../../../core/analysis';
import { type SettingsResponse } from '../../../core/settings';
import type { PricingRulesInput, PricingRulesResponse } from '../../../core/pricing';
import { QUOTE_ROUNDINGS, quoteRoundingLabel, type QuoteRounding } from '../../../core/quote-settings';
import { errorMessage, isApiError } from '../../api/client';
import { HourlyRateField } from '../hourly-rate-field';
import { queryKeys } from '../../api/query-client';
import { signedInApi } from '../../api/signed-in';
import { PricingFields } from '../pricing/pricing-fields';
import { PRICING_FIELD_PATHS, pricingFormSchema, pricingFormValues } from '../pricing/pricing-form';
import { SubmitButton } from '../submit-button';
import { showErrorToast, showToast } from '../toast';
import { cardStyles } from '../ui';

const schema = z.object({ hourlyRate: hourlyRateTextSchema, pricing: pricingFormSchema, quoteRounding: z.enum(QUOTE_ROUNDINGS) });

interface PricingSectionProps {
  saved: PricingRulesResponse;
  /** The account's hourly rate, decimal text such as "45.00": the first of the charges. */
  hourlyRate: string;
  /** What the surgeon's quoted prices are rounded to, saved with the rules. */
  quoteRounding: QuoteRounding;
  vatNumber: string;
}

/**
 * The hourly rate and the pricing rules beside it, saved with their own button like the company
 * profile: what every new estimate's price is built from (docs/product.md, Accounts).
 * Business Admin's new businesses start from the same rate. Estimates already made keep the
 * price they were given, so a quote never changes after it was shown.
 */
export function PricingSection({ saved, hourlyRate, quoteRounding, vatNumber }: PricingSectionProps) {
  const queryClient = useQueryClient();
  const roundingHintId = useId();
  const form = useForm({ resolver: zodResolver(schema), defaultValues: { hourlyRate, pricing: pricingFormValues(saved), quoteRounding } });

  const save = useMutation({
    mutationFn: (values: { hourlyRate: string; pricing: PricingRulesInput; quoteRounding: QuoteRounding }) =>
      // An empty rate is sent as "0".
      signedInApi.settings.update({ ...values, hourlyRate: values.hourlyRate.trim() || '0' }),
    onSuccess: (settings: SettingsResponse) => {
      queryClient.setQueryData(queryKeys.settings, settings);
      form.reset({ hourlyRate: settings.hourlyRate, pricing: pricingFormValues(settings.pricing), quoteRounding: settings.quoteRounding });
      showToast({
        title: 'Pricing Saved',
        description: `New estimates are priced by these rules, and quoted prices rounded to the nearest ${quoteRoundingLabel(settings.quoteRounding)}.`,
      });
    },
    onError: (error) => {
      // The server names fields as "pricing.travel": put each message under its field.
      if (isApiError(error, 'VALIDATION_ERROR')) {
        for (const path of PRICING_FIELD_PATHS) {
          const message = error.details?.[path]?.[0];
          if (message) form.setError(path, { message });
        }
        const rate = error.details?.hourlyRate?.[0];
        if (rate) form.setError('hourlyRate', { message: rate });
        const rounding = error.details?.quoteRounding?.[0];
        if (rounding) form.setError('quoteRounding', { message: rounding });
      }
      showErrorToast({ title: 'Failed to Update Settings', description: errorMessage(error, 'Please try again.') });
    },
  });

  return (
    <section aria-labelledby="pricing-title" className={`${cardStyles} mt-8 p-4 sm:p-6`}>
      <h2 id="pricing-title" className="text-xl font-bold text-green-900">
        Pricing
      </h2>
      <p className="mt-1 max-w-prose text-sm text-stone-700">
        Your hourly rate and the charges beside it, all before VAT. Leave a charge empty if you do not make it. The results, your
        website estimator, lead e-mails and quotes all show the same price, line by line, with VAT as you choose below.
      </p>
      <FormProvider {...form}>
        <form noValidate aria-label="Pricing rules" onSubmit={form.handleSubmit((values) => save.mutate(values))} className="mt-5 flex flex-col gap-5">
          <HourlyRateField
            hint="In pounds (£) per crew-hour, before VAT: an hour of your whole crew's time (the crew size is below). Used to price every estimate; at 0, estimates show no cost."
            error={form.formState.errors.hourlyRate?.message}
            {...form.register('hourlyRate')}
          />
          <PricingFields vatNumber={vatNumber} />
          <fieldset aria-describedby={roundingHintId}>
            <legend className="text-sm font-medium text-stone-800">Round quoted prices to the nearest</legend>
            <div className="mt-1.5 flex flex-wrap gap-x-6 gap-y-2">
              {QUOTE_ROUNDINGS.map((rounding) => (
                <label key={rounding} className="flex min-h-6 items-center gap-2 text-sm text-stone-900">
                  <input type="radio" value={rounding} className="size-4 shrink-0 accent-green-800" {...form.register('quoteRounding')} />
                  {quoteRoundingLabel(rounding)}
                </label>
              ))}
            </div>
            <p id={roundingHintId} className="mt-2 max-w-prose text-sm text-stone-700">
              A tree&apos;s price on a job quote starts from the middle of its estimate, rounded to this (including VAT when
              your prices are shown inc VAT). The estimates themselves keep their exact figures.
            </p>
            {form.formState.errors.quoteRounding?.message ? (
              <p className="text-sm text-red-700">{form.formState.errors.quoteRounding.message}</p>
            ) : null}
          </fieldset>
          <div>
            <SubmitButton pending={save.isPending} fullWidth={false} icon={<Save aria-hidden="true" className="size-4" />}>
              Save Pricing
            </SubmitButton>
          </div>
        </form>
      </FormProvider>
    </section>
  );
}
