import { z } from 'zod';
import { addDays, calendarDateParts, formatBookingDate } from './job-booking';
import { plainLine, plainText } from './plain-text';
import { parsePostcode, POSTCODE_INVALID } from './postcode';

/**
 * Protected trees and the right time of year: the rules and the words, shared by the server and
 * the dashboard. Pure: the lookup itself (postcodes.io, planning.data.gov.uk) is the server's
 * (server/protection/); what it answers is normalised here, once (CONVENTIONS 12).
 *
 * The law behind the rules: Town and Country Planning Act 1990 s.198 (a Tree Preservation Order:
 * work needs the council's consent) and s.211 (a conservation area: six weeks' written notice
 * before cutting or felling); the Town and Country Planning (Tree Preservation) (England)
 * Regulations 2012 reg. 14 (dead or dangerous trees: five working days' notice, except in an
 * emergency); Wildlife and Countryside Act 1981 s.1 (nests in use; the nesting season is usually
 * given as March to August).
 */

export const LOOKUP_STATUSES = ['found', 'none_found', 'not_checked', 'failed'] as const;
export type LookupStatus = (typeof LOOKUP_STATUSES)[number];

export const RECORD_OUTCOMES = ['not_protected', 'tpo_consent', 's211_notice_sent', 'dead_or_dangerous', 'exempt'] as const;
export type RecordOutcome = (typeof RECORD_OUTCOMES)[number];

/** What a booking still waits for: the council's consent (a TPO), or a notice (a conservation area). */
export const PROTECTION_MISSING = ['tpo_consent', 's211_notice'] as const;
export type ProtectionMissing = (typeof PROTECTION_MISSING)[number];

/** Six weeks' notice in a conservation area (TCPA 1990 s.211(3)). */
export const SECTION_211_NOTICE_DAYS = 42;
/** Five working days' notice for a dead or dangerous tree (TPO Regulations 2012 reg. 14(1)(a)(ii)). */
export const DEAD_OR_DANGEROUS_WORKING_DAYS = 5;

/**
 * The nesting season, "MM-DD" inclusive: 1 March to 31 August, the months Natural England and the
 * RSPB give for the main breeding season. The default: each account may set its own in Settings
 * (`nestingSeason`), e.g. from mid-February where birds nest early.
 */
export const NESTING_SEASON = { from: '03-01', to: '08-31' } as const;
export const NESTING_CHECK = 'Check for nesting birds before starting';

/** A lookup older than this is asked again; a failed one is asked again after FAILED_RETRY_MINUTES. */
export const LOOKUP_FRESH_DAYS = 30;
export const FAILED_RETRY_MINUTES = 60;

export const PROTECTION_MESSAGES = {
  outcome: 'Choose what the council said or what was sent',
  date: 'Enter a real date as YYYY-MM-DD, for example 2026-12-08',
  dateInFuture: 'A record cannot be dated after today: enter the day the council answered or the notice was sent.',
  reference: 'The reference must be at most 100 characters',
  note: 'The note must be at most 1000 characters',
  notChecked: 'Not checked yet',
  tpoNotice: 'A Tree Preservation Order area covers this postcode',
  treeNotice: 'A tree with a Tree Preservation Order is recorded at this postcode',
} as const;

/** One area, zone or tree the planning data found at the postcode's centre. */
export const protectedPlaceSchema = z.object({ name: z.string(), reference: z.string() });
export type ProtectedPlace = z.infer<typeof protectedPlaceSchema>;

export const councilSchema = z.object({ name: z.string(), website: z.string().nullable() });
export type Council = z.infer<typeof councilSchema>;

/** What the planning data said, as kept. */
export interface LookupFindings {
  council: Council | null;
  conservationAreas: ProtectedPlace[];
  preservationZones: ProtectedPlace[];
  protectedTrees: ProtectedPlace[];
}

export const protectionLookupSchema = z.object({
  status: z.enum(LOOKUP_STATUSES),
  postcode: z.string().nullable(),
  council: councilSchema.nullable(),
  conservationAreas: z.array(protectedPlaceSchema),
  preservationZones: z.array(protectedPlaceSchema),
  protectedTrees: z.array(protectedPlaceSchema),
  checkedAt: z.string().nullable(),
  /** Where the answer came from: the two services' addresses, or null when nothing was asked. */
  source: z.string().nullable(),
  /** The result in words (lookupWords), never "not protected". */
  words: z.array(z.string()),
});
export type ProtectionLookup = z.infer<typeof protectionLookupSchema>;

