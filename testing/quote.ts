import { extractText, getDocumentProxy } from 'unpdf';
import type { Analysis } from '../core/analysis';
import { priceJob, type PricingRules } from '../core/price';
import type { QuoteCompany } from '../server/settings/quote-company';

/** Quote (PDF) fixtures: the analyses and the way tests read a quote's printed text back. */

export const QUOTE_GENERATED_AT = new Date('2026-11-22T10:30:00Z');

/** What the local estimate really writes for a large elm by a building, behind a side gate. */
export const TYPICAL_WARNINGS = [
  'Check with your local council for a Tree Preservation Order or conservation area before felling.',
  'Bird nesting season (March to August): check the tree for active nests before work; disturbing them is an offence under the Wildlife and Countryside Act 1981.',
  'Power lines near the tree: only a competent, authorised contractor may do this work. Keep at least 3 m (10 ft) from low voltage overhead lines, more for higher voltages, and contact the Distribution Network Operator first.',
  'Climbing and rigging: use a qualified climber with a ground-based rescue plan (LOLER-inspected equipment).',
  'Do not work in winds above 25 mph.',
];

/**
 * A VAT-registered contractor's rules: £25 travel, £60 a tonne for green waste, £90 for the stump
 * grinder, prices shown inc VAT. The elm is 2.4 t, behind a side gate (no platform), not by a road.
 */
export const QUOTE_RULES: PricingRules = {
  crewSize: 2,
  minimumChargePence: 0,
  travelPence: 2500,
  wastePerTonnePence: 6000,
  stumpGrindingPence: 9000,
  accessPlatformPence: 0,
  trafficManagementPence: 0,
  vatMode: 'inc',
};

/**
 * The elm's price under those rules: crew time £67.50 - £105.00, travel £25.00, waste £144.00,
 * stump grinder £90.00; £326.50 - £364.00 ex VAT, VAT £65.30 - £72.80, £391.80 - £436.80 inc VAT.
 */
export function quotePrice(rules: Partial<PricingRules> = {}) {
  return priceJob({
    minutes: { min: 135, max: 210 },
    hourlyRatePence: 3000,
    rules: { ...QUOTE_RULES, ...rules },
    greenTonnes: 2.4,
    wasteRemoval: true,
    stumpGrinding: true,
    accessPlatform: false,
    trafficManagement: false,
  });
}

/** A large elm by a building, measured on its photo (e2e/fixtures/photos/elm-beside-building.jpg). */
export function quoteAnalysis(overrides: Partial<Analysis> = {}): Analysis {
  return {
    id: 123,
    imageUrl: '/api/analysis/123/image',
    species: 'English elm (Ulmus procera)',
    diameter: 28,
    height: 55,
    // As core/species.ts describeWoodDensity writes it for English elm (900 kg/m³ green).
    woodDensity: 'Medium (about 900 kg/m³ green)',
    cuttingTimeMin: 45,
    cuttingTimeMax: 75,
    prepTimeMin: 30,
    prepTimeMax: 45,
    cleanupTimeMin: 60,
    cleanupTimeMax: 90,
    factors: [
      'Not answered, assumed: brush drag of 10 to 30 m',
      'Method: climb and dismantle (pieces lowered on ropes to protect a building)',
      'About 2.4 tonnes of green wood and brush to clear',
      'Access through a side gate slows set-up and clearing',
      'Stump grinding included in cleanup',
      'Wood and chippings taken away',
    ],
    // core/site-assumptions.ts assumptionSentences of the factor above (a phrase from before its rules).
    assumptions: ['We assumed brush drag of 10 to 30 m.'],
    safetyWarnings: TYPICAL_WARNINGS,
    confidence: 0.72,
    method: 'climb_dismantle',
    siteVisitReason: 'A large tree near power lines needs an on-site risk assessment',
    calibratedFromJobs: 3,
    calibratedFrom: 'Calibrated from 3 of your jobs',
    provider: 'local',
    description: 'Elm beside the garden room, about 55 ft',
    siteDetails: { targets: 'building', access: 'side_gate', powerLines: true, stumpGrinding: true, wasteRemoval: true },
    hourlyRate: '30.00',
    // 2h 15m - 3h 30m at £30.00.
    cost: { min: '67.50', max: '105.00' },
    price: quotePrice(),
    actualCuttingTime: null,
    actualPrepTime: null,
    actualCleanupTime: null,
    feedback: null,
    businessName: null,
    sources: { species: 'user', height: 'measured', diameter: 'measured' },
    measurement: {
      imageWidth: 450,
      imageHeight: 600,
      reference: { top: { x: 300, y: 455 }, bottom: { x: 300, y: 521 }, lengthM: 2, label: 'A door (2.0 m)' },
      tree: { top: { x: 215, y: 5 }, base: { x: 215, y: 568 } },
      trunk: { left: { x: 196, y: 500 }, right: { x: 232, y: 500 } },
    },
    sizeWarnings: [],
    source: 'dashboard',
    units: 'imperial',
    enteredSizes: null,
    createdAt: QUOTE_GENERATED_AT.toISOString(),
    ...overrides,
  };
}

