import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { useEffect, useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import type { SettingsPatch, SettingsResponse } from '../../../core/settings';
import { depositRuleSchema, documentNumber, invoiceSettingsFields, PAYMENT_TERMS_DAYS } from '../../../core/invoices';
import { AREAS } from '../../../core/permissions';
import { errorMessage, isApiError } from '../../api/client';
import { useMayUse } from '../../api/session';
import { queryKeys } from '../../api/query-client';
import { signedInApi } from '../../api/signed-in';
import { formatPounds } from '../jobs/job-list-summary';
import { SubmitButton } from '../submit-button';
import { TextField } from '../text-field';
import { showErrorToast, showToast } from '../toast';
import { cardStyles } from '../ui';
import { BankDetailsForm } from './bank-details-form';
import { CardPaymentsSection } from './card-payments-section';

/**
 * Settings, Getting paid (docs/product.md): where invoices ask to be paid, when, the deposit
 * rule, card payments, the invoices' numbers and overdue reminders, and the accountant's sales account. Each
 * part is saved with its own button, as the other sections are; the server's message for a
 * field shows under it.
 */

const TERMS_WORDS: Record<(typeof PAYMENT_TERMS_DAYS)[number], string> = { 0: 'On completion', 7: '7 days', 14: '14 days', 30: '30 days' };
const TERMS = PAYMENT_TERMS_DAYS.map(String) as ['0', '7', '14', '30'];

/** A settings PATCH whose answer replaces the cached settings; each field message of a 400 goes to `fieldError` by the server's path. */
function useSettingsSave(fieldError: (path: string, message: string) => void, saved: (settings: SettingsResponse) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: SettingsPatch) => signedInApi.settings.update(patch),
    onSuccess: (settings) => {
      queryClient.setQueryData(queryKeys.settings, settings);
      // The deposit rule decides which jobs wait for a deposit.
      void queryClient.invalidateQueries({ queryKey: queryKeys.jobMoney });
      saved(settings);
    },
    onError: (error) => {
      if (isApiError(error, 'VALIDATION_ERROR')) {
        for (const [path, messages] of Object.entries(error.details ?? {})) {
          if (messages[0]) fieldError(path, messages[0]);
        }
      }
      showErrorToast({ title: 'Failed to Update Settings', description: errorMessage(error, 'Please try again.') });
    },
  });
}

/**
 * A form follows the saved settings while it is untouched: Settings read again (issuing an invoice
 * moves the next number on) reach its fields, and typing in progress is never overwritten.
 */
function useFollowSaved<V>(form: { reset: (values: V) => void; formState: { isDirty: boolean } }, values: V) {
  const { isDirty } = form.formState;
  const key = JSON.stringify(values);
  useEffect(() => {
    if (!isDirty) form.reset(JSON.parse(key) as V);
  }, [key, isDirty, form]);
}

const termsSchema = z
  .object({ paymentTermsDays: z.enum(TERMS), deposit: z.boolean(), percent: z.string(), overAmount: z.string(), lateInterest: z.boolean(), baseRate: z.string() })
  .superRefine((value, ctx) => {
    if (value.lateInterest) {
      const rate = invoiceSettingsFields.lateInterest.unwrap().unwrap().safeParse({ baseRatePercent: value.baseRate.trim() === '' ? Number.NaN : Number(value.baseRate) });
      for (const issue of rate.success ? [] : rate.error.issues) ctx.addIssue({ code: 'custom', path: ['baseRate'], message: issue.message });
    }
    if (!value.deposit) return;
    const rule = depositRuleSchema.safeParse({ percent: value.percent.trim() === '' ? Number.NaN : Number(value.percent), overAmount: value.overAmount.trim() || '0' });
    for (const issue of rule.success ? [] : rule.error.issues) ctx.addIssue({ code: 'custom', path: [String(issue.path[0])], message: issue.message });
  });

