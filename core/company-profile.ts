import { z } from 'zod';

/**
 * The company profile printed at the head of every customer quote (docs/analysis.md,
 * Quotes): one per user, kept in their system_settings row beside the AI
 * settings. Every field may be empty; an empty trading name means "no profile yet".
 */

export const DEFAULT_QUOTE_VALIDITY_DAYS = 30;
export const MIN_QUOTE_VALIDITY_DAYS = 1;
export const MAX_QUOTE_VALIDITY_DAYS = 365;
export const MAX_TRADING_NAME_CHARS = 100;
export const MAX_ADDRESS_CHARS = 300;
export const MAX_ADDRESS_LINES = 6;

/** Logo uploads (POST /api/system-settings/logo): at most 2 MB, stored as a PNG inside 600 x 200 px. */
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;
export const LOGO_BOX = { width: 600, height: 200 } as const;
export const LOGO_HINT = 'PNG, JPEG or WebP, at most 2 MB. It is shrunk to fit 600 x 200 px.';

export const VAT_NUMBER_MESSAGE = 'Enter a UK VAT number: GB followed by 9 or 12 digits, e.g. GB 123 4567 89';
export const PHONE_MESSAGE = 'Enter a phone number using digits, spaces, +, brackets or dashes';
export const VALIDITY_MESSAGE = `Quote validity must be a whole number of days from ${MIN_QUOTE_VALIDITY_DAYS} to ${MAX_QUOTE_VALIDITY_DAYS}`;

/**
 * A UK VAT registration number: "GB" and 9 digits, or 12 for a branch trader (the formats of
 * GOV.UK's "Check a UK VAT number" service and of the EU VIES list for GB; the rare GBGD/GBHA
 * numbers of government departments and health authorities are not taken). Spaces are allowed
 * on the way in and dropped; the check digits are not verified, since a wrong checksum rule
 * would refuse real numbers and the user sees the number on every quote.
 */
export function normaliseVatNumber(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}

export function isUkVatNumber(text: string): boolean {
  return /^GB(\d{9}|\d{12})$/.test(normaliseVatNumber(text));
}

/** "GB123456789" -> "GB 123 4567 89" (HMRC's grouping); a 12-digit branch number gets " 123" after. */
export function formatVatNumber(vatNumber: string): string {
  const n = normaliseVatNumber(vatNumber);
  if (!isUkVatNumber(n)) return vatNumber;
  const d = n.slice(2);
  const main = `GB ${d.slice(0, 3)} ${d.slice(3, 7)} ${d.slice(7, 9)}`;
  return d.length === 12 ? `${main} ${d.slice(9)}` : main;
}

/**
 * The VAT number as every quote, page, PDF and e-mail prints it: "VAT registration no. GB 123 4567
 * 89", one label and HMRC's grouping wherever the customer reads it; "" when not VAT-registered.
 */
export function vatNumberLine(vatNumber: string): string {
  return vatNumber.trim() ? `VAT registration no. ${formatVatNumber(vatNumber)}` : '';
}

/** 7 to 15 digits (ITU-T E.164 allows 15), written with the characters people use. */
function isPhoneNumber(text: string): boolean {
  const digits = text.replace(/\D/g, '').length;
  return /^\+?[\d\s()-]+$/.test(text) && digits >= 7 && digits <= 15;
}

const optionalText = (max: number, message: string) => z.string().trim().max(max, message);

/** What the Settings page sends (PATCH /api/system-settings, `companyProfile`). */
export const companyProfileSchema = z.object({
  tradingName: optionalText(MAX_TRADING_NAME_CHARS, `Trading name must be at most ${MAX_TRADING_NAME_CHARS} characters`),
  phone: optionalText(40, 'Phone number must be at most 40 characters').refine((v) => v === '' || isPhoneNumber(v), PHONE_MESSAGE),
  email: optionalText(254, 'E-mail address is too long').refine(
    (v) => v === '' || z.email().safeParse(v).success,
    'Enter a valid e-mail address, e.g. office@example.co.uk',
  ),
  address: z
    .string()
    .max(MAX_ADDRESS_CHARS + 50, `Address must be at most ${MAX_ADDRESS_CHARS} characters`)
    // One line per line, each trimmed, blank lines dropped; Windows line ends too.
    .transform((v) =>
      v
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean)
        .join('\n'),
    )
    .refine((v) => v.length <= MAX_ADDRESS_CHARS, `Address must be at most ${MAX_ADDRESS_CHARS} characters`)
    .refine((v) => v.split('\n').length <= MAX_ADDRESS_LINES, `Address must be at most ${MAX_ADDRESS_LINES} lines`),
  vatNumber: z
    .string()
    .max(40, VAT_NUMBER_MESSAGE)
    .refine((v) => v.trim() === '' || isUkVatNumber(v), VAT_NUMBER_MESSAGE)
    .transform((v) => (v.trim() === '' ? '' : normaliseVatNumber(v))),
  quoteValidityDays: z
    .number({ error: VALIDITY_MESSAGE })
    .int(VALIDITY_MESSAGE)
    .min(MIN_QUOTE_VALIDITY_DAYS, VALIDITY_MESSAGE)
    .max(MAX_QUOTE_VALIDITY_DAYS, VALIDITY_MESSAGE),
});
export type CompanyProfileInput = z.input<typeof companyProfileSchema>;
export type CompanyProfileValues = z.output<typeof companyProfileSchema>;

/** What GET /api/system-settings answers under `companyProfile`. */
export const companyProfileResponseSchema = z.object({
  tradingName: z.string(),
  phone: z.string(),
  email: z.string(),
  address: z.string(),
  /** As HMRC prints it ("GB 123 4567 89"), or "" when not VAT-registered. */
  vatNumber: z.string(),
  quoteValidityDays: z.number().int(),
  /** The owner-only logo route with a version, so a replaced logo is fetched again; null without one. */
  logoUrl: z.string().nullable(),
});
export type CompanyProfileResponse = z.infer<typeof companyProfileResponseSchema>;
