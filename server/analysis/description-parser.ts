import { normaliseSizes } from '../../core/normalise';
import type { SiteDetails, Targets } from '../../core/site';
import { convertLength, type EnteredSizes, type LengthUnit } from '../../core/units';
import { matchSpecies, type Species } from '../../core/species';
import type { HazardKey } from './hazards';

/**
 * Reads what a customer wrote ("oak, about 30 inch trunk, 60 ft, next to the garage, power
 * line overhead", "pine 5 inch diameter 90 ft") into species, sizes, site facts and hazards.
 * It only reports what the text says; anything it cannot find stays null for the caller to
 * take from elsewhere or assume, and say so.
 */
export interface ParsedDescription {
  species: Species | null;
  dbhIn: number | null;
  heightFt: number | null;
  crownSpreadFt: number | null;
  site: SiteDetails;
  /** Everything named within falling distance; `site.targets` is the most serious of them. */
  targets: Targets[];
  hazards: HazardKey[];
  /** Sizes that were read but are no believable tree, and were ignored. */
  factors: string[];
  /**
   * The height and trunk as written ("55 cm", "20 in"), for those read from one figure in a
   * unit the forms take (m or ft; cm or in, millimetres as centimetres): printed back as written
   * rather than from the whole feet and inches (core/units.ts heightText). Null for a range, a
   * girth, or a size ignored.
   */
  written: EnteredSizes;
}

type Role = 'height' | 'diameter' | 'girth' | 'crown' | 'distance';

const NUMBER = String.raw`(\d+(?:\.\d+)?)`;
/** "in" is a unit only when it is not the preposition ("2 in the garden"). */
const UNIT = String.raw`(inches|inch|in\b(?!\s+(?:the|a|an|my|our|front|back|garden)\b)|"|”|''|centimetres|centimeters|cm|millimetres|millimeters|mm|metres|meters|metre|meter|m\b|feet|foot|ft|'|’)`;
/**
 * A length: "90 ft", "90ft", "27 m", "5-inch", "60-70 ft" and "10 to 12 m" (the middle). It
 * starts only where a run of digits does, and the spaces around a hyphen are read one way:
 * otherwise a run of digits, or of spaces after one, is tried from every place in it, and the
 * work grows with the square of its length (the same lengths are found either way).
 */
const MEASURE = new RegExp(String.raw`(?<!\d)(?:${NUMBER}\s*(?:-|–|to)\s*)?${NUMBER}\s*(?:-\s*)?${UNIT}`, 'gi');

/** The words that say what a length measures, next to it. */
const ROLE_WORDS: [Role, RegExp][] = [
  ['distance', /\b(from|away|off|within|distance|drag|dragged|carry|carried|walk|to the|of the (?:house|garage|fence|road|building|wall))\b/],
  // Not "around": "around 30 ft" is about 30 ft.
  ['girth', /\b(girth|circumference)\b/],
  ['crown', /\b(crown|canopy|spread)\b/],
  ['height', /\b(tall|high|height|ht|in height)\b/],
  ['diameter', /\b(diameter|diam|dbh|trunk|thick|wide|across|stem|bole)\b/],
];

/** Where a clause ends: the words either side of a length never reach past one. */
const CLAUSE_BREAK = /[,;:!?()\n]|\.(?!\d)|\b(?:and|with|but|plus)\b/g;

function unitOf(raw: string): LengthUnit {
  const u = raw.toLowerCase();
  if (u.startsWith('in') || u === '"' || u === '”' || u === "''") return 'in';
  if (u.startsWith('c')) return 'cm';
  if (u.startsWith('mi') || u === 'mm') return 'mm';
  if (u.startsWith('f') || u === "'" || u === '’') return 'ft';
  return 'm';
}

function roleIn(text: string): Role | null {
  for (const [role, words] of ROLE_WORDS) if (words.test(text)) return role;
  return null;
}

