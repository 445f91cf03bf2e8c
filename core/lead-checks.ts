import { checkEmail } from './account-checks';
import { EMAIL_FOR_EMAIL, PHONE_FOR_CALL, type ContactMethod } from './contact-preference';
import { LEAD_LIMITS } from './embed';
import { postcodeProblem } from './postcode';
import { plainLine } from './plain-text';

/**
 * "Request a quote": the rules for a visitor's name, e-mail, phone, note, postcode and address, written once without
 * zod. The server's leadInputSchema (core/business.ts) is built from these; the widget checks its
 * form with checkLead before sending (its first chunk is budgeted and carries no zod).
 * core/lead-checks.test.ts runs one list of forms through both and expects the same answers.
 */
export const LEAD_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${LEAD_LIMITS.name} characters`,
  nameLineBreak: 'Name cannot contain line breaks',
  contactRequired: 'Please give an e-mail address or a phone number',
  phoneTooLong: `Phone must be at most ${LEAD_LIMITS.phone} characters`,
  phoneInvalid: 'Please enter a valid phone number',
  noteTooLong: `Note must be at most ${LEAD_LIMITS.note} characters`,
  addressTooLong: `Address must be at most ${LEAD_LIMITS.address} characters`,
} as const;

/**
 * The name goes into the owner's e-mail subject: a typed line break is refused; any other control
 * or bidi character is dropped and the name kept as one plain line (core/plain-text.ts), as the
 * server's schema does (core/business.ts).
 */
export const hasLineBreak = (text: string): boolean => /[\r\n]/.test(text);

/** A phone number as people type it: digits with spaces, +, brackets, dots or dashes; 6 to 20 digits. */
export function isPhoneNumber(text: string): boolean {
  const digits = text.replace(/\D/g, '').length;
  return /^[0-9+()\-.\s]+$/.test(text) && digits >= 6 && digits <= 20;
}

export interface LeadFields {
  name: string;
  email: string;
  phone: string;
  note: string;
  /** Required: checked as a UK postcode (core/postcode.ts). */
  postcode: string;
  address: string;
}

/** The visitor's taps: how they would like to hear back (a chosen way needs its detail). */
export interface LeadChoices {
  contactMethod?: ContactMethod | null;
}

export type LeadField = keyof LeadFields;
export type LeadErrors = Partial<Record<LeadField, string>>;

/** Each field's first broken rule, in the order the server's schema checks them; {} when the form can be sent. */
export function checkLead(fields: LeadFields, choices: LeadChoices = {}): LeadErrors {
  const errors: LeadErrors = {};
  const name = plainLine(fields.name);
  const email = fields.email.trim();
  const phone = fields.phone.trim();
  const note = fields.note.trim();

  if (hasLineBreak(fields.name)) errors.name = LEAD_MESSAGES.nameLineBreak;
  else if (name === '') errors.name = LEAD_MESSAGES.nameRequired;
  else if (name.length > LEAD_LIMITS.name) errors.name = LEAD_MESSAGES.nameTooLong;

  if (email !== '') {
    const problem = checkEmail(email).error;
    if (problem) errors.email = problem;
  }
  if (phone.length > LEAD_LIMITS.phone) errors.phone = LEAD_MESSAGES.phoneTooLong;
  else if (phone !== '' && !isPhoneNumber(phone)) errors.phone = LEAD_MESSAGES.phoneInvalid;
  if (note.length > LEAD_LIMITS.note) errors.note = LEAD_MESSAGES.noteTooLong;
  const postcode = postcodeProblem(fields.postcode);
  if (postcode) errors.postcode = postcode;
  if (fields.address.trim().length > LEAD_LIMITS.address) errors.address = LEAD_MESSAGES.addressTooLong;

  if (email === '' && phone === '') errors.email ??= LEAD_MESSAGES.contactRequired;
  if (choices.contactMethod === 'phone' && phone === '') errors.phone ??= PHONE_FOR_CALL;
  if (choices.contactMethod === 'email' && email === '') errors.email ??= EMAIL_FOR_EMAIL;
  return errors;
}