/** The server's field paths, on this form's fields. */
const TERMS_FIELDS: Partial<Record<string, 'paymentTermsDays' | 'percent' | 'overAmount' | 'baseRate'>> = {
  paymentTermsDays: 'paymentTermsDays',
  'lateInterest.baseRatePercent': 'baseRate',
  'depositRule.percent': 'percent',
  'depositRule.overAmount': 'overAmount',
};

function termsValues(settings: SettingsResponse): z.input<typeof termsSchema> {
  const days = String(settings.paymentTermsDays);
  return {
    paymentTermsDays: (TERMS as readonly string[]).includes(days) ? (days as (typeof TERMS)[number]) : '7',
    deposit: settings.depositRule !== null,
    percent: settings.depositRule ? String(settings.depositRule.percent) : '',
    overAmount: settings.depositRule?.overAmount ?? '',
    lateInterest: settings.lateInterest !== null,
    baseRate: settings.lateInterest ? String(settings.lateInterest.baseRatePercent) : '',
  };
}

function TermsForm({ saved }: { saved: SettingsResponse }) {
  const form = useForm({ resolver: zodResolver(termsSchema), defaultValues: termsValues(saved) });
  const { errors } = form.formState;
  const [deposit, lateInterest] = useWatch({ control: form.control, name: ['deposit', 'lateInterest'] });
  useFollowSaved(form, termsValues(saved));
  const hintId = useId();
  const save = useSettingsSave((path, message) => {
    const field = TERMS_FIELDS[path];
    if (field) form.setError(field, { message });
  }, (settings) => {
    form.reset(termsValues(settings));
    const rule = settings.depositRule;
    showToast({
      title: 'Payment Terms Saved',
      description: `${settings.paymentTermsDays === 0 ? 'Final invoices are due on completion' : `Final invoices are due in ${settings.paymentTermsDays} days`}${
        rule ? `; a ${rule.percent}% deposit is suggested on jobs over ${formatPounds(rule.overAmount)}.` : '.'
      }`,
    });
  });

  return (
    <form
      noValidate
      aria-label="Payment terms and deposits"
      onSubmit={form.handleSubmit((values) =>
        save.mutate({
          paymentTermsDays: Number(values.paymentTermsDays),
          depositRule: values.deposit ? { percent: Number(values.percent), overAmount: values.overAmount.trim() || '0' } : null,
          lateInterest: values.lateInterest ? { baseRatePercent: Number(values.baseRate) } : null,
        }),
      )}
      className="flex flex-col gap-4"
    >
      <fieldset aria-describedby={hintId}>
        <legend className="text-sm font-medium text-stone-800">Payment terms for the final invoice</legend>
        <div className="mt-1 flex flex-wrap gap-x-5">
          {TERMS.map((days) => (
            <label key={days} className="flex min-h-11 items-center gap-2 text-sm text-stone-900">
              <input type="radio" value={days} className="size-5 accent-green-800" {...form.register('paymentTermsDays')} />
              {TERMS_WORDS[Number(days) as (typeof PAYMENT_TERMS_DAYS)[number]]}
            </label>
          ))}
        </div>
        <p id={hintId} className="text-xs text-stone-600">
          A deposit is due on the day you issue it. The standard quote terms say the same payment terms.
        </p>
        {errors.paymentTermsDays?.message ? <p className="text-sm text-red-700">{errors.paymentTermsDays.message}</p> : null}
      </fieldset>
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-stone-800">Deposit rule</legend>
        <label className="flex min-h-11 items-center gap-2 text-sm text-stone-900">
          <input type="checkbox" className="size-5 accent-green-800" {...form.register('deposit')} />
          Suggest a deposit on larger jobs
        </label>
        {deposit ? (
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField label="Deposit (%)" inputMode="decimal" autoComplete="off" hint="Of the accepted total, e.g. 20" error={errors.percent?.message} {...form.register('percent')} />
            <TextField label="For jobs over (£)" inputMode="decimal" autoComplete="off" hint="0 for every job" error={errors.overAmount?.message} {...form.register('overAmount')} />
          </div>
        ) : null}
      </fieldset>
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-stone-800">Late payment by a business</legend>
        <label className="flex min-h-11 items-center gap-2 text-sm text-stone-900">
          <input type="checkbox" className="size-5 accent-green-800" {...form.register('lateInterest')} />
          Add statutory interest when a business customer pays late
        </label>
        <p className="text-xs text-stone-600">
          The Late Payment of Commercial Debts (Interest) Act 1998: 8% a year over the Bank of England base rate, from the due date. Only on trade quotes (VAT added on top); never on a homeowner&apos;s.
        </p>
        {lateInterest ? (
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField label="Bank of England base rate (%)" inputMode="decimal" autoComplete="off" hint="The rate on the day after the due date, e.g. 4.75" error={errors.baseRate?.message} {...form.register('baseRate')} />
          </div>
        ) : null}
      </fieldset>
      <div>
        <SubmitButton pending={save.isPending} fullWidth={false} tall icon={<Save aria-hidden="true" className="size-4" />}>
          Save Payment Terms
        </SubmitButton>
      </div>
    </form>
  );
}

