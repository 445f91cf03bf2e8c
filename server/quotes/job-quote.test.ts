import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { SAFETY_DISCLAIMER, type Analysis } from '../../core/analysis';
import type { Job, JobItem } from '../../core/jobs';
import { DEFAULT_QUOTE_TERMS } from '../../core/quote-settings';
import type { VatMode } from '../../core/price';
import { normaliseLogo } from '../settings/logo';
import { photo } from '../../testing/analysis';
import { testLogoPng } from '../../testing/logo';
import { overlappingBoxes, pdfText, pdfTextBoxes, QUOTE_GENERATED_AT, quoteAnalysis, TYPICAL_WARNINGS, quoteCompany } from '../../testing/quote';
import { buildJobQuotePdf, type JobQuoteInput } from './job-quote';
import { quoteText } from './job-quote-font';
import type { QuoteCompany } from '../settings/quote-company';

/*
 * The job quote PDF (docs/analysis.md, Quotes) read back as text: names in any European script
 * as written, the totals worded for each VAT mode and exact in pence, nothing of the estimator's
 * working on the customer's copy and all of it on the internal one.
 */

// A real photo (CC BY-SA 4.0, Msact; see the fixtures' ATTRIBUTION.md), 450 x 600.
const ELM_PHOTO = photo('elm-beside-building.jpg');
const ISSUED_AT = QUOTE_GENERATED_AT;
const VALID_UNTIL = new Date('2026-12-22T12:00:00Z');

let logo: Buffer;
beforeAll(async () => {
  logo = await normaliseLogo(await testLogoPng());
});

const company = (overrides: Partial<QuoteCompany> = {}) => quoteCompany(logo, overrides);

const item = (id: number, fields: Partial<JobItem>): JobItem => ({
  id,
  kind: 'line',
  analysisId: null,
  description: 'Work',
  price: '0.00',
  optional: false,
  estimate: null,
  ...fields,
});

/** The elm (photo, estimate, crew notes), a sycamore the estimator could not name, a stump line and an optional hedge. */
const ELM = quoteAnalysis();
const UNNAMED = quoteAnalysis({ id: 124, species: null, woodDensity: 'High (about 1,000 kg/m³ green), assumed', confidence: 0.25, safetyWarnings: ['Dead wood over the footpath: close it while climbing.'] });
const ITEMS: JobItem[] = [
  item(11, {
    kind: 'tree',
    analysisId: ELM.id,
    description: 'Remove the english elm (about 55 ft (17 m) tall). A climber will dismantle the tree from the top down, lowering each piece on ropes.',
    price: '1225.00',
    estimate: { species: ELM.species, imageUrl: ELM.imageUrl, price: ELM.price },
  }),
  item(12, { kind: 'tree', analysisId: UNNAMED.id, description: 'Reduce the crown of the tree by the garage by 2 m.', price: '480.00', estimate: { species: null, imageUrl: null, price: UNNAMED.price } }),
  item(13, { description: 'Grind three stumps below ground level', price: '150.00' }),
  item(14, { description: 'Reduce the beech hedge along the drive by 1 m', price: '175.00', optional: true }),
];

function job(overrides: Partial<Job> = {}): Job {
  return {
    id: 12,
    reference: 'Q-000012',
    status: 'draft',
    customer: { name: 'Łukasz Wójcik', email: 'lukasz@example.com', phone: '07700 900123', siteAddress: '12 Elm Road\nLeeds LS6 2AB' },
    businessId: null,
    leadId: null,
    vatMode: 'inc',
    items: ITEMS,
    // The builder works the totals out from the items; these are what the API would say.
    totals: { net: '0.00', vat: '0.00', gross: '0.00' },
    totalsWithOptional: { net: '0.00', vat: '0.00', gross: '0.00' },
    versions: [],
    deposit: { percent: null, asked: null },
    acceptance: null,
    cancellation: null,
    cancellationPeriod: null,
    changedSinceSent: null,
    booking: null,
    doneAt: null,
    createdAt: ISSUED_AT.toISOString(),
    updatedAt: ISSUED_AT.toISOString(),
    ...overrides,
  };
}