/** The text up to the first clause break (after a length), or from the last one (before it). */
function untilBreak(text: string): string {
  // search(), not exec(): it leaves CLAUSE_BREAK.lastIndex at 0, where the matchAll() calls below
  // start (exec() left it past this text's break, and they skipped the breaks before that).
  const at = text.search(CLAUSE_BREAK);
  return at === -1 ? text : text.slice(0, at);
}
function sinceBreak(text: string): string {
  let last = 0;
  for (const found of text.matchAll(CLAUSE_BREAK)) last = (found.index ?? 0) + found[0].length;
  return text.slice(last);
}
const firstWords = (text: string, n: number) => text.trim().split(/\s+/).slice(0, n).join(' ');
/** The text up to the end of its first three words (firstWords' words, where they stand). */
const FIRST_WORDS = /^\s*(?:\S+(?:\s+\S+){0,2})?/;
const lastWords = (text: string, n: number) => text.trim().split(/\s+/).slice(-n).join(' ');

/**
 * Every length in the text, in any order and unit, each read by the words beside it: first
 * the words after it ("90 ft tall", "5 inch diameter", "2 m girth"), then the three before
 * it back to the previous length ("height 27 m", "trunk diameter of 76 cm"), and with neither,
 * by its unit: inches and centimetres are a trunk, feet and metres a height. A distance from
 * something ("5 m from the house") is not the tree. The first of each kind wins.
 */
function findSizes(text: string): { dbhIn: number | null; heightFt: number | null; crownSpreadFt: number | null; written: EnteredSizes } {
  const lower = text.toLowerCase();
  const found: { dbhIn: number | null; heightFt: number | null; crownSpreadFt: number | null } = { dbhIn: null, heightFt: null, crownSpreadFt: null };
  const written: EnteredSizes = { height: null, diameter: null };
  let consumedTo = 0;
  for (const match of lower.matchAll(MEASURE)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    const low = match[1] === undefined ? null : Number(match[1]);
    const high = Number(match[2]);
    const value = low === null ? high : (low + high) / 2;
    const unit = unitOf(match[3] ?? '');

    // Up to three words after it, stopping at a clause break or the next number. Only the text
    // up to the next digit is read (with that digit, which the break's look-ahead sees), so
    // each length reads its own stretch and not the whole rest of the text again.
    const rest = lower.slice(end);
    const nextNumber = rest.search(/\d/);
    const clauseAfter = untilBreak(nextNumber === -1 ? rest : rest.slice(0, nextNumber + 1));
    const words = nextNumber === -1 ? clauseAfter : clauseAfter.slice(0, nextNumber);
    const after = firstWords(words, 3);
    const before = lastWords(sinceBreak(lower.slice(consumedTo, start)), 3);
    const afterRole = roleIn(after);
    const role = afterRole ?? roleIn(before) ?? (unit === 'in' || unit === 'cm' || unit === 'mm' ? 'diameter' : 'height');
    // The words after a length belong to it; the next length's "before" starts past them.
    consumedTo = afterRole ? end + (FIRST_WORDS.exec(words)?.[0].length ?? 0) : end;

    const feet = convertLength(value, unit, 'ft');
    const inches = convertLength(value, unit, 'in');
    const single = low === null;
    if (role === 'height' && found.heightFt === null) {
      found.heightFt = feet;
      if (single && (unit === 'm' || unit === 'ft')) written.height = { value, unit };
    } else if (role === 'diameter' && found.dbhIn === null) {
      found.dbhIn = inches;
      if (single && (unit === 'cm' || unit === 'in')) written.diameter = { value, unit };
      else if (single && unit === 'mm') written.diameter = { value: value / 10, unit: 'cm' };
    } else if (role === 'girth') found.dbhIn ??= inches / Math.PI;
    else if (role === 'crown') found.crownSpreadFt ??= feet;
  }
  return { ...found, written };
}

/** Targets by how much a falling piece would cost (as the time model orders them). */
const TARGET_ORDER: Targets[] = ['building', 'road', 'fence_shed', 'nothing'];

