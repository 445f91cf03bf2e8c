import { addDays } from './job-booking';

/*
 * The site check's rules (docs/product.md, The crew's day): the nearest A&E of the team's list by
 * straight-line distance, the map link, what3words as written, which day a check is for, and what
 * a check still lacks. The bodies and answers are core/crew-day.ts.
 */

export interface Place {
  latitude: number;
  longitude: number;
}

const EARTH_RADIUS_KM = 6371.0088;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** The great-circle (haversine) distance between two places, in km. */
export function distanceKm(a: Place, b: Place): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface LocatedHospital extends Place {
  name: string;
  postcode: string;
}

/**
 * The hospital nearest the site in a straight line, its distance in km to one decimal; the first
 * of the list on a tie; null without a site position or a hospital. Roads may make another quicker:
 * the plan names the nearest, the crew's phone finds the way.
 */
export function nearestHospital(site: Place | null, hospitals: readonly LocatedHospital[]): { name: string; postcode: string; distanceKm: number } | null {
  if (!site) return null;
  let best: { hospital: LocatedHospital; km: number } | null = null;
  for (const hospital of hospitals) {
    const km = distanceKm(site, hospital);
    if (!best || km < best.km) best = { hospital, km };
  }
  return best ? { name: best.hospital.name, postcode: best.hospital.postcode, distanceKm: Math.round(best.km * 10) / 10 } : null;
}

/** The OpenStreetMap page at the site, zoomed to the street. */
export function mapUrlOf(place: Place | null): string | null {
  if (!place) return null;
  const lat = place.latitude.toFixed(6);
  const lon = place.longitude.toFixed(6);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=18/${lat}/${lon}`;
}

/** what3words as the app shows it: "///filled.count.soap", lower case (the three words checked by the schemas). */
export function what3wordsOf(text: string): string {
  return `///${text.trim().replace(/^\/{3}/, '').toLowerCase()}`;
}

/** The booking's days, first to last. */
export function bookedDays(booking: { date: string; days: number }): string[] {
  return Array.from({ length: Math.max(1, booking.days) }, (_, i) => addDays(booking.date, i));
}

/**
 * The day a job's site check is for when none is asked: today when the job is booked today, else
 * its next booked day, or its last once they are past (the check kept of the last day worked).
 */
export function checkDayOf(booking: { date: string; days: number }, today: string): string {
  const days = bookedDays(booking);
  if (days.includes(today)) return today;
  return days.find((day) => day > today) ?? days[days.length - 1]!;
}

/** At least two people on site sign (HSE AFAG 401: never work alone in a tree). */
export const SIGNATURES_NEEDED = 2;

export const SITE_CHECK_MISSING_WORDS = {
  hazards: 'The hazards are not answered yet.',
  plan: 'The emergency plan is not given yet.',
  signatures: (signed: number) =>
    signed === 0
      ? `No one has signed yet: at least ${SIGNATURES_NEEDED} people on site sign.`
      : `Signed by ${signed} ${signed === 1 ? 'person' : 'people'}: at least ${SIGNATURES_NEEDED} people on site sign.`,
} as const;

/**
 * What a day's check still lacks, in words (empty when complete: every hazard answered, the plan
 * given, signed by at least two people on site). A saved check always has its hazards and plan
 * (the PUT refuses one without), so `filled` says both.
 */
export function siteCheckMissingWords(filled: boolean, signatures: number): string[] {
  const missing: string[] = filled ? [] : [SITE_CHECK_MISSING_WORDS.hazards, SITE_CHECK_MISSING_WORDS.plan];
  if (signatures < SIGNATURES_NEEDED) missing.push(SITE_CHECK_MISSING_WORDS.signatures(signatures));
  return missing;
}

/** What the site check's routes refuse, in words. */
export const SITE_CHECK_REFUSALS = {
  notBooked: 'This job is not booked yet, so it has no site check.',
  done: 'This job is done: its site checks are kept as they were.',
  date: 'date is a day as YYYY-MM-DD',
  notADay: (days: readonly string[]) => `Choose one of the job's booked days: ${days.join(', ')}.`,
  notFilled: 'Fill in the site check before signing it.',
  notOnSite: "Only the people on the job's crew sign its site check.",
  noCrew: 'Only the people on the job\u2019s crew can be its aerial rescuer.',
} as const;