async function build(input: Partial<JobQuoteInput> = {}, jobOverrides: Partial<Job> = {}) {
  const pdf = await buildJobQuotePdf({
    job: job(jobOverrides),
    company: company(),
    terms: DEFAULT_QUOTE_TERMS,
    issuedAt: ISSUED_AT,
    validUntil: VALID_UNTIL,
    photos: new Map([
      [ELM.id, ELM_PHOTO],
      [UNNAMED.id, null],
    ]),
    copy: 'customer',
    analyses: new Map<number, Analysis>([
      [ELM.id, ELM],
      [UNNAMED.id, UNNAMED],
    ]),
    ...input,
  });
  return { pdf, ...(await pdfText(pdf)) };
}

/** What the estimator and the crew read, never the customer. */
const FORBIDDEN_ON_CUSTOMER_COPY = [
  SAFETY_DISCLAIMER,
  'arborist',
  ...TYPICAL_WARNINGS,
  'LOLER',
  'rescue plan',
  'Dead wood over the footpath',
  'Unknown',
  'Wood density',
  'density',
  'kg/m³',
  'Confidence',
  'confidence',
  '72%',
  '25%',
  'Estimate',
  '£391.80',
  'Internal',
  'Calibrated',
  'Not answered',
];

describe('the customer copy of a job quote', () => {
  it('prints the business, the quote, the customer, every item with its price, the totals, validity and terms', async () => {
    const { pdf, text, totalPages } = await build();
    // Kept for a look by eye: pdftoppm -png -r 80 <tmp>/job-quote-sample.pdf page
    writeFileSync(join(tmpdir(), 'job-quote-sample.pdf'), pdf);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(totalPages).toBeLessThanOrEqual(2);

    expect(text).toContain('Oak & Ash Tree Care Ltd Unit 4, Mill Lane, Hebden Bridge, HX7 8AB');
    expect(text).toContain('Tel 01632 960 123 | office@oakandash.co.uk');
    expect(text).toContain('VAT registration no. GB 123 4567 89');
    expect(text).toContain('Quote no. Q-000012');
    expect(text).toContain('Date 22 November 2026');
    expect(text).toContain('Valid until 22 December 2026');
    expect(text).toContain('Prepared for Łukasz Wójcik lukasz@example.com 07700 900123');
    expect(text).toContain('Site address 12 Elm Road Leeds LS6 2AB');

    expect(text).toContain('Work Price inc VAT');
    expect(text).toContain('1 Remove the english elm (about 55 ft (17 m) tall). A climber will dismantle the tree from the top down, lowering each piece on ropes. £1,225.00');
    expect(text).toContain('2 Reduce the crown of the tree by the garage by 2 m. £480.00');
    expect(text).toContain('3 Grind three stumps below ground level £150.00');
    expect(text).toContain('4 Reduce the beech hedge along the drive by 1 m Optional £175.00');
    expect(text).toContain('Optional items are not included in the total.');

    expect(text).toContain('This quote is valid until 22 December 2026. To accept it or ask about it, contact Oak & Ash Tree Care Ltd on 01632 960 123 or at office@oakandash.co.uk, quoting Q-000012.');
    expect(text).toContain('Terms 1. Price: the price is fixed for the work described in this quote');
    expect(text).toContain('8. Your right to cancel: if you accept this quote online or away from our premises, you may cancel within 14 days');
    expect(text).toContain(`Quote Q-000012 | Valid until 22 December 2026 Page 1 of ${totalPages}`);
  });

  it('never prints confidence, an unnamed species, wood density, crew safety notes or the disclaimer', async () => {
    const { text } = await build();
    for (const word of FORBIDDEN_ON_CUSTOMER_COPY) expect(text, word).not.toContain(word);
  });

  it('prints Polish, Cyrillic and Greek names and addresses exactly as typed', async () => {
    const { text } = await build(
      { company: company({ tradingName: 'Δέντρα Αθηνών', address: 'Οδός Ερμού 12\nΑθήνα' }) },
      { customer: { name: 'Москва Visitor', email: null, phone: null, siteAddress: 'ул. Тверская, 7\nМосква 125009' } },
    );
    expect(text).toContain('Δέντρα Αθηνών Οδός Ερμού 12, Αθήνα');
    expect(text).toContain('Prepared for Москва Visitor');
    expect(text).toContain('Site address ул. Тверская, 7 Москва 125009');
    const polish = await build();
    expect(polish.text).toContain('Łukasz Wójcik');
    expect(polish.text).not.toContain('Lukasz');
    expect(polish.text).not.toContain('?');
    // The Author is written as UTF-16, so it reads back as typed too.
    const meta = await (await getDocumentProxy(new Uint8Array((await build({ company: company({ tradingName: 'Łódź Drzewa' }) })).pdf))).getMetadata();
    expect((meta.info as Record<string, unknown>).Author).toBe('Łódź Drzewa');
  });

  it.each<[VatMode, string]>([
    // 185,500p including VAT: the VAT in it is 1/6, 30,916.67p, to the nearest penny.
    ['inc', 'Total including VAT £1,855.00 Includes VAT at 20% £309.17'],
    ['ex', 'Subtotal £1,855.00 VAT at 20% £371.00 Total £2,226.00'],
    ['none', 'Total £1,855.00'],
  ])('words the totals for VAT %s, exact in pence', async (vatMode, totals) => {
    const { text } = await build({ company: company({ vatNumber: vatMode === 'none' ? '' : 'GB123456789' }) }, { vatMode });
    expect(text).toContain(totals);
    expect(text).toContain(`Work ${{ inc: 'Price inc VAT', ex: 'Price ex VAT', none: 'Price' }[vatMode]} 1 Remove`);
    if (vatMode === 'none') {
      expect(text).not.toContain('VAT');
      expect(text.match(/Total £1,855\.00/g)).toHaveLength(1);
    }
  });

  it('on the accepted copy adds the optional items chosen, and says who accepted and when', async () => {
    const { text } = await build({ chosenOptionalIds: [14], acceptance: { name: 'Łukasz Wójcik', at: new Date('2026-12-03T15:00:00Z') } });
    // 185,500p + 17,500p = 203,000p including VAT; VAT 33,833.33p.
    expect(text).toContain('Optional items chosen £175.00 Total including VAT £2,030.00 Includes VAT at 20% £338.33');
    expect(text).toContain('4 Reduce the beech hedge along the drive by 1 m Optional: chosen £175.00');
    expect(text).toContain('Accepted by Łukasz Wójcik on 3 December 2026');
    expect(text).not.toContain('Optional items are not included');
    expect(text).not.toContain('To accept it');

    const declined = await build({ chosenOptionalIds: [], acceptance: { name: 'Łukasz Wójcik', at: new Date('2026-12-03T15:00:00Z') } });
    expect(declined.text).toContain('Optional: not chosen £175.00');
    expect(declined.text).toContain('Total including VAT £1,855.00');
    expect(declined.text).not.toContain('Optional items chosen');
  });

  it('flows long terms over further pages, numbered, without losing the end', async () => {
    const terms = Array.from({ length: 45 }, (_, i) => `${i + 1}. Term number ${i + 1}: the customer will give clear access to the work, and the wood is taken away unless this quote says otherwise.`).join('\n');
    const { text, totalPages } = await build({ terms });
    expect(totalPages).toBeGreaterThanOrEqual(2);
    expect(text).toContain('1. Term number 1:');
    expect(text).toContain('45. Term number 45: the customer will give clear access to the work, and the wood is taken away unless this quote says otherwise.');
    expect(text).toContain(`Page ${totalPages} of ${totalPages}`);
  });

  it('shrinks the photos: a quote with a tree photo stays small', async () => {
    const { pdf } = await build();
    const withoutPhoto = await build({ photos: new Map() });
    // Both weights of the font, subset to the glyphs used, and a 360 px thumbnail.
    expect(withoutPhoto.pdf.length).toBeLessThan(80_000);
    expect(pdf.length - withoutPhoto.pdf.length).toBeLessThan(40_000);
    expect(pdf.length - withoutPhoto.pdf.length).toBeGreaterThan(5_000);
  });

  it('is the same for the same input', async () => {
    const { pdf } = await build();
    expect((await build()).pdf.equals(pdf)).toBe(true);
  });
});