function findTargets(t: string, overRoad: boolean): Targets[] {
  // Access phrases name the house too; read them apart from what is in falling distance.
  const text = t.replace(/through the (house|home|property)/g, '');
  // "over the road" puts the road in falling distance even when nothing else says so.
  const named: Targets[] = overRoad ? ['road'] : [];
  if (/\b(house|home|garage|building|conservatory|extension|roof|wall of the|porch|greenhouse|bungalow|flat|flats|school|church|office)\b/.test(text)) named.push('building');
  if (/\b(road|roads|street|footpath|pavement|sidewalk|highway|lane|driveway|car park|parked cars?|bus stop|public path)\b/.test(text)) named.push('road');
  if (/\b(fence|shed|summerhouse|outbuilding|hedge|wall|trampoline|play ?house|garden wall|pond)\b/.test(text)) named.push('fence_shed');
  if (named.length === 0 && /\b(open (?:ground|field|space|lawn)|middle of (?:a|the) field|nothing (?:nearby|around|near)|clear all round|open lawn)\b/.test(text)) named.push('nothing');
  return TARGET_ORDER.filter((target) => named.includes(target));
}

function findSite(t: string, targets: Targets[]): SiteDetails {
  const site: SiteDetails = {};
  if (targets[0]) site.targets = targets[0];
  if (/\b(power ?lines?|power cables?|overhead (?:lines?|cables?|wires?)|electric(?:ity)? (?:lines?|cables?|wires?)|phone lines?|telephone (?:lines?|wires?)|utility lines?)\b/.test(t)) {
    site.powerLines = !/\bno (power|overhead|electric)/.test(t);
  }
  if (/\bthrough the (house|home|property)\b|\bno (side|rear) access\b|\bterraced?\b/.test(t)) site.access = 'through_house';
  else if (/\b(side gate|narrow (gate|access|path|passage)|gate only|back garden|rear garden)\b/.test(t)) site.access = 'side_gate';
  else if (/\b(easy access|open access|vehicle access|can drive|front garden|field)\b/.test(t)) site.access = 'open';

  if (/\b(stump grind|grind(?:ing)? (?:out )?the stump|stump (?:removed|removal|out|ground)|remove (?:the )?stump)/.test(t)) site.stumpGrinding = true;
  else if (/\b(leave|keep) (?:the )?stump\b/.test(t)) site.stumpGrinding = false;
  if (/\b(keep|leave) (?:the )?(wood|logs|rounds|firewood)\b/.test(t)) site.wasteRemoval = false;
  else if (/\b(take (?:[a-z]+ ){0,3}away|remove (?:all )?(?:the )?(?:waste|wood|debris)|waste removal)\b/.test(t)) site.wasteRemoval = true;
  const drag = /(?<!\d)(\d+)\s*(m|metres|meters|ft|feet)\s+(?:drag|carry|to the (?:road|street|drive|chipper))/.exec(t);
  if (drag) {
    const metres = convertLength(Number(drag[1]), drag[2]?.startsWith('f') ? 'ft' : 'm', 'm');
    site.dragDistance = metres < 10 ? 'short' : metres <= 30 ? 'medium' : 'long';
  } else if (/\b(long (?:drag|carry|way to the road)|far from the road)\b/.test(t)) site.dragDistance = 'long';
  return site;
}

