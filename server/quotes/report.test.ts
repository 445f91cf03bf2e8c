import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { SAFETY_DISCLAIMER, type Analysis } from '../../core/analysis';
import { formatTimeRange, formatTotalTime, totalMinutes } from '../../core/format';
import { describeWoodDensity, UNKNOWN_SPECIES_GREEN_DENSITY_KG_M3 } from '../../core/species';
import { normaliseLogo } from '../settings/logo';
import { photo } from '../../testing/analysis';
import { testLogoPng } from '../../testing/logo';
import { QUOTE_GENERATED_AT, quoteAnalysis, quotePrice, TYPICAL_WARNINGS, quoteCompany } from '../../testing/quote';
import { buildReportPdf, type ReportInput } from './report';
import type { QuoteCompany } from '../settings/quote-company';

// A real photo (CC BY-SA 4.0, Msact; see the fixtures' ATTRIBUTION.md), 450 x 600.
const PHOTO = photo('elm-beside-building.jpg');
const GENERATED_AT = QUOTE_GENERATED_AT;
const analysisFixture = quoteAnalysis;

let logo: Buffer;
beforeAll(async () => {
  logo = await normaliseLogo(await testLogoPng());
});

const company = (overrides: Partial<QuoteCompany> = {}) => quoteCompany(logo, overrides);

