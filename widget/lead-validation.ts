import { checkLead, LEAD_MESSAGES, type LeadErrors, type LeadField } from '../core/lead-checks';

/**
 * The "Request a quote" form's checks in the browser: core/lead-checks.ts, the rules the
 * server's leadInputSchema is built from (core/business.ts carries zod, which the widget's
 * budgeted bundle leaves out). The server checks again and its per-field messages are shown
 * the same way.
 */
export { checkLead as validateLead };
export type { LeadChoices, LeadErrors, LeadField, LeadFields } from '../core/lead-checks';

export const CONTACT_REQUIRED = LEAD_MESSAGES.contactRequired;

const FIELDS: readonly LeadField[] = ['name', 'email', 'phone', 'note', 'postcode', 'address'];

/**
 * A 400's `details` as one message per form field. Anything the form has no field for
 * (`_form`, `analysisId`) comes back as `form`, to show above the button.
 */
export function errorsFromDetails(details: Record<string, string[]> | undefined): { fields: LeadErrors; form?: string } {
  const fields: LeadErrors = {};
  let form: string | undefined;
  for (const [key, messages] of Object.entries(details ?? {})) {
    const message = messages[0];
    if (!message) continue;
    if ((FIELDS as readonly string[]).includes(key)) fields[key as LeadField] = message;
    else form ??= message;
  }
  return { fields, form };
}
