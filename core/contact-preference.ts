/**
 * How and when a visitor who asks for a quote would like to hear back (docs/product.md, Embed widget): one
 * tap each on the estimator's "Request a quote", both optional. No zod here: the widget imports
 * this file and its first chunk is budgeted (core/business.ts builds the lead schema from these
 * lists). The visitor taps the choice's words; the owner reads the label.
 */
export const CONTACT_METHODS = ['phone', 'email', 'either'] as const;
export const CONTACT_TIMES = ['morning', 'afternoon', 'evening', 'any'] as const;
export type ContactMethod = (typeof CONTACT_METHODS)[number];
export type ContactTime = (typeof CONTACT_TIMES)[number];

/** As the business owner reads them (Business Admin and the lead e-mail). */
export const CONTACT_METHOD_LABELS: Record<ContactMethod, string> = {
  phone: 'Phone',
  email: 'Email',
  either: 'Phone or email',
};
export const CONTACT_TIME_LABELS: Record<ContactTime, string> = {
  morning: 'Morning',
  afternoon: 'Afternoon',
  evening: 'Evening',
  any: 'Any time',
};

/**
 * The estimator's questions and tiles, in the visitor's words. The method's tiles say what the
 * business will do ("Call me"), which also keeps them apart from the form's Phone and E-mail
 * fields for anyone finding a field by its label.
 */
export const CONTACT_METHOD_QUESTION = 'How would you like to hear back?';
export const CONTACT_TIME_QUESTION = 'When is best to reach you?';
export const CONTACT_METHOD_CHOICES: Record<ContactMethod, string> = {
  phone: 'Call me',
  email: 'Email me',
  either: 'Either',
};
export const CONTACT_TIME_CHOICES: Record<ContactTime, string> = CONTACT_TIME_LABELS;

/** A chosen way needs its detail: the same words in the widget and the server's 400. */
export const PHONE_FOR_CALL = 'Please give a phone number for the call, or choose another way to hear back';
export const EMAIL_FOR_EMAIL = 'Please give an e-mail address for the reply, or choose another way to hear back';

export function isContactMethod(value: unknown): value is ContactMethod {
  return typeof value === 'string' && (CONTACT_METHODS as readonly string[]).includes(value);
}
export function isContactTime(value: unknown): value is ContactTime {
  return typeof value === 'string' && (CONTACT_TIMES as readonly string[]).includes(value);
}
