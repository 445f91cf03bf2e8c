import { useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { VAT_MODE_LABELS, VAT_MODES } from '../../../core/price';
import { MAX_CREW_SIZE, PRICING_FIELD_LABELS } from '../../../core/pricing';
import { PoundsField } from '../hourly-rate-field';
import { TextField } from '../text-field';
import { vatHint, type PricingAmountField, type PricingFormValues } from './pricing-form';

/** What each charge is for, said under its field. */
const AMOUNT_HINTS: Record<PricingAmountField, string> = {
  minimumCharge: 'The least any job is priced at, before VAT.',
  travel: 'Added to every job, for getting the crew and equipment there.',
  wastePerTonne: "Per tonne of green waste taken away, from the tree's estimated weight, when the wood is removed.",
  stumpGrinding: 'Added when the stump is to be ground out.',
  accessPlatform: 'Added when a dismantle can be reached by a vehicle.',
  trafficManagement: 'Added when the tree could fall on a road or footpath.',
};

interface PricingFieldsProps {
  /** The company profile's VAT number, to say when the VAT choice and it disagree; undefined when not known. */
  vatNumber?: string;
}

/**
 * The pricing rules' inputs, under `pricing` in the surrounding form: Settings' Pricing section
 * and a business's own prices in Business Admin, so both read alike. Amounts are before VAT;
 * an empty one is none.
 */
export function PricingFields({ vatNumber }: PricingFieldsProps) {
  const form = useFormContext<{ pricing: PricingFormValues }>();
  const errors = form.formState.errors.pricing;
  const vatMode = useWatch({ control: form.control, name: 'pricing.vatMode' });
  const id = useId();
  const hint = vatHint(vatMode, vatNumber);

  const amount = (field: PricingAmountField) => (
    <PoundsField
      key={field}
      label={PRICING_FIELD_LABELS[field]}
      hint={AMOUNT_HINTS[field]}
      placeholder="0.00"
      error={errors?.[field]?.message}
      {...form.register(`pricing.${field}`)}
    />
  );

  return (
    <div className="flex flex-col gap-5">
      <div className="grid gap-x-6 gap-y-4 sm:grid-cols-2">
        <TextField
          label={PRICING_FIELD_LABELS.crewSize}
          hint={`People the hourly rate pays for (1 to ${MAX_CREW_SIZE}).`}
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_CREW_SIZE}
          step={1}
          className="sm:max-w-52"
          error={errors?.crewSize?.message}
          {...form.register('pricing.crewSize', { valueAsNumber: true })}
        />
        {amount('minimumCharge')}
        {amount('travel')}
        {amount('wastePerTonne')}
        {amount('stumpGrinding')}
        {amount('accessPlatform')}
        {amount('trafficManagement')}
      </div>
      <fieldset aria-describedby={`${id}-vat-hint`}>
        <legend className="text-sm font-medium text-stone-800">{PRICING_FIELD_LABELS.vatMode}</legend>
        <div className="mt-1.5 flex flex-col gap-2">
          {VAT_MODES.map((mode) => (
            <label key={mode} className="flex items-start gap-2 text-sm text-stone-900">
              <input type="radio" value={mode} className="mt-0.5 size-4 shrink-0 accent-green-800" {...form.register('pricing.vatMode')} />
              {VAT_MODE_LABELS[mode]}
            </label>
          ))}
        </div>
        <p id={`${id}-vat-hint`} aria-live="polite" className="mt-2 text-sm text-amber-900">
          {hint}
        </p>
        {errors?.vatMode?.message ? <p className="text-sm text-red-700">{errors.vatMode.message}</p> : null}
      </fieldset>
    </div>
  );
}