const REMINDER_MESSAGE = 'A whole number of days; 0 for none';
const numbersSchema = z.object({
  invoicePrefix: invoiceSettingsFields.invoicePrefix.unwrap(),
  nextInvoiceNumber: z.number('Type the next number, like 1').int('A whole number').min(1, 'The next invoice number is at least 1').max(999_999, 'The next invoice number is at most 999999'),
  firstReminder: z.number(REMINDER_MESSAGE).int(REMINDER_MESSAGE).min(0, REMINDER_MESSAGE).max(90, 'At most 90 days'),
  secondReminder: z.number(REMINDER_MESSAGE).int(REMINDER_MESSAGE).min(0, REMINDER_MESSAGE).max(180, 'At most 180 days'),
  salesAccountCode: invoiceSettingsFields.salesAccountCode.unwrap(),
});

const NUMBERS_FIELDS: Partial<Record<string, 'invoicePrefix' | 'nextInvoiceNumber' | 'firstReminder' | 'secondReminder' | 'salesAccountCode'>> = {
  invoicePrefix: 'invoicePrefix',
  nextInvoiceNumber: 'nextInvoiceNumber',
  invoiceReminderDays: 'firstReminder',
  'invoiceReminderDays.0': 'firstReminder',
  'invoiceReminderDays.1': 'secondReminder',
  salesAccountCode: 'salesAccountCode',
};

function numbersValues(settings: SettingsResponse): z.input<typeof numbersSchema> {
  return {
    invoicePrefix: settings.invoicePrefix,
    nextInvoiceNumber: settings.nextInvoiceNumber,
    firstReminder: settings.invoiceReminderDays[0],
    secondReminder: settings.invoiceReminderDays[1],
    salesAccountCode: settings.salesAccountCode,
  };
}

