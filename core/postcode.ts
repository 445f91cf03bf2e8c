/**
 * UK postcodes and the districts a business covers (docs/product.md, Embed widget: The
 * postcode and the service area). Pure and small: the server's schemas, the dashboard and the
 * widget's budgeted first chunk all use it.
 *
 * A postcode is an outward code (the district: LS6, SW1A, W1A) and an inward code (9AA), after
 * the format the Royal Mail publishes: A9, A99, AA9, AA99, A9A or AA9A, then a digit and two
 * letters, plus GIR 0AA. The first letter is never Q, V or X; the second never I, J or Z; the
 * inward letters never C, I, K, M, O or V.
 */

const FIRST = 'A-PR-UWYZ';
const SECOND = 'A-HK-Y';
const OUTWARD_SOURCE =
  `[${FIRST}][0-9]{1,2}|[${FIRST}][${SECOND}][0-9]{1,2}|[${FIRST}][0-9][A-HJKPSTUW]|[${FIRST}][${SECOND}][0-9][ABEHMNPRVWXY]`;
const POSTCODE = new RegExp(`^(${OUTWARD_SOURCE})([0-9][ABD-HJLNP-UW-Z]{2})$`);
const DISTRICT = new RegExp(`^(?:${OUTWARD_SOURCE})$`);
const AREA = new RegExp(`^[${FIRST}][${SECOND}]?$`);

/** What a visitor is told of a missing or wrong postcode, by the widget and the API alike. */
export const POSTCODE_REQUIRED = 'Enter your postcode, e.g. LS6 2AB';
export const POSTCODE_INVALID = 'Enter a full UK postcode, e.g. LS6 2AB';
/** The most districts a business may list. */
export const MAX_SERVICE_DISTRICTS = 200;
/** Longer text is not a postcode or a district, and is refused unread. */
const MAX_TEXT = 20;

export interface Postcode {
  /** "SW1A 1AA" */
  postcode: string;
  /** The outward code, the district: "SW1A" */
  district: string;
  /** The letters the district starts with: "SW" */
  area: string;
}

/** Letters, digits and spaces only, in any case (no look-alike letters from other scripts). */
const TYPED = /^[A-Za-z0-9\s]*$/;

/** "sw1a1aa", " Sw1A  1aA " → SW1A 1AA; null when it is not a UK postcode. */
export function parsePostcode(text: string): Postcode | null {
  if (typeof text !== 'string' || text.length > MAX_TEXT || !TYPED.test(text)) return null;
  const compact = text.replace(/\s+/g, '').toUpperCase();
  if (compact === 'GIR0AA') return { postcode: 'GIR 0AA', district: 'GIR', area: 'GIR' };
  const match = POSTCODE.exec(compact);
  if (!match) return null;
  const district = match[1]!;
  return { postcode: `${district} ${match[2]!}`, district, area: /^[A-Z]+/.exec(district)![0] };
}

/** What the form shows under the field: null when the postcode will do. */
export function postcodeProblem(text: string): string | null {
  if (text.trim() === '') return POSTCODE_REQUIRED;
  return parsePostcode(text) ? null : POSTCODE_INVALID;
}

/** One entry of a business's list: a district (LS6, SW1A) or a whole area (BD), upper case; null if neither. */
export function normaliseDistrict(entry: string): string | null {
  if (entry.length > MAX_TEXT || !TYPED.test(entry)) return null;
  const compact = entry.replace(/\s+/g, '').toUpperCase();
  return DISTRICT.test(compact) || AREA.test(compact) || compact === 'GIR' ? compact : null;
}

/** What the API and the Business Admin form say of an entry that is not a district or an area. */
export function notADistrictMessage(entry: string): string {
  const shown = entry.length > 20 ? `${entry.slice(0, 20)}…` : entry;
  return `${JSON.stringify(shown)} is not a postcode district or area: use e.g. LS6 or BD`;
}

export const TOO_MANY_DISTRICTS = `List at most ${MAX_SERVICE_DISTRICTS} postcode districts`;

/**
 * A business's covered districts as typed ("LS1, LS2\nBD") or as a list: split on commas,
 * semicolons and white space, each normalised, repeats dropped. The first bad entry is named.
 */
export function parseDistricts(input: string | readonly string[]): { districts: string[] } | { error: string } {
  const districts: string[] = [];
  const entries = typeof input === 'string' ? [input] : input;
  for (const text of entries) {
    if (typeof text !== 'string') return { error: notADistrictMessage(String(text)) };
    // Split lazily: a hostile list stops at its first bad or its 201st entry.
    for (const match of text.matchAll(/[^,;\s]+/g)) {
      const entry = match[0];
      const district = normaliseDistrict(entry);
      if (!district) return { error: notADistrictMessage(entry) };
      if (districts.includes(district)) continue;
      if (districts.length === MAX_SERVICE_DISTRICTS) return { error: TOO_MANY_DISTRICTS };
      districts.push(district);
    }
  }
  return { districts };
}

/**
 * Whether a business listing `districts` covers the postcode: an empty list covers everywhere; an
 * area (BD) covers all its districts (BD1 to BD99); a district covers itself and its lettered
 * parts (W1 covers W1A, EC1 covers EC1M).
 */
export function coversPostcode(districts: readonly string[], postcode: string | Postcode): boolean {
  if (districts.length === 0) return true;
  const parsed = typeof postcode === 'string' ? parsePostcode(postcode) : postcode;
  if (!parsed) return false;
  const { district, area } = parsed;
  return districts.some((entry) => entry === area || entry === district || (/[A-Z]$/.test(district) && district.slice(0, -1) === entry));
}

/** The visitor's words after a request from outside the business's districts. */
export function outsideAreaMessage(businessName: string, district: string): string {
  return `${businessName} may not cover ${district}. Your request has been sent, and they will let you know.`;
}
