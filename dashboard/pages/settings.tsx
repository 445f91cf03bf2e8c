import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus, RotateCcw, Save } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { MAX_INSTRUCTIONS_CHARS } from '../../core/analysis';
import { settingsSchema, type SettingsResponse } from '../../core/settings';
import { errorMessage } from '../api/client';
import { signedInApi } from '../api/signed-in';
import { queryKeys } from '../api/query-client';
import { BillingSection } from '../components/billing/billing-section';
import { CompanyProfileSection } from '../components/settings/company-profile-section';
import { GettingPaidSection } from '../components/settings/getting-paid-section';
import { PricingSection } from '../components/settings/pricing-section';
import { NestingSeasonSection } from '../components/settings/nesting-season-section';
import { QuoteTermsSection } from '../components/settings/quote-terms-section';
import { ShareJobTimesSection } from '../components/settings/share-job-times-section';
import { UnitsSection } from '../components/settings/units-section';
import { YourDataSection } from '../components/settings/your-data-section';
import { UndeliveredMailSection } from '../components/settings/undelivered-mail-section';
import { BackLink, PageTitle, SignedInLayout } from '../components/page-layout';
import { PageState } from '../components/page-state';
import { TextArea } from '../components/text-area';
import { showErrorToast, showToast } from '../components/toast';
import { useVisionModel } from '../api/capabilities';
import { useMayUse } from '../api/session';
import { TeamSection } from '../components/team/team-section';
import { CrewsSection } from '../components/crews/crews-section';
import { ScheduleSettingsSection } from '../components/crews/schedule-settings-section';
import { HospitalsSection } from '../components/settings/hospitals-section';
import { instructionsHint } from '../components/instructions-hint';
import { SubmitButton } from '../components/submit-button';
import { buttonStyles, cardStyles } from '../components/ui';

/** Starting points a contractor can add to their instructions with one click. */
const EXAMPLE_INSTRUCTIONS = [
  'We work as a two-person crew with a 6-inch chipper.',
  'Include time to protect lawns and flower beds with ground mats.',
  'Prefer section felling near buildings, fences and greenhouses.',
  'Point out any visible decay, fungus or deadwood in the safety recommendations.',
];

/**
 * docs/product.md, Accounts: what Reset to Default fills in (and Save then keeps). It is the AI
 * instructions' reset only: the hourly rate and the charges (Pricing) and the company profile
 * below are saved on their own and never reset here.
 */
const DEFAULTS: AiSettingsInput = { aiInstructions: '' };

/** The AI card's form: the instructions only (the hourly rate is under Pricing). */
const aiSettingsSchema = settingsSchema.pick({ aiInstructions: true });
type AiSettingsInput = z.input<typeof aiSettingsSchema>;

function aiSettings(settings: SettingsResponse): AiSettingsInput {
  return { aiInstructions: settings.aiInstructions };
}

function useSettings() {
  return useQuery({ queryKey: queryKeys.settings, queryFn: signedInApi.settings.get });
}

