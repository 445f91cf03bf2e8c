import { EMAIL_FOR_EMAIL, PHONE_FOR_CALL, type ContactMethod } from '../core/contact-preference';
import { LEAD_LIMITS } from '../core/embed';

/**
 * The "Request a quote" form's checks in the browser, the same rules as the server's
 * leadInputSchema (core/business.ts, which the widget cannot import: it carries zod).
 * The server checks again and its per-field messages are shown the same way.
 */
export interface LeadFields {
  name: string;
  email: string;
  phone: string;
  note: string;
}

/** The visitor's taps: how they would like to hear back (a chosen way needs its detail). */
export interface LeadChoices {
  contactMethod?: ContactMethod;
}

export type LeadField = keyof LeadFields;
export type LeadErrors = Partial<Record<LeadField, string>>;

export const CONTACT_REQUIRED = 'Please give an e-mail address or a phone number';

/** A pragmatic shape check; the server's zod e-mail rule has the last word. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** As people type phone numbers: digits with spaces, +, brackets, dots or dashes. */
const PHONE = /^[0-9+()\-.\s]+$/;

function digitCount(text: string): number {
  return text.replace(/\D/g, '').length;
}

export function validateLead(fields: LeadFields, choices: LeadChoices = {}): LeadErrors {
  const errors: LeadErrors = {};
  const name = fields.name.trim();
  const email = fields.email.trim();
  const phone = fields.phone.trim();
  const note = fields.note.trim();

  if (name === '') errors.name = 'Name is required';
  else if (name.length > LEAD_LIMITS.name) errors.name = `Name must be at most ${LEAD_LIMITS.name} characters`;

  if (email === '' && phone === '') {
    errors.email = CONTACT_REQUIRED;
  } else {
    if (email !== '' && (email.length > LEAD_LIMITS.email || !EMAIL.test(email))) {
      errors.email = 'Please enter a valid email address';
    }
    if (phone !== '') {
      if (phone.length > LEAD_LIMITS.phone) errors.phone = `Phone must be at most ${LEAD_LIMITS.phone} characters`;
      else if (!PHONE.test(phone) || digitCount(phone) < 6 || digitCount(phone) > 20) {
        errors.phone = 'Please enter a valid phone number';
      }
    }
  }
  if (choices.contactMethod === 'phone' && phone === '') errors.phone ??= PHONE_FOR_CALL;
  if (choices.contactMethod === 'email' && email === '') errors.email ??= EMAIL_FOR_EMAIL;

  if (note.length > LEAD_LIMITS.note) errors.note = `Note must be at most ${LEAD_LIMITS.note} characters`;
  return errors;
}

const FIELDS: readonly LeadField[] = ['name', 'email', 'phone', 'note'];

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
