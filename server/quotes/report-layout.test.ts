import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Analysis } from '../../core/analysis';
import { normaliseLogo } from '../settings/logo';
import { photo } from '../../testing/analysis';
import { testLogoPng } from '../../testing/logo';
import { overlappingBoxes, pdfTextBoxes, QUOTE_GENERATED_AT, quoteAnalysis, TYPICAL_WARNINGS, type TextBox } from '../../testing/quote';
import { MARGIN } from './report-layout';
import { buildReportPdf, type ReportInput } from './report';
import type { QuoteCompany } from '../settings/quote-company';

/*
 * The quote's layout, measured on the PDF itself: every line pdf.js reads back is a box (its x,
 * its width, and the height Helvetica's glyphs take around the baseline), and no two boxes on a
 * page may share more than half a point either way. Fed the longest words a quote carries, all
 * at once, on both copies, with and without a photo and a company profile.
 */

const A4_WIDTH = 595.28;

/** Every field a quote prints, as long as a real one gets. */
const LONG_WORDED: Partial<Analysis> = {
  species: 'Horse chestnut (Aesculus hippocastanum), multi-stemmed with a co-dominant union and included bark',
  woodDensity: 'Medium-dense hardwood (about 600 kg/m³ dry, 1,000 kg/m³ green), assumed from the genus',
  method: 'climb_dismantle',
  siteVisitReason:
    "The tree leans over the neighbour's conservatory and the telephone line, the photo does not show its base, and the trunk looks hollow at the root flare, so the rigging and the drop zone need a look before a price can be held",
  siteDetails: { targets: 'building', access: 'through_house', dragDistance: 'long', powerLines: true, stumpGrinding: false, wasteRemoval: false },
  factors: ['Wood left on site in rounds', 'Access through the house slows set-up and clearing', 'About 9.8 tonnes of green wood and brush to clear'],
  safetyWarnings: [
    ...TYPICAL_WARNINGS,
    'The conservatory next door is within falling distance: every piece over it must be rigged and lowered, never dropped, and the owner told before work starts.',
    'Hollow root flare: test the trunk with a sounding mallet and, if in doubt, a resistance drill before anyone climbs; a decayed stem may not hold a rigging point.',
  ],
  hourlyRate: '65.00',
  cost: { min: '12930.00', max: '18875.55' },
  businessName: 'Yorkshire Dales Tree Surgery, Hedge Laying and Woodland Management Services',
  source: 'embed',
  description: 'Big horse chestnut at the back, over the neighbour’s conservatory; they want it down before the spring and the wood left for their stove.',
};

const LONG_RECIPIENT = {
  customerName: 'Professor Dame Philippa Featherstonehaugh-Cholmondeley-Worthington DBE FRS',
  siteAddress:
    'The Coach House, Rear of 147-149 Lower Wyke Lane (access by the unadopted track beside the old chapel)\nNorwood Green, Halifax\nWest Yorkshire\nHX3 8QL',
};

let logo: Buffer;
beforeAll(async () => {
  logo = await normaliseLogo(await testLogoPng());
});

function longCompany(): QuoteCompany {
  return {
    tradingName: 'The Great Northern Arboricultural Consultancy and Tree Surgery Partnership Ltd',
    phone: '+44 (0)1422 883 000 extension 204',
    email: 'enquiries.and.quotations@greatnorthernarboriculture.co.uk',
    address: 'Unit 14B, The Old Woollen Mill Business Park, Burnley Road\nMytholmroyd, Hebden Bridge\nWest Yorkshire\nHX7 5LH',
    vatNumber: 'GB123456789',
    quoteValidityDays: 30,
    logo,
  };
}

async function boxesOf(analysis: Partial<Analysis>, input: Partial<ReportInput>, keepAs?: string): Promise<TextBox[]> {
  const pdf = await buildReportPdf({
    analysis: quoteAnalysis(analysis),
    image: photo('elm-beside-building.jpg'),
    reference: 'TA-000123',
    generatedAt: QUOTE_GENERATED_AT,
    company: longCompany(),
    recipient: LONG_RECIPIENT,
    ...input,
  });
  // Kept for a look by eye: pdftoppm -png <tmp>/quote-long-words.pdf long
  if (keepAs) writeFileSync(join(tmpdir(), keepAs), pdf);
  return pdfTextBoxes(pdf);
}

const describeOverlap = ([a, b]: [TextBox, TextBox]) =>
  `page ${a.page}: "${a.text}" (${a.x.toFixed(1)}, ${a.y.toFixed(1)}, ${a.width.toFixed(1)} x ${a.height.toFixed(1)}) and "${b.text}" (${b.x.toFixed(1)}, ${b.y.toFixed(1)}, ${b.width.toFixed(1)} x ${b.height.toFixed(1)})`;

describe('the quote layout', () => {
  it('finds an overlap when there is one (the measure itself)', () => {
    const line = (y: number): TextBox => ({ page: 1, text: 'Not included: Stump grinding', x: 56, y, width: 200, height: 8.8 });
    // The old fixed 14 pt rows: a wrapped second line 11 pt under its first lands on the next row.
    expect(overlappingBoxes([line(100), line(89), line(86)])).toHaveLength(1);
    expect(overlappingBoxes([line(100), line(89)])).toHaveLength(0);
    expect(overlappingBoxes([line(100), { ...line(100), page: 2 }])).toHaveLength(0);
    expect(overlappingBoxes([line(100), { ...line(100), x: 257 }])).toHaveLength(0);
  });

  const cases: [string, Partial<Analysis>, Partial<ReportInput>, string?][] = [
    ['the customer copy, long words everywhere', LONG_WORDED, {}],
    ['the internal copy, long words everywhere', LONG_WORDED, { copy: 'internal' }, 'quote-long-words.pdf'],
    ['no photo and no company profile', LONG_WORDED, { image: null, company: null, copy: 'internal' }],
    ['nothing included but the work, short words', { siteDetails: { stumpGrinding: false, wasteRemoval: false }, factors: ['Wood left on site in rounds'] }, { recipient: null }],
    ['a price without VAT and a large range', { ...LONG_WORDED, cost: { min: '912930.00', max: '1418875.55' } }, { company: { ...longCompany(), vatNumber: '' } }],
  ];

  it.each(cases)('never prints one line over another: %s', async (_name, analysis, input, keepAs) => {
    const boxes = await boxesOf(analysis, input, keepAs);
    expect(boxes.length).toBeGreaterThan(40);
    expect(overlappingBoxes(boxes).map(describeOverlap)).toEqual([]);
    // And nothing runs into the side margins (a line pdfkit was told not to break).
    const outside = boxes.filter((b) => b.x < MARGIN - 0.5 || b.x + b.width > A4_WIDTH - MARGIN + 0.5);
    expect(outside.map((b) => `page ${b.page}: "${b.text}" from ${b.x.toFixed(1)} to ${(b.x + b.width).toFixed(1)}`)).toEqual([]);
  });

  it('wraps what is not included onto a second line rather than cutting it short', async () => {
    const boxes = await boxesOf(LONG_WORDED, {});
    const text = boxes.map((b) => b.text).join(' ');
    expect(text).toContain('Not included: Stump grinding (stump left low at ground');
    expect(text).toMatch(/Not included: Waste removal \(wood left on site in\s*rounds\)/);
    expect(text).not.toContain('...');
  });
});