function SettingsForm({ saved }: { saved: SettingsResponse }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState('');
  const form = useForm({ resolver: zodResolver(aiSettingsSchema), defaultValues: aiSettings(saved) });
  const { errors } = form.formState;
  const instructions = useWatch({ control: form.control, name: 'aiInstructions' });
  const visionModel = useVisionModel();

  const save = useMutation({
    mutationFn: signedInApi.settings.update,
    onSuccess: (settings) => {
      queryClient.setQueryData(queryKeys.settings, settings);
      form.reset(aiSettings(settings));
      setStatus('');
      showToast({ title: 'Settings Updated', description: 'Your AI instructions have been saved.' });
    },
    onError: (error) => {
      showErrorToast({ title: 'Failed to Update Settings', description: errorMessage(error, 'Please try again.') });
    },
  });

  function addExample(example: string) {
    const current = form.getValues('aiInstructions').trimEnd();
    const next = current ? `${current}\n${example}` : example;
    if (next.length > MAX_INSTRUCTIONS_CHARS) {
      setStatus(`There is no room for that example: instructions are limited to ${MAX_INSTRUCTIONS_CHARS} characters.`);
      return;
    }
    form.setValue('aiInstructions', next, { shouldDirty: true, shouldValidate: true });
    setStatus('Example added to your instructions.');
    form.setFocus('aiInstructions');
  }

  function resetToDefault() {
    form.setValue('aiInstructions', DEFAULTS.aiInstructions, { shouldDirty: true, shouldValidate: true });
    setStatus('Defaults filled in. Select Save Configuration to keep them. Your pricing and company profile are not changed.');
  }

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((values) => save.mutate({ aiInstructions: values.aiInstructions }))}
      className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]"
    >
      <div className={`${cardStyles} flex flex-col gap-5 p-4 sm:p-6`}>
        <div>
          <TextArea
            label="Custom Analysis Instructions"
            hint={instructionsHint(visionModel, 'account')}
            rows={8}
            maxLength={MAX_INSTRUCTIONS_CHARS}
            error={errors.aiInstructions?.message}
            {...form.register('aiInstructions')}
          />
          <p className="mt-1 text-right text-xs text-stone-600">
            {instructions.length} / {MAX_INSTRUCTIONS_CHARS} characters
          </p>
        </div>
        <p role="status" className="min-h-5 text-sm text-stone-700">
          {status}
        </p>
        <div className="flex flex-col gap-2 sm:flex-row">
          <SubmitButton pending={save.isPending} fullWidth={false} icon={<Save aria-hidden="true" className="size-4" />}>
            Save Configuration
          </SubmitButton>
          <button type="button" className={buttonStyles.secondary} onClick={resetToDefault}>
            <RotateCcw aria-hidden="true" className="size-4" />
            Reset to Default
          </button>
        </div>
      </div>

      <section aria-labelledby="examples-title" className={`${cardStyles} p-4 sm:p-6`}>
        <h2 id="examples-title" className="font-semibold text-stone-900">
          Example Instructions
        </h2>
        <p className="mt-1 mb-3 text-sm text-stone-700">Select one to add it to your instructions.</p>
        <ul className="flex flex-col gap-2">
          {EXAMPLE_INSTRUCTIONS.map((example) => (
            <li key={example}>
              <button
                type="button"
                onClick={() => addExample(example)}
                className="flex w-full items-start gap-2 rounded-lg border border-stone-200 bg-stone-50 px-3 py-2.5 text-left text-sm text-stone-800 hover:border-green-700 hover:bg-green-50"
              >
                <Plus aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-green-800" />
                {example}
              </button>
            </li>
          ))}
        </ul>
      </section>
    </form>
  );
}

/**
 * AI Settings (docs/product.md, Accounts): the user's own instructions; pricing (the hourly rate
 * and the other charges) and quote rounding; the company profile and terms for quotes; getting paid; whether their job times help
 * everyone's starting estimates; then Billing.
 */
export function SettingsPage() {
  const settings = useSettings();
  // Sections a role may not use are not shown (core/permissions.ts): the office sees no plan, team or account.
  const mayBill = useMayUse('billing');
  const mayManageTeam = useMayUse('team');
  const mayUseAccount = useMayUse('account');
  const mayPlan = useMayUse('schedule');
  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink />
      </div>
      <PageTitle title="AI Settings" subtitle="Tune how your trees are analysed and priced." />
      <UndeliveredMailSection />
      {settings.isPending ? (
        <PageState kind="loading" label="Loading your settings" />
      ) : settings.isError ? (
        <PageState kind="failed" error={settings.error} fallback="Your settings could not be loaded." onRetry={settings.refetch} />
      ) : (
        <>
          <SettingsForm saved={settings.data} />
          <PricingSection
            saved={settings.data.pricing}
            hourlyRate={settings.data.hourlyRate}
            quoteRounding={settings.data.quoteRounding}
            vatNumber={settings.data.companyProfile.vatNumber}
          />
          <CompanyProfileSection saved={settings.data.companyProfile} />
          <QuoteTermsSection saved={settings.data.quoteTerms} savedReminderDays={settings.data.quoteReminderDays} paymentTermsDays={settings.data.paymentTermsDays} />
          <NestingSeasonSection saved={settings.data.nestingSeason} />
          <GettingPaidSection saved={settings.data} />
          <UnitsSection saved={settings.data.units} />
          <ShareJobTimesSection saved={settings.data.shareJobTimes} />
        </>
      )}
      {mayManageTeam ? <TeamSection /> : null}
      {mayPlan ? <CrewsSection /> : null}
      {mayPlan ? <ScheduleSettingsSection /> : null}
      <HospitalsSection />
      {mayBill ? <BillingSection /> : null}
      {mayUseAccount ? <YourDataSection /> : null}
    </SignedInLayout>
  );
}
