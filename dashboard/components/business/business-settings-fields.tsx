import { useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { MAX_INSTRUCTIONS_CHARS } from '../../../core/analysis';
import { ANALYSIS_COST_CREDITS } from '../../../core/credits';
import { MAX_DAILY_CAP } from '../../../core/embed';
import { UNIT_SYSTEM_LABELS, UNIT_SYSTEMS } from '../../../core/units';
import { useVisionModel } from '../../api/capabilities';
import { HourlyRateField } from '../hourly-rate-field';
import { instructionsHint } from '../instructions-hint';
import { TextArea } from '../text-area';
import { TextField } from '../text-field';
import { contrastRatio, VISIBLE_ON_WHITE_CONTRAST, WHITE } from '../../../core/accent';
import { fieldErrorText, type EditBusinessFormValues } from './business-form-schema';
import { PricingSourceField } from './pricing-source-field';

/**
 * The settings a business can change after creation (rate, instructions, origins, cap,
 * colour), shared by the create form and the card's Edit form. Both forms' values hold
 * these fields under the same names, so the edit form's type describes them for either.
 */
export function BusinessSettingsFields() {
  const form = useFormContext<EditBusinessFormValues>();
  const { errors } = form.formState;
  const dailyCap = useWatch({ control: form.control, name: 'dailyCap' });
  const visionModel = useVisionModel();
  const unitsHintId = useId();
  const capCredits = /^\d+$/.test(dailyCap.trim()) ? Number(dailyCap) * ANALYSIS_COST_CREDITS : null;

  return (
    <>
      <HourlyRateField
        required
        hint="In pounds (£) per crew-hour, before VAT. It prices every estimate on your website; visitors cannot change it."
        error={fieldErrorText(errors.hourlyRate?.message)}
        {...form.register('hourlyRate')}
      />
      <fieldset aria-describedby={unitsHintId}>
        <legend className="text-sm font-medium text-stone-800">Units</legend>
        <div className="mt-1.5 flex flex-col gap-2 sm:flex-row sm:gap-6">
          {UNIT_SYSTEMS.map((units) => (
            <label key={units} className="flex items-center gap-2 text-sm text-stone-900">
              <input type="radio" value={units} className="size-4 shrink-0 accent-green-800" {...form.register('units')} />
              {UNIT_SYSTEM_LABELS[units]}
            </label>
          ))}
        </div>
        <p id={unitsHintId} className="mt-1 text-xs text-stone-600">
          How your estimator asks visitors for the tree&apos;s size and shows it back, with the other unit in brackets.
        </p>
      </fieldset>
      <PricingSourceField />
      <TextArea
        label="AI Instructions (optional)"
        hint={instructionsHint(visionModel, 'business')}
        rows={3}
        maxLength={MAX_INSTRUCTIONS_CHARS}
        error={errors.aiInstructions?.message}
        {...form.register('aiInstructions')}
      />
      <TextArea
        label="Allowed Site Origins (optional)"
        hint="One exact address per line, such as https://www.example.com (no wildcards or paths: list www and the bare domain each). When you list any, only those sites can show your estimator. Leave empty to allow any site."
        rows={3}
        placeholder="https://www.example.com"
        spellCheck={false}
        autoCapitalize="none"
        error={errors.allowedOrigins?.message}
        {...form.register('allowedOrigins')}
      />
      <TextArea
        label="Postcode districts you cover (optional)"
        hint="e.g. LS1, LS6, BD — leave empty to take requests from anywhere. A whole area such as BD covers BD1 to BD99. Requests from elsewhere still reach you, marked Outside your area."
        rows={2}
        placeholder="LS1, LS6, BD"
        spellCheck={false}
        autoCapitalize="characters"
        error={errors.serviceDistricts?.message}
        {...form.register('serviceDistricts')}
      />
      <TextField
        label="Daily Analysis Cap"
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_DAILY_CAP}
        step={1}
        className="sm:max-w-sm"
        hint={`The most analyses your estimator runs a day; each uses ${ANALYSIS_COST_CREDITS} of your credits${
          capCredits !== null ? ` (at most ${capCredits.toLocaleString('en-GB')} credits a day)` : ''
        }.`}
        error={errors.dailyCap?.message}
        {...form.register('dailyCap')}
      />
      <AccentColourField />
    </>
  );
}

/** An optional colour for the estimator's buttons and headings, or the default green. */
function AccentColourField() {
  const form = useFormContext<EditBusinessFormValues>();
  const id = useId();
  const [color, useDefault] = useWatch({ control: form.control, name: ['accentColor', 'useDefaultAccent'] });
  const contrast = /^#[0-9a-fA-F]{6}$/.test(color) ? contrastRatio(color, WHITE) : null;
  const colorInput = form.register('accentColor', {
    // Picking a colour means the user wants it: the default is no longer in use.
    onChange: () => form.setValue('useDefaultAccent', false, { shouldDirty: true }),
  });
  const error = form.formState.errors.accentColor?.message;

  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={`${id}-hint`}>
      <legend className="text-sm font-medium text-stone-800">Accent Colour (optional)</legend>
      <p id={`${id}-hint`} className="text-xs text-stone-600">
        Colours the estimator&apos;s buttons and headings on your website.
      </p>
      <div className="flex flex-wrap items-center gap-x-5 gap-y-2">
        <label className="inline-flex items-center gap-2 text-sm text-stone-800">
          <input
            type="color"
            className="h-10 w-14 cursor-pointer rounded-md border border-stone-300 bg-white p-1"
            {...colorInput}
          />
          <span>
            Colour <span className="font-mono text-stone-700">{color.toLowerCase()}</span>
          </span>
        </label>
        <label className="inline-flex items-center gap-2 text-sm text-stone-800">
          <input type="checkbox" className="size-4 accent-green-800" {...form.register('useDefaultAccent')} />
          Use the default green
        </label>
      </div>
      {!useDefault && contrast !== null && contrast < VISIBLE_ON_WHITE_CONTRAST ? (
        <p className="text-sm text-amber-900">
          This colour is light, so it colours the buttons only: headings and outlines stay near-black to remain readable
          on white. A darker shade shows your colour everywhere.
        </p>
      ) : null}
      {error ? <p className="text-sm text-red-700">{error}</p> : null}
    </fieldset>
  );
}