function NumbersForm({ saved }: { saved: SettingsResponse }) {
  const form = useForm({ resolver: zodResolver(numbersSchema), defaultValues: numbersValues(saved) });
  const { errors } = form.formState;
  const [prefix, next] = useWatch({ control: form.control, name: ['invoicePrefix', 'nextInvoiceNumber'] });
  useFollowSaved(form, numbersValues(saved));
  const save = useSettingsSave(
    (path, message) => {
      const field = NUMBERS_FIELDS[path];
      if (field) form.setError(field, { message });
    },
    (settings) => {
      form.reset(numbersValues(settings));
      showToast({ title: 'Invoice Numbers Saved', description: `Your next invoice will be ${documentNumber(settings.invoicePrefix, settings.nextInvoiceNumber)}.` });
    },
  );
  const example = Number.isInteger(next) && next > 0 && prefix.trim() ? `Your next invoice will be ${documentNumber(prefix.trim(), next)}.` : '';

  return (
    <form
      noValidate
      aria-label="Invoice numbers and reminders"
      onSubmit={form.handleSubmit((values) =>
        save.mutate({
          invoicePrefix: values.invoicePrefix,
          // Sent only when moved: issuing elsewhere moves it on, and a number read before that would be refused.
          ...(values.nextInvoiceNumber !== saved.nextInvoiceNumber && { nextInvoiceNumber: values.nextInvoiceNumber }),
          invoiceReminderDays: [values.firstReminder, values.secondReminder],
          salesAccountCode: values.salesAccountCode,
        }),
      )}
      className="flex flex-col gap-4"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Invoice prefix" autoComplete="off" autoCapitalize="characters" hint="Letters, digits and -, starting with a letter or digit" error={errors.invoicePrefix?.message} {...form.register('invoicePrefix')} />
        <TextField
          label="Next invoice number"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          hint="Move it on to follow your earlier invoices; never back to one used."
          error={errors.nextInvoiceNumber?.message}
          {...form.register('nextInvoiceNumber', { valueAsNumber: true })}
        />
      </div>
      <p role="status" className="-mt-2 min-h-5 text-sm text-stone-700">
        {example}
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="First reminder (days overdue)"
          type="number"
          inputMode="numeric"
          min={0}
          max={90}
          step={1}
          hint="E-mailed to the customer when unpaid; 0 for none."
          error={errors.firstReminder?.message}
          {...form.register('firstReminder', { valueAsNumber: true })}
        />
        <TextField
          label="Second reminder (days overdue)"
          type="number"
          inputMode="numeric"
          min={0}
          max={180}
          step={1}
          hint="0 for none."
          error={errors.secondReminder?.message}
          {...form.register('secondReminder', { valueAsNumber: true })}
        />
      </div>
      <div className="sm:max-w-xs">
        <TextField label="Sales account code" autoComplete="off" hint="For the accountant's export: 200 is Xero's Sales." error={errors.salesAccountCode?.message} {...form.register('salesAccountCode')} />
      </div>
      <div>
        <SubmitButton pending={save.isPending} fullWidth={false} tall icon={<Save aria-hidden="true" className="size-4" />}>
          Save Invoice Numbers
        </SubmitButton>
      </div>
    </form>
  );
}

export function GettingPaidSection({ saved }: { saved: SettingsResponse }) {
  // The owner's alone (core/permissions.ts): the office reads who may change them instead.
  const mayChangeBank = useMayUse('bankDetails');
  const maySetUpCards = useMayUse('cardSetup');
  return (
    <section id="getting-paid" aria-labelledby="getting-paid-title" className={`${cardStyles} mt-8 scroll-mt-4 p-4 sm:p-6`}>
      <h2 id="getting-paid-title" className="text-xl font-bold text-green-900">
        Getting paid
      </h2>
      <p className="mt-1 max-w-prose text-sm text-stone-700">
        How your invoices ask to be paid. An invoice keeps the details it was issued with: a change here reaches the invoices you issue from now on.
      </p>
      <div className="mt-5 flex max-w-2xl flex-col gap-6">
        <div className="flex flex-col gap-2">
          <h3 className="font-semibold text-stone-900">Bank details</h3>
          {mayChangeBank ? <BankDetailsForm saved={saved.bankDetails} /> : <p className="text-sm text-stone-700">{AREAS.bankDetails.refusal}</p>}
        </div>
        {maySetUpCards ? (
          <CardPaymentsSection />
        ) : (
          <div className="flex flex-col gap-2 border-t border-stone-200 pt-5">
            <h3 className="font-semibold text-stone-900">Card payments</h3>
            <p className="text-sm text-stone-700">{AREAS.cardSetup.refusal}</p>
          </div>
        )}
        <div className="flex flex-col gap-2 border-t border-stone-200 pt-5">
          <h3 className="font-semibold text-stone-900">Payment terms and deposits</h3>
          <TermsForm saved={saved} />
        </div>
        <div className="flex flex-col gap-2 border-t border-stone-200 pt-5">
          <h3 className="font-semibold text-stone-900">Invoice numbers and reminders</h3>
          <NumbersForm saved={saved} />
        </div>
      </div>
    </section>
  );
}