describe('the layout of a job quote', () => {
  it('prints no line over another, with the longest words a quote carries, on both copies', async () => {
    const long = 'Take down the horse chestnut over the neighbour’s conservatory in sections, every piece rigged and lowered on ropes, grind the stump 300 mm below ground and leave the wood in rounds by the stove shed';
    const items = [...ITEMS.map((i) => ({ ...i, description: long })), item(15, { description: long, price: '999999.99', optional: true })];
    const customer = {
      name: 'Professor Dame Philippa Featherstonehaugh-Cholmondeley-Worthington DBE FRS',
      email: 'philippa.featherstonehaugh-cholmondeley@example.co.uk',
      phone: '+44 (0)1422 200 300 ext. 4412',
      siteAddress: 'The Coach House, Rear of 147-149 Lower Wyke Lane (access by the unadopted track beside the old chapel)\nNorwood Green, Halifax\nWest Yorkshire\nHX3 8QL',
    };
    const longCompany = company({ tradingName: 'Yorkshire Dales Tree Surgery, Hedge Laying and Woodland Management Services Ltd', address: 'Unit 14b, The Old Woollen Mill, Canal Wharf Industrial Estate\nSowerby Bridge\nHX6 2AG' });
    for (const copy of ['customer', 'internal'] as const) {
      const { pdf } = await build({ copy, company: longCompany, chosenOptionalIds: [14], acceptance: { name: customer.name, at: ISSUED_AT } }, { items, customer, vatMode: 'ex' });
      expect(overlappingBoxes(await pdfTextBoxes(pdf)), copy).toEqual([]);
    }
  });
});