const dateText = z
  .string(PROTECTION_MESSAGES.date)
  .trim()
  .refine((v) => calendarDateParts(v) !== null, PROTECTION_MESSAGES.date);

const optionalText = (max: number, message: string, clean: (text: string) => string) =>
  z
    .string()
    .overwrite(clean)
    .trim()
    .max(max, message)
    .nullable()
    .optional()
    .transform((v) => (v ? v : null));

/**
 * PUT /api/jobs/{id}/protection/record: what the surgeon found out or sent. `on` is the date the
 * council answered, the consent was given or the notice was sent.
 */
export const protectionRecordSchema = z.object({
  outcome: z.enum(RECORD_OUTCOMES, PROTECTION_MESSAGES.outcome),
  on: dateText,
  reference: optionalText(100, PROTECTION_MESSAGES.reference, plainLine),
  note: optionalText(1000, PROTECTION_MESSAGES.note, plainText),
});
export type ProtectionRecordInput = z.input<typeof protectionRecordSchema>;
export type ProtectionRecordBody = z.output<typeof protectionRecordSchema>;

export const protectionRecordViewSchema = z.object({
  outcome: z.enum(RECORD_OUTCOMES),
  on: z.string(),
  reference: z.string().nullable(),
  note: z.string().nullable(),
  recordedAt: z.string(),
});
export type ProtectionRecord = z.infer<typeof protectionRecordViewSchema>;

export const protectionSchema = z.object({
  lookup: protectionLookupSchema,
  record: protectionRecordViewSchema.nullable(),
  earliestStart: z.string().nullable(),
  /** What booking still waits for (empty when nothing). */
  missing: z.array(z.enum(PROTECTION_MISSING)),
  /** The reason the surgeon gave when booking before the earliest start (the last one), and when. */
  confirmation: z.object({ reason: z.string(), at: z.string() }).nullable(),
  nesting: z.object({ from: z.string(), to: z.string() }),
  /** "Check for nesting birds before starting" when the booked dates and work call for it; null otherwise or when not booked. */
  nestingCheck: z.string().nullable(),
});
export type Protection = z.infer<typeof protectionSchema>;
export const protectionResponseSchema = z.object({ protection: protectionSchema });

/**
 * The UK postcode that ends a site address ("11 Montpellier Walk, Cheltenham GL50 1QA" →
 * "GL50 1QA"), normalised; null when the address does not end in one.
 */
export function postcodeAtEnd(address: string | null): string | null {
  if (!address) return null;
  const match = /([A-Za-z]{1,2}[0-9][A-Za-z0-9]?)\s*([0-9][A-Za-z]{2})[\s.,]*$/.exec(address.slice(-40));
  return match ? (parsePostcode(`${match[1]} ${match[2]}`)?.postcode ?? null) : null;
}

/** One line of outside text as kept: plain, trimmed, at most `max` characters. */
function outsideLine(value: unknown, max = 200): string {
  return typeof value === 'string' ? plainLine(value).slice(0, max) : typeof value === 'number' ? String(value) : '';
}

/** Planning data entities (an outside answer) as the places we keep: named, referenced, repeats dropped, at most 20. */
export function normalisePlaces(entities: readonly { name?: unknown; reference?: unknown }[]): ProtectedPlace[] {
  const places: ProtectedPlace[] = [];
  for (const entity of entities) {
    const place = { name: outsideLine(entity.name), reference: outsideLine(entity.reference, 100) };
    if (!place.name && !place.reference) continue;
    if (places.some((p) => p.name === place.name && p.reference === place.reference)) continue;
    places.push(place);
    if (places.length === 20) break;
  }
  return places;
}

/** A council's website as kept: an http(s) address only, else null. */
export function normaliseWebsite(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString().slice(0, 300) : null;
  } catch {
    return null;
  }
}

