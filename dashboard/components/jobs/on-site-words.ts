import { SITE_HAZARD_LABELS, type JobPhoto, type SiteCheck, type WorkSummary } from '../../../core/crew-day';
import { parseDuration } from '../../../core/format';
import type { Job } from '../../../core/jobs';
import { formatAnalysisDate } from '../analysis/analysis-date';

/*
 * The words of the job page's On site panel (docs/product.md, The crew's day, On the office's job
 * page): the crew's minutes, where each day's site check stands, the photos' descriptions, the
 * finish and its correction, and the correction form's checks. Pure, so they are tested alone.
 */

/** Minutes on site as the panel says them: "45 min", "2 h 35 min", "3 h". */
export function minutesInWords(minutes: number): string {
  const whole = Math.max(0, Math.round(minutes));
  const h = Math.floor(whole / 60);
  const m = whole % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** The timer's state in a word or two; a done job reads "Done" whatever its last tap. */
export function workStateWords(work: Pick<WorkSummary, 'state'>, done: boolean): string {
  if (done) return 'Done';
  return { not_started: 'Not started yet', running: 'Working now: the timer is running', paused: 'Paused', stopped: 'Stopped for the day' }[work.state];
}

/** "Started without a complete site check: <reason>, by <name>". */
export function startedWithoutCheckWords(started: NonNullable<WorkSummary['startedWithoutCheck']>): string {
  return `Started without a complete site check: ${started.reason}, by ${started.by}`;
}

/** A day's check in one line, and what it lacks (the server's words, as the 409 gives them). */
export function siteCheckStateWords(check: Pick<SiteCheck, 'complete' | 'missing' | 'updatedAt'>): { headline: string; missing: string[] } {
  if (check.complete) return { headline: 'Complete and signed', missing: [] };
  return { headline: check.updatedAt === null ? 'Not filled in yet' : 'Not complete', missing: check.missing };
}

/** The hazards found on site with their controls, in the check's order. */
export function hazardsPresent(check: Pick<SiteCheck, 'hazards'>): { label: string; controls: string }[] {
  return check.hazards.filter((h) => h.present).map((h) => ({ label: SITE_HAZARD_LABELS[h.key], controls: h.controls ?? '' }));
}

/** "Not present: overhead lines, underground services", or null when every hazard was found (or none answered). */
export function hazardsAbsentWords(check: Pick<SiteCheck, 'hazards'>): string | null {
  const absent = check.hazards.filter((h) => !h.present).map((h) => SITE_HAZARD_LABELS[h.key]);
  if (absent.length === 0) return null;
  return `Not present: ${absent.map((label, i) => (i === 0 ? label : label.charAt(0).toLowerCase() + label.slice(1))).join('; ')}`;
}

/** "Leeds General Infirmary (LS1 3EX), 2.3 km in a straight line". */
export function nearestHospitalWords(hospital: NonNullable<NonNullable<SiteCheck['emergency']>['nearestHospital']>): string {
  return `${hospital.name} (${hospital.postcode}), ${hospital.distanceKm} km in a straight line`;
}

/** "Sam Field, 2 Jun 2026, 07:52". */
export function signatureWords(signature: SiteCheck['signatures'][number]): string {
  return `${signature.name}, ${formatAnalysisDate(signature.signedAt)}`;
}

/** The photo's alternative text: "After photo, taken by Sam Field on 2 Jun 2026, 15:10". */
export function photoAlt(photo: Pick<JobPhoto, 'kind' | 'takenBy' | 'at'>): string {
  return `${photo.kind === 'before' ? 'Before' : 'After'} photo, taken by ${photo.takenBy} on ${formatAnalysisDate(photo.at)}`;
}

/** "Finished by Sam Field on 2 Jun 2026, 15:10" (a name is absent in a team of one). */
export function finishedWords(finish: Pick<NonNullable<Job['finish']>, 'finishedBy' | 'finishedAt'>): string {
  return `Finished${finish.finishedBy ? ` by ${finish.finishedBy}` : ''} on ${formatAnalysisDate(finish.finishedAt)}`;
}

/** "Times corrected by Ana Ruiz on 3 Jun 2026, 09:00", or null before any correction. */
export function correctedWords(finish: Pick<NonNullable<Job['finish']>, 'correctedBy' | 'correctedAt'>): string | null {
  if (!finish.correctedAt) return null;
  return `Times corrected${finish.correctedBy ? ` by ${finish.correctedBy}` : ''} on ${formatAnalysisDate(finish.correctedAt)}`;
}

// ---------------------------------------------------------------- correcting the times

export const TIME_PARTS = [
  { key: 'cuttingTime', label: 'Cutting' },
  { key: 'prepTime', label: 'Prep & setup' },
  { key: 'cleanupTime', label: 'Cleanup' },
] as const;
export type TimePart = (typeof TIME_PARTS)[number]['key'];
export type TreeTimesText = Record<TimePart, string>;
type TreeActuals = NonNullable<Job['actuals']>[number];

export const CORRECTION_MESSAGES = {
  duration: 'Enter minutes (45) or hours and minutes (2h 30m)',
  unchanged: 'Nothing changed: change a time to correct it.',
  fixFirst: 'Some times need correcting first: they are marked in red.',
} as const;

/** A stored time as the field shows it to change: "45" or "2h 30m" (both read back by parseDuration), "" when none. */
export function timeText(minutes: number | null): string {
  if (minutes === null) return '';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0 ? String(m) : m === 0 ? `${h}h` : `${h}h ${m}m`;
}

/** The form's first values: each tree's stored times. */
export function correctionDraftOf(actuals: readonly TreeActuals[]): Record<number, TreeTimesText> {
  return Object.fromEntries(actuals.map((a) => [a.itemId, { cuttingTime: timeText(a.cuttingTime), prepTime: timeText(a.prepTime), cleanupTime: timeText(a.cleanupTime) }]));
}

export type CorrectionBody = { itemId: number } & Partial<Record<TimePart, number>>;

/**
 * The correction to send: for each tree, the times typed that differ from those stored (an empty
 * field keeps what is stored: the server cannot unset a time). Errors by tree and part when a
 * time cannot be read; `unchanged` when nothing differs.
 */
export function correctionOf(
  actuals: readonly TreeActuals[],
  draft: Record<number, Partial<TreeTimesText>>,
): { actuals: CorrectionBody[] } | { errors: Record<number, Partial<Record<TimePart, string>>> } | { unchanged: string } {
  const errors: Record<number, Partial<Record<TimePart, string>>> = {};
  const body: CorrectionBody[] = [];
  for (const stored of actuals) {
    const typed = draft[stored.itemId] ?? {};
    const change: CorrectionBody = { itemId: stored.itemId };
    for (const { key } of TIME_PARTS) {
      const text = (typed[key] ?? '').trim();
      if (text === '') continue;
      const minutes = parseDuration(text);
      if (minutes === null) (errors[stored.itemId] ??= {})[key] = CORRECTION_MESSAGES.duration;
      else if (minutes !== stored[key]) change[key] = minutes;
    }
    if (Object.keys(change).length > 1) body.push(change);
  }
  if (Object.keys(errors).length > 0) return { errors };
  if (body.length === 0) return { unchanged: CORRECTION_MESSAGES.unchanged };
  return { actuals: body };
}

/** A tree's stored times added up, or null when it has none. */
export function treeTotal(actual: TreeActuals): number | null {
  const parts = [actual.cuttingTime, actual.prepTime, actual.cleanupTime].filter((v): v is number => v !== null);
  return parts.length === 0 ? null : parts.reduce((a, b) => a + b, 0);
}
