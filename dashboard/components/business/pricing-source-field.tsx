import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { queryKeys } from '../../api/query-client';
import { signedInApi } from '../../api/signed-in';
import { PricingFields } from '../pricing/pricing-fields';
import { PRICING_SOURCE_LABELS, PRICING_SOURCES, pricingFormValues } from '../pricing/pricing-form';
import type { EditBusinessFormValues } from './business-form-schema';

/**
 * Whether a business's estimator prices by the owner's Settings (the default, and it follows
 * later changes there) or by prices of its own, shown as the same fields as Settings' Pricing.
 */
export function PricingSourceField() {
  const form = useFormContext<EditBusinessFormValues>();
  const id = useId();
  const source = useWatch({ control: form.control, name: 'pricingSource' });
  // The owner's rules start the business's own prices, and their VAT number tells the VAT hint.
  const settings = useQuery({ queryKey: queryKeys.settings, queryFn: signedInApi.settings.get });

  const sourceInput = form.register('pricingSource', {
    onChange: (event: { target: { value: string } }) => {
      const saved = settings.data?.pricing;
      if (event.target.value === 'own' && saved && !form.getFieldState('pricing').isDirty) {
        form.setValue('pricing', pricingFormValues(saved));
      }
    },
  });

  return (
    <fieldset aria-describedby={`${id}-hint`}>
      <legend className="text-sm font-medium text-stone-800">Prices</legend>
      <div className="mt-1.5 flex flex-col gap-2">
        {PRICING_SOURCES.map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm text-stone-900">
            <input type="radio" value={value} className="size-4 shrink-0 accent-green-800" {...sourceInput} />
            {PRICING_SOURCE_LABELS[value]}
          </label>
        ))}
      </div>
      <p id={`${id}-hint`} className="mt-1 text-xs text-stone-600">
        {source === 'own'
          ? 'These charges, before VAT, with the hourly rate above: your estimator, lead e-mails and quotes show the same price.'
          : 'The minimum charge, travel, equipment and VAT set under Pricing in Settings, with the hourly rate above. Changes there apply here too.'}
      </p>
      {source === 'own' ? (
        <div className="mt-4 border-l-2 border-stone-200 pl-4">
          <PricingFields vatNumber={settings.data?.companyProfile.vatNumber} />
        </div>
      ) : null}
    </fieldset>
  );
}