/** One run of printed text: where pdf.js says it is (points, origin at the page's foot) and what it says. */
export interface TextBox {
  page: number;
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/*
 * Helvetica's ascender and descender (its AFM: 718 and -207 per 1000 units of the size): the
 * box a line of its glyphs fills around the baseline, without the line gap.
 */
const ASCENT = 0.718;
const DESCENT = 0.207;

/**
 * Every run of text the PDF prints, as pdf.js reads it back, with the box its glyphs fill.
 * pdfkit writes one run per line it lays out (and one per part of a `continued` line), so
 * these are the quote's line boxes as printed, not as the code meant them.
 */
export async function pdfTextBoxes(pdf: Buffer): Promise<TextBox[]> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const boxes: TextBox[] = [];
  for (let page = 1; page <= doc.numPages; page++) {
    const content = await (await doc.getPage(page)).getTextContent();
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const [, , , scaleY, x, baseline] = item.transform as number[];
      const size = Math.abs(scaleY ?? 0);
      boxes.push({ page, text: item.str, x: x ?? 0, y: (baseline ?? 0) - DESCENT * size, width: item.width, height: (ASCENT + DESCENT) * size });
    }
  }
  return boxes;
}

/** Pairs of boxes on the same page that share more than a sliver (tolerance in points) of area. */
export function overlappingBoxes(boxes: readonly TextBox[], tolerance = 0.5): [TextBox, TextBox][] {
  const overlaps: [TextBox, TextBox][] = [];
  boxes.forEach((a, i) => {
    for (const b of boxes.slice(i + 1)) {
      if (a.page !== b.page) continue;
      const across = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const down = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (across > tolerance && down > tolerance) overlaps.push([a, b]);
    }
  });
  return overlaps;
}

/**
 * A PDF's printed text, all pages, as report.test.ts reads it: on single spaces (wrapped lines
 * come back with line breaks), and a line broken after a hyphen ("low-" | "voltage") as one word.
 */
export async function pdfText(pdf: Buffer | Uint8Array): Promise<{ text: string; totalPages: number }> {
  const { totalPages, text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  return { totalPages, text: text.replace(/\s+/g, ' ').replace(/(\w-) (?=\w)/g, '$1') };
}

/** A VAT-registered company profile as quotes print it, with `logo` (a normalised PNG, or null). */
export function quoteCompany(logo: Buffer | null, overrides: Partial<QuoteCompany> = {}): QuoteCompany {
  return {
    tradingName: 'Oak & Ash Tree Care Ltd',
    phone: '01632 960 123',
    email: 'office@oakandash.co.uk',
    address: 'Unit 4, Mill Lane\nHebden Bridge\nHX7 8AB',
    vatNumber: 'GB123456789',
    quoteValidityDays: 30,
    logo,
    ...overrides,
  };
}