async function build(overrides: Partial<Analysis> = {}, input: Partial<ReportInput> = {}) {
  const pdf = await buildReportPdf({
    analysis: analysisFixture(overrides),
    image: PHOTO,
    reference: 'TA-000123',
    generatedAt: GENERATED_AT,
    company: company(),
    ...input,
  });
  const { totalPages, text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  // Wrapped lines come back with line breaks: compare on single spaces, and a line broken
  // after a hyphen ("low-" | "voltage") as the one word it is.
  return { pdf, totalPages, text: text.replace(/\s+/g, ' ').replace(/(\w-) (?=\w)/g, '$1') };
}

/** What only the contractor may read; none of it belongs on the customer's copy. */
const INTERNAL_WORDS = ['Internal notes', 'Not answered', 'assumed', 'Calibrated', 'calibrat', 'provider', 'Provider', 'Confidence', 'confidence', '72%', 'Measured on your photo', 'You entered it', 'Elm beside the garden room', 'About 2.4 tonnes of green wood and brush'];

describe('the customer quote', () => {
  it('fits a typical job with logo, VAT and a measurement on one A4 page, saying who, what, when and how much', async () => {
    const { pdf, totalPages, text } = await build();
    // Kept for a look by eye: pdftoppm -png <tmp>/quote-sample.pdf sample
    writeFileSync(join(tmpdir(), 'quote-sample.pdf'), pdf);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(totalPages).toBe(1);

    expect(text).toContain('Oak & Ash Tree Care Ltd');
    expect(text).toContain('Unit 4, Mill Lane, Hebden Bridge, HX7 8AB');
    expect(text).toContain('Tel 01632 960 123');
    expect(text).toContain('office@oakandash.co.uk');
    expect(text).toContain('VAT registration no. GB 123 4567 89');
    expect(text).toContain('Quote');
    expect(text).toContain('Quote no. TA-000123');
    expect(text).toContain('Date 22 November 2026');
    // 30 days after 22 November.
    expect(text).toContain('Valid until 22 December 2026');

    expect(text).toContain('English elm (Ulmus procera)');
    // An imperial analysis: feet and inches, metres to the half metre a whole foot allows.
    expect(text).toContain('55 ft (17 m)');
    expect(text).toContain('28 in (71 cm)');
    expect(text).toContain('Wood density Medium (about 900 kg/m³ green)');
    expect(text).toContain('Climb and dismantle');
    expect(text).toContain('A climber will dismantle the tree from the top down');
    // The measured lines' caption: 563 px of tree over 66 px per 2 m is 17.1 m; 36 px of trunk is 109 cm.
    expect(text).toContain('Measured on the photo: height 17.1 m (blue), trunk 109 cm across (pink), with a door (2.0 m) as the reference (yellow)');

    const a = analysisFixture();
    expect(text).toContain(`Cutting ${formatTimeRange({ min: 45, max: 75 })}`);
    expect(text).toContain(`Preparation and set-up ${formatTimeRange({ min: 30, max: 45 })}`);
    expect(text).toContain('Cleanup 1h - 1h 30m');
    expect(text).toContain(`Total time ${formatTotalTime(totalMinutes(a))}`);
    expect(text).toContain('Site visit recommended: A large tree near power lines needs an on-site risk assessment. The price is confirmed after a visit.');

    expect(text).toContain('Stump grinding below ground level');
    expect(text).toContain('Removal of all wood, brush and chippings');
    for (const warning of TYPICAL_WARNINGS) expect(text).toContain(warning);
    expect(text).toContain('To accept this quote, contact Oak & Ash Tree Care Ltd on 01632 960 123 or at office@oakandash.co.uk by 22 December 2026, quoting TA-000123.');
    expect(text).toContain(SAFETY_DISCLAIMER);
    expect(text).toContain('Page 1 of 1');
  });

  it('prints sizes typed in metric as typed, with feet and inches in brackets', async () => {
    const { text } = await build({ height: 72, diameter: 35, units: 'metric', enteredSizes: { height: { value: 22, unit: 'm' }, diameter: { value: 90, unit: 'cm' } } });
    expect(text).toContain('22 m (72 ft)');
    expect(text).toContain('90 cm (35 in)');
  });

  it("prints a homeowner's band as the band, not its middle as if measured", async () => {
    const { text } = await build({ height: 20, diameter: 15, units: 'metric', sources: { species: null, height: 'band', diameter: 'band' }, enteredSizes: null });
    expect(text).toContain('Height 4 to 8 m');
    expect(text).toContain('Trunk diameter 27 to 50 cm');
    expect(text).not.toContain('38 cm');
  });

  it('prints every line of the price with its working, then the total ex VAT, the VAT and the total inc VAT', async () => {
    const { text } = await build();
    expect(text).toContain('Crew time £67.50 - £105.00 2.3-3.5 crew-hours at £30.00 an hour (crew of 2)');
    expect(text).toContain('Travel £25.00');
    expect(text).toContain('Waste disposal £144.00 About 2.4 tonnes of green waste at £60.00 a tonne');
    expect(text).toContain('Stump grinder £90.00');
    expect(text).toContain('Total ex VAT £326.50 - £364.00');
    expect(text).toContain('VAT at 20% £65.30 - £72.80');
    expect(text).toContain('Total inc VAT £391.80 - £436.80');
    // The site question the customer left unanswered, said in the price's own words.
    expect(text).toContain('Priced for: brush drag of 10 to 30 m. Tell us if any of this is different.');
  });

  it('says no VAT is charged, with no VAT line, for a contractor who is not VAT-registered', async () => {
    const { text } = await build({ price: quotePrice({ vatMode: 'none' }) }, { company: company({ vatNumber: '' }) });
    expect(text).toContain('Total (no VAT charged) £326.50 - £364.00');
    expect(text).not.toContain('VAT at');
    expect(text).not.toContain('inc VAT');
  });

  it('raises a small job to the minimum charge and says so', async () => {
    const { text } = await build({ price: quotePrice({ minimumChargePence: 50000 }) });
    expect(text).toContain('Minimum charge £500.00 Jobs start at £500.00 before VAT');
    expect(text).toContain('Total inc VAT £600.00');
  });

  it('keeps every internal note off the customer copy', async () => {
    // What the estimate writes for a tree it could not name (describeWoodDensity, then ", assumed"): the customer reads the density alone.
    const { text } = await build({ woodDensity: `${describeWoodDensity(UNKNOWN_SPECIES_GREEN_DENSITY_KG_M3)}, assumed` });
    expect(text).toContain('Wood density High (about 1,000 kg/m³ green)');
    for (const word of INTERNAL_WORDS) expect(text, word).not.toContain(word);
    expect(text).not.toContain('Add your company details');
  });

  it('counts the validity on the UK calendar from the quote date, with the profile\'s days', async () => {
    const { text } = await build({}, { generatedAt: new Date('2026-06-30T23:30:00Z'), company: company({ quoteValidityDays: 14 }) });
    // 00:30 on 1 July in London (BST).
    expect(text).toContain('Date 1 July 2026');
    expect(text).toContain('Valid until 15 July 2026');
  });

  it('says what is not included when the estimate left it out', async () => {
    const { text } = await build({
      siteDetails: { stumpGrinding: false, wasteRemoval: false },
      factors: ['Wood left on site in rounds'],
    });
    expect(text).toContain('Not included: Stump grinding (stump left low at ground level)');
    expect(text).toContain('Not included: Waste removal (wood left on site in rounds)');
  });

  it('has no price line, only "to be confirmed", when no hourly rate is set', async () => {
    const { text } = await build({ cost: null, price: null, hourlyRate: '0.00', siteVisitReason: null });
    expect(text).toContain('Price to be confirmed');
    expect(text).not.toContain('£');
    expect(text).not.toContain('Site visit recommended');
  });

  it('without a company profile has a clean header: no placeholder, no contact line', async () => {
    const { text, totalPages } = await build({}, { company: null });
    expect(totalPages).toBe(1);
    expect(text).toContain('Quote no. TA-000123');
    expect(text).toContain('Valid until 22 December 2026');
    expect(text).not.toContain('Add your company details');
    expect(text).not.toContain('To accept this quote');
  });

  it("names the embed's business when there is no profile", async () => {
    const { text } = await build({ businessName: 'Birch Brothers Arboriculture', source: 'embed' }, { company: null });
    expect(text).toContain('Birch Brothers Arboriculture');
    expect(text).not.toContain('A trading name of');
    expect(text).not.toContain('Prepared for');
  });

  it("brands a website lead's quote with the business it came through, with the profile's details under it", async () => {
    const { text, pdf } = await build({ businessName: 'Birch Brothers Arboriculture', source: 'embed' });
    expect(text).toContain('Birch Brothers Arboriculture A trading name of Oak & Ash Tree Care Ltd Unit 4, Mill Lane, Hebden Bridge, HX7 8AB');
    expect(text).toContain('Tel 01632 960 123');
    expect(text).toContain('VAT registration no. GB 123 4567 89');
    expect(text).toContain('To accept this quote, contact Birch Brothers Arboriculture on 01632 960 123 or at office@oakandash.co.uk');
    const meta = await (await getDocumentProxy(new Uint8Array(pdf))).getMetadata();
    expect((meta.info as Record<string, unknown>).Author).toBe('Birch Brothers Arboriculture');
  });

  it('says "a trading name of" only when the business has another name than the profile', async () => {
    const { text } = await build({ businessName: 'OAK & ASH  Tree Care Ltd', source: 'embed' });
    expect(text).toContain('OAK & ASH Tree Care Ltd');
    expect(text).not.toContain('A trading name of');
  });

  it('prints who the quote is prepared for and the site address, still on one page', async () => {
    const { text, totalPages } = await build({}, { recipient: { customerName: 'Mrs J. Smith', siteAddress: '12 Acacia Avenue\n\nHebden Bridge\nHX7 8AB' } });
    expect(totalPages).toBe(1);
    expect(text).toContain('Prepared for Mrs J. Smith');
    expect(text).toContain('Site address 12 Acacia Avenue, Hebden Bridge, HX7 8AB');
  });

  it('shows Unknown and N/A for what could not be told, and works without a photo', async () => {
    const { pdf, text } = await build(
      { species: null, diameter: null, height: null, woodDensity: null, method: null, safetyWarnings: [] },
      { image: null },
    );
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(text).toContain('Species Unknown');
    expect(text).toContain('Trunk diameter N/A');
    expect(text).toContain('Height N/A');
    expect(text).toContain('Wood density N/A');
    expect(text).toContain('To be agreed on site');
    expect(text).toContain('None noted.');
  });

  it('flows a long list of safety notes onto a second page without losing the end', async () => {
    const safetyWarnings = Array.from({ length: 40 }, (_, i) => `Note number ${i + 1}: a branch union over the neighbour's conservatory roof`);
    const { totalPages, text } = await build({ safetyWarnings });
    expect(totalPages).toBeGreaterThanOrEqual(2);
    expect(text).toContain('Note number 1:');
    expect(text).toContain('Note number 40:');
    expect(text).toContain('Safety notes (continued)');
    expect(text).toContain(`Page 2 of ${totalPages}`);
    expect(text).toContain(SAFETY_DISCLAIMER);
  });

  it('keeps text the standard fonts cannot draw readable', async () => {
    const { text } = await build(
      { safetyWarnings: ['⚠️ Keep ≥ 3 m from power lines → call the network operator'] },
      { company: company({ tradingName: 'Łódź Tree Surgeons' }) },
    );
    expect(text).toContain('Lódz Tree Surgeons');
    expect(text).toContain('Keep >= 3 m from power lines -> call the network operator');
  });

  it('sets the document metadata and is the same for the same input', async () => {
    const { pdf } = await build();
    const again = await build();
    expect(again.pdf.equals(pdf)).toBe(true);
    const meta = await (await getDocumentProxy(new Uint8Array(pdf))).getMetadata();
    const info = meta.info as Record<string, unknown>;
    expect(info.Title).toBe('Quote TA-000123');
    expect(info.Author).toBe('Oak & Ash Tree Care Ltd');
    expect(info.CreationDate).toBe('D:20261122103000Z');
  });
});

describe('every code the quote stores is printed by its label', () => {
  /** snake_case, the way the stored codes are spelled (climb_dismantle, side_gate, fence_shed). */
  const CODE = /\b[a-z0-9]+(?:_[a-z0-9]+)+\b/gi;
  const variants: [string, Partial<Analysis>][] = [
    ['straight_fell', { method: 'straight_fell', provider: 'openai', siteDetails: { targets: 'fence_shed', access: 'open', dragDistance: 'short' }, sources: { species: 'model', height: 'band', diameter: 'description' } }],
    ['section_fell', { method: 'section_fell', provider: 'local', siteDetails: { targets: 'road', access: 'through_house', dragDistance: 'long' }, sources: { species: 'assumed', height: 'user', diameter: 'band' } }],
    ['climb_dismantle', { method: 'climb_dismantle', siteDetails: { targets: 'building', access: 'side_gate', dragDistance: 'medium', stumpGrinding: false, wasteRemoval: false }, factors: ['Wood left on site in rounds'] }],
    ['codes the labels do not know', { method: 'crane_assisted_fell', provider: 'some_future_model', siteDetails: { targets: 'nothing' }, sources: null }],
  ];

  it.each(variants)('on both copies: %s', async (_name, overrides) => {
    for (const copy of ['customer', 'internal'] as const) {
      const { text } = await build(overrides, { copy });
      expect(text.match(CODE), copy).toBeNull();
    }
  });
});

describe('the internal copy', () => {
  it('adds a second page of notes for the contractor after the one-page quote', async () => {
    const { pdf, totalPages, text } = await build({}, { copy: 'internal' });
    writeFileSync(join(tmpdir(), 'quote-sample-internal.pdf'), pdf);
    expect(totalPages).toBe(2);
    expect(text).toContain('Quote no. TA-000123');
    expect(text).toContain('Internal notes - not for the customer');
    expect(text).toContain('Provider Local estimate from the details given (no vision model)');
    expect(text).toContain('Confidence 72%');
    expect(text).toContain('Calibrated from 3 of your jobs');
    expect(text).toContain('Species You entered it');
    expect(text).toContain('Height Measured on your photo');
    expect(text).toContain('Photo measurement height 17.1 m, trunk 109 cm; reference: A door (2.0 m)');
    expect(text).toContain('Within falling distance Building');
    expect(text).toContain('Method (time model) Climb and dismantle');
    expect(text).toContain('Project details Elm beside the garden room, about 55 ft');
    for (const factor of analysisFixture().factors) expect(text).toContain(factor);
    expect(text).toContain('Page 2 of 2');
  });

  it('says, on the contractor\'s copy only, to add the company details', async () => {
    const { text } = await build({ cost: null, hourlyRate: '0.00' }, { company: null, copy: 'internal' });
    expect(text).toContain('Add your company details in Settings');
    expect(text).toContain('Your company details are not set');
    expect(text).toContain('No hourly rate was set');
  });
});