/** The hazard words (hazards.ts), each found only where no "no", "not" or "without" in its clause denies it. */
const HAZARD_PATTERNS: [HazardKey, RegExp][] = [
  ['ash_dieback', /\b(ash die-? ?back|chalara|hymenoscyphus)\b/g],
  ['deadwood', /\b(dead ?wood|dead (?:branch|branches|limb|limbs|bough|boughs))\b/g],
  ['dead', /\b(dead\b(?! ?wood| (?:branch|branches|limb|limbs|bough|boughs|end)\b)|has died|died back|no longer alive)/g],
  ['dying', /\b(dying|in decline|declining|diseased|sick|die-? ?back)\b/g],
  ['decay', /\b(decay|decayed|decaying|rot|rots|rotten|rotting|soft wood)\b/g],
  ['fungus', /\b(fungus|fungi|fungal|bracket|brackets|mushrooms?|toadstools?|conks?)\b/g],
  ['hollow', /\b(hollow|hollowed|cavity|cavities)\b/g],
  ['split', /\b(split|splits|splitting|cracked|cracks?|crack in)\b(?! (?:the |some |up )?(?:logs?|wood|firewood|rounds)\b)/g],
  ['storm_damage', /\b(storm[- ]?damaged?|storm|gales?|wind-? ?blown|windthrow|blown over|uprooted|snapped|hung up|hanger)\b/g],
  ['leaning', /\b(lean|leans|leaning|leaned|leant|tilts?|tilting|tilted)\b/g],
  ['over_road', /\b(?:over|overhangs?|overhanging|across|onto)\s+(?:the\s+|a\s+)?(?:road|street|footpath|pavement|highway|lane|public path)\b/g],
  ['ivy', /\b(ivy|ivy-clad)\b/g],
];

const NEGATION = /\b(no|not|without|never|nor|isn't|isnt|aren't|free of|no sign of|no signs of)\b/g;

/** The first index of `sorted` (ascending) whose value is at least `value`; its length when none is. */
function firstAtLeast(sorted: number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Whether the clause before `index` says "no", "not" or "without": the clause breaks and the
 * denials are found once in the whole text, so each hazard word costs a lookup, not a read of
 * the text before it (which grew with the square of the text for a run of denied words). A
 * hazard word starts a word, so neither a break nor a denial can run across its start.
 */
function denials(t: string): (index: number) => boolean {
  const breakEnds = [...t.matchAll(CLAUSE_BREAK)].map((m) => (m.index ?? 0) + m[0].length);
  const starts: number[] = [];
  const ends: number[] = [];
  for (const m of t.matchAll(NEGATION)) {
    starts.push(m.index ?? 0);
    ends.push((m.index ?? 0) + m[0].length);
  }
  return (index) => {
    const clauseStart = breakEnds[firstAtLeast(breakEnds, index + 1) - 1] ?? 0;
    const first = firstAtLeast(starts, clauseStart);
    return first < ends.length && ends[first]! <= index;
  };
}

/** "split the logs" is firewood: the words just before a hazard word, past any spaces. */
const FIREWOOD_BEFORE = /\b(?:logs?|wood|firewood|rounds)$/;

function findHazards(t: string): HazardKey[] {
  const found: HazardKey[] = [];
  const denied = denials(t);
  for (const [key, pattern] of HAZARD_PATTERNS) {
    for (const match of t.matchAll(pattern)) {
      const index = match.index ?? 0;
      if (denied(index)) continue;
      // "split the logs" is firewood, not a split stem; "dying" after "ash die back" is the same thing.
      // (The longest word is 8 letters; 9 characters hold it and the one before it.)
      if (key === 'split' && FIREWOOD_BEFORE.test(t.slice(0, index).trimEnd().slice(-9))) continue;
      if (key === 'dying' && /die/.test(match[0]) && found.includes('ash_dieback')) continue;
      found.push(key);
      break;
    }
  }
  return found;
}

export function parseDescription(text: string | undefined): ParsedDescription {
  if (!text || text.trim() === '') {
    return { species: null, dbhIn: null, heightFt: null, crownSpreadFt: null, site: {}, targets: [], hazards: [], factors: [], written: { height: null, diameter: null } };
  }
  const lower = text.toLowerCase();
  const read = findSizes(text);
  const { sizes, factors } = normaliseSizes(read, 'Your project details');
  // A size ignored as no believable tree is not kept as written either.
  const written = { height: sizes.heightFt === null ? null : read.written.height, diameter: sizes.dbhIn === null ? null : read.written.diameter };
  const hazards = findHazards(lower);
  const targets = findTargets(lower, hazards.includes('over_road'));
  return { species: matchSpecies(text), ...sizes, site: findSite(lower, targets), targets, hazards, factors, written };
}