describe('the internal copy of a job quote', () => {
  it('keeps the quote and adds, for each tree, its estimate and the working, marked not for the customer', async () => {
    const { pdf, text, totalPages } = await build({ copy: 'internal' });
    writeFileSync(join(tmpdir(), 'job-quote-sample-internal.pdf'), pdf);
    expect(text).toContain('Internal copy: not for the customer For your records with quote Q-000012.');
    expect(text).toContain('Total including VAT £1,855.00');
    expect(text).toContain('Item 1: English elm (Ulmus procera) Your price £1,225.00 Estimate £391.80 - £436.80 inc VAT');
    expect(text).toContain('Time on site 2.3-3.5 hours Method Climb and dismantle Confidence 72% Calibration Calibrated from 3 of your jobs');
    expect(text).toContain('Species English elm (Ulmus procera) Height 55 ft (17 m) Trunk diameter 28 in (71 cm) Wood density Medium (about 900 kg/m³ green)');
    for (const warning of TYPICAL_WARNINGS) expect(text).toContain(warning);
    expect(text).toContain('Item 2: tree, species not identified Your price £480.00');
    expect(text).toContain('Species Unknown');
    expect(text).toContain('Confidence 25%');
    expect(text).toContain('Dead wood over the footpath: close it while climbing.');
    // Lines have no estimate to show.
    expect(text).not.toContain('Item 3');
    expect(text).toContain(`Internal copy: not for the customer | Quote Q-000012 Page ${totalPages} of ${totalPages}`);
    expect(text).not.toContain('Valid until 22 December 2026 Page');
  });
});

describe('text as the job quote prints it', () => {
  it('composes accents, drops emoji and control characters, closes up spaces and keeps line breaks', () => {
    expect(quoteText('  Wo\u0301jcik\tTree 🌳 Care\u200b\r\n Łódź  \u0007')).toBe('Wójcik Tree Care\nŁódź');
  });
});
