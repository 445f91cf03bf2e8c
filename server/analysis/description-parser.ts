import type { SiteDetails } from '../../core/site';
import { matchSpecies, type Species } from '../../core/species';

/**
 * Reads what a customer wrote ("oak, about 30 inch trunk, 60 ft, next to the garage,
 * power line overhead") into species, sizes and site facts. It only reports what the
 * text says; anything it cannot find stays null for the caller to assume and say so.
 */
export interface ParsedDescription {
  species: Species | null;
  dbhIn: number | null;
  heightFt: number | null;
  site: SiteDetails;
}

const CM_PER_IN = 2.54;
const FT_PER_M = 3.28084;

const NUMBER = String.raw`(\d+(?:\.\d+)?)`;
/** Words that say a measurement is of the trunk's width, and of its girth (circumference). */
const DIAMETER_WORDS = /(trunk|diameter|dbh|thick|wide|across|stem|bole)/;
const GIRTH_WORDS = /(girth|circumference|around)/;
const HEIGHT_WORDS = /(tall|high|height|ht\b)/;
/** A length that is a distance from something ("5 m from the house"), not the tree. */
const DISTANCE_AFTER = /^\s*(?:away|from|off|to|of (?:the )?(?:house|garage|fence|road|building)|carry|drag|walk)/;

const UNIT = String.raw`(inches|inch|in\b|"|”|centimetres|centimeters|cm|millimetres|millimeters|mm|metres|meters|metre|meter|m\b|feet|foot|ft|'|’)`;
const MEASURE = new RegExp(`${NUMBER}\\s*-?\\s*${UNIT}`, 'gi');

type Unit = 'in' | 'cm' | 'mm' | 'm' | 'ft';
function unitOf(raw: string): Unit {
  const u = raw.toLowerCase();
  if (u.startsWith('in') || u === '"' || u === '”') return 'in';
  if (u.startsWith('c')) return 'cm';
  if (u.startsWith('mi') || u === 'mm') return 'mm';
  if (u.startsWith('f') || u === "'" || u === '’') return 'ft';
  return 'm';
}

const toInches = (value: number, unit: Unit) =>
  unit === 'in' ? value : unit === 'cm' ? value / CM_PER_IN : unit === 'mm' ? value / 10 / CM_PER_IN : unit === 'ft' ? value * 12 : (value * 100) / CM_PER_IN;
const toFeet = (value: number, unit: Unit) => (unit === 'ft' ? value : unit === 'm' ? value * FT_PER_M : toInches(value, unit) / 12);

/**
 * Sizes are read clause by clause ("30 inch trunk, 60 ft, ..."), so the words that say
 * what a number measures are the ones beside it, not the previous measurement's.
 */
function findSizes(text: string): Pick<ParsedDescription, 'dbhIn' | 'heightFt'> {
  let dbhIn: number | null = null;
  let heightFt: number | null = null;
  for (const clause of text.toLowerCase().split(/[,;:\n]|\.(?!\d)|\band\b|\bwith\b/)) {
    for (const match of clause.matchAll(MEASURE)) {
      const value = Number(match[1]);
      const unit = unitOf(match[2] ?? '');
      const start = match.index ?? 0;
      const before = clause.slice(0, start);
      const after = clause.slice(start + match[0].length);
      if (DISTANCE_AFTER.test(after) || /\b(from|away|distance)\s*$/.test(before)) continue;
      const small = unit === 'in' || unit === 'cm' || unit === 'mm';
      if (GIRTH_WORDS.test(clause)) {
        dbhIn ??= toInches(value, unit) / Math.PI;
      } else if (HEIGHT_WORDS.test(clause)) {
        heightFt ??= toFeet(value, unit);
      } else if (DIAMETER_WORDS.test(clause) || small) {
        // A bare small unit ("30 inch") describes the trunk.
        dbhIn ??= toInches(value, unit);
      } else {
        heightFt ??= toFeet(value, unit);
      }
    }
  }
  const sane = (v: number | null, lo: number, hi: number) => (v !== null && v >= lo && v <= hi ? Math.round(v) : null);
  return { dbhIn: sane(dbhIn, 1, 200), heightFt: sane(heightFt, 3, 400) };
}

function findSite(text: string): SiteDetails {
  // Access phrases name the house too; read them apart from what is in falling distance.
  const t = text.toLowerCase();
  const targetText = t.replace(/through the (house|home|property)/g, '');
  const site: SiteDetails = {};
  if (/\b(house|home|garage|building|conservatory|extension|roof|wall of the|porch|greenhouse)\b/.test(targetText)) site.targets = 'building';
  else if (/\b(road|street|footpath|pavement|sidewalk|highway|lane|driveway|car park|parked cars?)\b/.test(targetText)) site.targets = 'road';
  else if (/\b(fence|shed|summerhouse|outbuilding|hedge|wall|trampoline|play ?house)\b/.test(targetText)) site.targets = 'fence_shed';
  else if (/\b(open (?:ground|field|space)|middle of (?:a|the) field|nothing (?:nearby|around)|clear all round)\b/.test(targetText)) site.targets = 'nothing';

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
  const drag = /(\d+)\s*(m|metres|meters|ft|feet)\s+(?:drag|carry|to the (?:road|street|drive|chipper))/.exec(t);
  if (drag) {
    const metres = drag[2]?.startsWith('f') ? Number(drag[1]) / FT_PER_M : Number(drag[1]);
    site.dragDistance = metres < 10 ? 'short' : metres <= 30 ? 'medium' : 'long';
  } else if (/\b(long (?:drag|carry|way to the road)|far from the road)\b/.test(t)) site.dragDistance = 'long';
  return site;
}

export function parseDescription(text: string | undefined): ParsedDescription {
  if (!text || text.trim() === '') return { species: null, dbhIn: null, heightFt: null, site: {} };
  return { species: matchSpecies(text), ...findSizes(text), site: findSite(text) };
}