export const hasFindings = (f: LookupFindings) => f.conservationAreas.length + f.preservationZones.length + f.protectedTrees.length > 0;

const councilName = (council: Council | null) => council?.name ?? 'the local council';

/**
 * The lookup in words, as it is: what the public data found, or that it found nothing, which is
 * not the same as nothing being there. Never "not protected".
 */
export function lookupWords(status: LookupStatus, findings: LookupFindings): string[] {
  if (status === 'not_checked' || status === 'failed') return [PROTECTION_MESSAGES.notChecked];
  const words: string[] = [];
  for (const area of findings.conservationAreas) words.push(`In the ${area.name || area.reference} conservation area (${councilName(findings.council)})`);
  if (findings.preservationZones.length > 0) words.push(PROTECTION_MESSAGES.tpoNotice);
  if (findings.protectedTrees.length > 0) words.push(PROTECTION_MESSAGES.treeNotice);
  if (words.length === 0) words.push(`None found in the public data, which is incomplete: check with ${councilName(findings.council)}`);
  return words;
}

/** The date `count` working days (Monday to Friday) after `date`. Bank holidays are not counted out: the surgeon's record is the check. */
export function addWorkingDays(date: string, count: number): string {
  let day = date;
  for (let left = count; left > 0; ) {
    day = addDays(day, 1);
    const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return day;
}

export interface ProtectionHold {
  /** The first day work may start, when a notice sets one. */
  earliestStart: string | null;
  /** What is still to be done before any date will do. */
  missing: ProtectionMissing[];
}

/**
 * What the lookup and the surgeon's record allow (the record, not the lookup, decides):
 * - not protected, TPO consent given or exempt: no hold;
 * - a section 211 notice sent on D: from D + six weeks, unless a TPO was found (consent needed);
 * - dead or dangerous, notice sent on D: from D + five working days, TPO or not (the exception
 *   covers TPO trees too, reg. 14);
 * - no record: a TPO zone or tree found holds booking until consent is recorded; a conservation
 *   area until a notice is recorded;
 * - a lookup not made or failed, and no record: no hold (books as before).
 */
export function protectionHold(lookup: Pick<LookupFindings, 'conservationAreas' | 'preservationZones' | 'protectedTrees'> & { status: LookupStatus }, record: Pick<ProtectionRecord, 'outcome' | 'on'> | null): ProtectionHold {
  const found = lookup.status === 'found';
  const tpo = found && lookup.preservationZones.length + lookup.protectedTrees.length > 0;
  const conservation = found && lookup.conservationAreas.length > 0;
  switch (record?.outcome) {
    case 'not_protected':
    case 'tpo_consent':
    case 'exempt':
      return { earliestStart: null, missing: [] };
    case 'dead_or_dangerous':
      return { earliestStart: addWorkingDays(record.on, DEAD_OR_DANGEROUS_WORKING_DAYS), missing: [] };
    case 's211_notice_sent':
      return { earliestStart: addDays(record.on, SECTION_211_NOTICE_DAYS), missing: tpo ? ['tpo_consent'] : [] };
    default:
      return { earliestStart: null, missing: [...(tpo ? (['tpo_consent'] as const) : []), ...(conservation ? (['s211_notice'] as const) : [])] };
  }
}

/** Whether a booking on `date` is refused by the hold (until the surgeon confirms with a reason). */
export function refusesBooking(hold: ProtectionHold, date: string): boolean {
  return hold.missing.length > 0 || (hold.earliestStart !== null && date < hold.earliestStart);
}

/** "12 March 2027", for a "YYYY-MM-DD" date. */
export const dayInWords = (date: string): string => formatBookingDate(date, 'none');

export function protectionNoticeMessage(hold: ProtectionHold): string {
  const waits = hold.missing.map((m) => (m === 'tpo_consent' ? "the council's consent for work on a tree with a Tree Preservation Order" : 'a section 211 notice to the council (six weeks before the work)'));
  if (waits.length > 0) return `This job waits for ${waits.join(' and ')}. Record it in Protected trees, or book anyway with a reason.`;
  return `The earliest start after the council's notice is ${dayInWords(hold.earliestStart ?? '')}. Choose that day or later, or book anyway with a reason.`;
}

/**
 * The one plain line the customer's copy of a quote carries where the site's protection applies,
 * frozen when the quote is sent (`sentOn`, the UK date it goes): the record decides when there is
 * one, else what the lookup found. A section 211 notice counts six weeks from the day it was sent,
 * or from today when it is still to go. Null when nothing applies: not found, not checked, or the
 * council's answer (not protected, consent given, exempt) leaves nothing for the customer to wait for.
 */
export function customerProtectionLine(
  lookup: Pick<LookupFindings, 'conservationAreas' | 'preservationZones' | 'protectedTrees'> & { status: LookupStatus },
  record: Pick<ProtectionRecord, 'outcome' | 'on'> | null,
  sentOn: string,
): string | null {
  const found = lookup.status === 'found';
  switch (record?.outcome) {
    case 'not_protected':
    case 'tpo_consent':
    case 'exempt':
      return null;
    case 'dead_or_dangerous':
      return `The tree is dead or dangerous: we give the council five working days' notice before the work, so the earliest start is ${dayInWords(laterOf(addWorkingDays(record.on, DEAD_OR_DANGEROUS_WORKING_DAYS), sentOn))}`;
    case 's211_notice_sent':
      return `${CONSERVATION_LINE}${dayInWords(laterOf(addDays(record.on, SECTION_211_NOTICE_DAYS), sentOn))}`;
    default:
      if (found && lookup.conservationAreas.length > 0) return `${CONSERVATION_LINE}${dayInWords(addDays(sentOn, SECTION_211_NOTICE_DAYS))}`;
      if (found && lookup.preservationZones.length + lookup.protectedTrees.length > 0) return TPO_LINE;
      return null;
  }
}
const CONSERVATION_LINE = "The site is in a conservation area: we give the council six weeks' notice before the work, so the earliest start is ";
const TPO_LINE = "A Tree Preservation Order may cover trees at this site: we ask the council's consent before the work, so the start date depends on its answer";
const laterOf = (a: string, b: string) => (a > b ? a : b);

/**
 * Whether the work is felling, a reduction or hedge work, from the job's items' words: the tree
 * lines the product writes start "Remove the …" (server/jobs/tree-work.ts), and surgeons type
 * "fell", "reduce the crown by 2 m", "trim the hedge". A whole word from the list, any case.
 * Pruning alone (deadwooding, lifting, thinning) is not in it: the law's nesting risk is the same,
 * but the product gives the line for these three kinds of work.
 */
const NESTING_WORK = /\b(fell|fells|felled|felling|remove|removed|removal|dismantle|dismantling|reduce|reduced|reduction|reductions|reducing|hedge|hedges|hedging|coppice|coppicing|pollard|pollarding)\b/i;
export function isNestingWork(descriptions: readonly string[]): boolean {
  return descriptions.some((text) => NESTING_WORK.test(text));
}

export interface NestingSeason {
  /** "MM-DD", inclusive. */
  from: string;
  /** "MM-DD", inclusive; before `from` for a season across the new year (November to February). */
  to: string;
}

/** Whether a "MM-DD" falls in the season (inclusive ends; a season may run across the new year). */
export function inSeason(monthDay: string, season: NestingSeason): boolean {
  return season.from <= season.to ? monthDay >= season.from && monthDay <= season.to : monthDay >= season.from || monthDay <= season.to;
}

/** Whether any day from `date` for `days` days falls in the nesting season. */
export function inNestingSeason(date: string, days: number, season: NestingSeason = NESTING_SEASON): boolean {
  for (let i = 0; i < days; i += 1) {
    if (inSeason(addDays(date, i).slice(5), season)) return true;
  }
  return false;
}

/** The nesting line a booking carries, or null. */
export function nestingCheck(descriptions: readonly string[], date: string, days: number, season: NestingSeason = NESTING_SEASON): string | null {
  return isNestingWork(descriptions) && inNestingSeason(date, days, season) ? NESTING_CHECK : null;
}

const MONTH_DAY = /^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** A real "MM-DD" (29 February allowed: it comes round in leap years). */
export function isMonthDay(text: string): boolean {
  const match = MONTH_DAY.exec(text);
  return match !== null && Number(match[2]) <= DAYS_IN_MONTH[Number(match[1]) - 1]!;
}

export const NESTING_MESSAGES = {
  monthDay: 'Enter the day as MM-DD, for example 03-01 for 1 March',
} as const;

const monthDayText = z.string(NESTING_MESSAGES.monthDay).trim().refine(isMonthDay, NESTING_MESSAGES.monthDay);
/** Settings' nesting season: `PATCH /api/settings { nestingSeason: { from, to } }`. */
export const nestingSeasonSchema = z.object({ from: monthDayText, to: monthDayText });

/** "1 March to 31 August", for a season. */
export function seasonInWords(season: NestingSeason): string {
  const words = (monthDay: string) => formatBookingDate(`2000-${monthDay}`, 'none').replace(/ 2000$/, '');
  return `${words(season.from)} to ${words(season.to)}`;
}

/**
 * The section 211 threshold: notice is needed for a tree whose trunk is 7.5 cm or more across at
 * 1.5 m above the ground (TCPA 1990 s.212; Town and Country Planning (Tree Preservation) (England)
 * Regulations 2012 reg. 15). 10 cm applies only when thinning to help other trees grow.
 */
export const SECTION_211_TRUNK_CM = 7.5;

/** Each record outcome as the surgeon chooses it and the job page shows it. */
export const RECORD_OUTCOME_WORDS: Record<RecordOutcome, string> = {
  not_protected: 'Checked with the council: not protected',
  tpo_consent: 'Tree Preservation Order consent given',
  s211_notice_sent: 'Section 211 notice sent to the council',
  dead_or_dangerous: "Dead or dangerous: five working days' notice sent",
  exempt: 'Exempt: trunk under 7.5 cm',
};

/** What booking still waits for, in words. */
export const MISSING_WORDS: Record<ProtectionMissing, string> = {
  tpo_consent: "The council's consent for work on a tree with a Tree Preservation Order",
  s211_notice: "A section 211 notice to the council, six weeks before the work",
};

/**
 * What the homeowner's request screen says under the postcode (`GET /api/businesses/{slug}/site-note`),
 * only when the public data found something there; null otherwise (it says nothing at all).
 */
export function siteNoteWords(status: LookupStatus, findings: Pick<LookupFindings, 'conservationAreas' | 'preservationZones' | 'protectedTrees'>): string | null {
  if (status !== 'found') return null;
  if (findings.conservationAreas.length > 0) return "This address is in a conservation area: the council must be given six weeks' notice before most tree work, so the work may need to wait.";
  if (findings.preservationZones.length + findings.protectedTrees.length > 0) return "A Tree Preservation Order may cover trees here: the council's consent is needed before the work.";
  return null;
}
export const siteNoteSchema = z.object({ note: z.string().nullable() });
export type SiteNote = z.infer<typeof siteNoteSchema>;
/** GET /api/businesses/{slug}/site-note?postcode=: a UK postcode, normalised ("bs84aa" → "BS8 4AA"). */
export const siteNoteQuerySchema = z.object({
  postcode: z
    .string(POSTCODE_INVALID)
    .max(20, POSTCODE_INVALID)
    .transform((text, ctx) => {
      const parsed = parsePostcode(text);
      if (!parsed) {
        ctx.addIssue({ code: 'custom', message: POSTCODE_INVALID });
        return z.NEVER;
      }
      return parsed.postcode;
    }),
});

/**
 * The site's protected-tree state in one line for the crew's job sheet (docs/product.md, The
 * crew's day): the surgeon's record when there is one ("Section 211 notice sent to the council on
 * 1 June 2026: work from 13 July 2026."), else what the public data found; null when nothing was
 * found or it was not looked up (the sheet then says nothing).
 */
export function protectionInWords(protection: Pick<Protection, 'lookup' | 'record' | 'earliestStart'>): string | null {
  const { lookup, record, earliestStart } = protection;
  if (record) return `${RECORD_OUTCOME_WORDS[record.outcome]} on ${dayInWords(record.on)}${earliestStart ? `: work from ${dayInWords(earliestStart)}` : ''}.`;
  if (lookup.status !== 'found' || !hasFindings(lookup)) return null;
  return `${lookupWords(lookup.status, lookup).join('. ')}.`;
}
