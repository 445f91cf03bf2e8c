import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { FormProvider, useForm } from 'react-hook-form';
import { z } from 'zod';
import type { SettingsResponse } from '../../../core/analysis';
import type { PricingRulesInput, PricingRulesResponse } from '../../../core/pricing';
import { errorMessage, isApiError } from '../../api/client';
import { queryKeys } from '../../api/query-client';
import { signedInApi } from '../../api/signed-in';
import { PricingFields } from '../pricing/pricing-fields';
import { PRICING_FIELD_PATHS, pricingFormSchema, pricingFormValues } from '../pricing/pricing-form';
import { SubmitButton } from '../submit-button';
import { showErrorToast, showToast } from '../toast';
import { cardStyles } from '../ui';

const schema = z.object({ pricing: pricingFormSchema });

/**
 * The pricing rules beside the hourly rate, saved with their own button like the company
 * profile: what every new estimate's price is built from. Estimates already made keep the
 * price they were given, so a quote never changes after it was shown.
 */
export function PricingSection({ saved, vatNumber }: { saved: PricingRulesResponse; vatNumber: string }) {
  const queryClient = useQueryClient();
  const form = useForm({ resolver: zodResolver(schema), defaultValues: { pricing: pricingFormValues(saved) } });

  const save = useMutation({
    mutationFn: (pricing: PricingRulesInput) => signedInApi.settings.update({ pricing }),
    onSuccess: (settings: SettingsResponse) => {
      queryClient.setQueryData(queryKeys.settings, settings);
      form.reset({ pricing: pricingFormValues(settings.pricing) });
      showToast({ title: 'Pricing Saved', description: 'New estimates are priced by these rules.' });
    },
    onError: (error) => {
      // The server names fields as "pricing.travel": put each message under its field.
      if (isApiError(error, 'VALIDATION_ERROR')) {
        for (const path of PRICING_FIELD_PATHS) {
          const message = error.details?.[path]?.[0];
          if (message) form.setError(path, { message });
        }
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
        Your charges beside the hourly rate, all before VAT. Leave a charge empty if you do not make it. The results, your
        website estimator, lead e-mails and quotes all show the same price, line by line, with VAT as you choose below.
      </p>
      <FormProvider {...form}>
        <form noValidate aria-label="Pricing rules" onSubmit={form.handleSubmit((values) => save.mutate(values.pricing))} className="mt-5 flex flex-col gap-5">
          <PricingFields vatNumber={vatNumber} />
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
