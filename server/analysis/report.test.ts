import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { SAFETY_DISCLAIMER, type Analysis } from '../../core/analysis';
import { formatCostRange, formatTimeRange, formatTotalTime, totalMinutes } from '../../core/format';
import { buildReportPdf, type ReportInput } from './report';
import { photo } from '../testing/analysis';

// A real photo (CC BY-SA 4.0, Msact; see the fixtures' ATTRIBUTION.md).
const PHOTO = photo('elm-beside-building.jpg');
const GENERATED_AT = new Date('2026-11-22T10:30:00Z');

function analysisFixture(overrides: Partial<Analysis> = {}): Analysis {
  return {
    id: 123,
    imageUrl: '/api/analysis/123/image',
    species: 'American elm (Ulmus americana)',
    diameter: 28,
    height: 55,
    woodDensity: 'Medium (560 kg/m³ dry)',
    cuttingTimeMin: 45,
    cuttingTimeMax: 75,
    prepTimeMin: 30,
    prepTimeMax: 45,
    cleanupTimeMin: 60,
    cleanupTimeMax: 90,
    factors: [
      'Method: climb and dismantle (pieces lowered on ropes to protect building)',
      'About 2.4 t of green wood and brush to clear',
      'Access through a side gate slows set-up and clearing',
    ],
    safetyWarnings: [
      'Building within falling distance: rig and lower every piece',
      'Check for a Tree Preservation Order or conservation area before felling',
      'Bird nesting season runs March to August: check for active nests first',
    ],
    confidence: 0.72,
    method: 'climb_dismantle',
    siteVisitReason: 'a large tree within falling distance of a building',
    calibratedFromJobs: 3,
    provider: 'local',
    description: 'Elm beside the garden room, about 55 ft',
    siteDetails: { targets: 'building', access: 'side_gate' },
    hourlyRate: '30.00',
    cost: { min: '67.50', max: '105.00' },
    actualCuttingTime: null,
    actualPrepTime: null,
    actualCleanupTime: null,
    feedback: null,
    businessName: null,
    sources: null,
    measurement: null,
    source: 'dashboard',
    createdAt: GENERATED_AT.toISOString(),
    ...overrides,
  };
}

async function build(overrides: Partial<Analysis> = {}, input: Partial<ReportInput> = {}) {
  const pdf = await buildReportPdf({
    analysis: analysisFixture(overrides),
    image: PHOTO,
    reference: 'TA-000123',
    generatedAt: GENERATED_AT,
    ...input,
  });
  const { totalPages, text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  // Wrapped lines come back with line breaks: compare on single spaces.
  return { pdf, totalPages, text: text.replace(/\s+/g, ' ') };
}

describe('buildReportPdf', () => {
  it('writes a one-page quote with the photo, measurements, times, cost and notes', async () => {
    const { pdf, totalPages, text } = await build();
    // Kept for a look by eye: pdftoppm -png <tmp>/report-sample.pdf sample
    writeFileSync(join(tmpdir(), 'report-sample.pdf'), pdf);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(totalPages).toBe(1);

    const a = analysisFixture();
    expect(text).toContain('Tree Work Estimate');
    expect(text).toContain('Ref TA-000123');
    expect(text).toContain('22 November 2026');
    expect(text).toContain('American elm (Ulmus americana)');
    expect(text).toContain('28 inches');
    expect(text).toContain('55 ft');
    expect(text).toContain('Medium (560 kg/m³ dry)');
    expect(text).toContain('Climb and dismantle');
    expect(text).toContain('72%');
    expect(text).toContain(`Actual Cutting ${formatTimeRange({ min: 45, max: 75 })}`);
    expect(text).toContain(`Prep & Setup ${formatTimeRange({ min: 30, max: 45 })}`);
    expect(text).toContain(`Cleanup ${formatTimeRange({ min: 60, max: 90 })}`);
    expect(text).toContain('Cleanup 1h - 1h 30m');
    expect(text).toContain(formatTotalTime(totalMinutes(a)));
    expect(text).toContain('2.3-3.5 hours');
    expect(text).toContain(formatCostRange({ minPence: 6750, maxPence: 10500 }));
    expect(text).toContain('£67.50 - £105.00');
    expect(text).toContain('£30.00 per hour');
    for (const line of [...a.factors, ...a.safetyWarnings]) expect(text).toContain(line);
    expect(text).toContain('Site visit recommended: a large tree within falling distance of a building');
    expect(text).toContain('Calibrated from 3 of your jobs');
    expect(text).toContain(SAFETY_DISCLAIMER);
    expect(text).not.toContain('Prepared by');
  });

  it('names the business and the customer when there are both', async () => {
    const { text } = await build({ businessName: 'Oak & Ash Tree Care' }, { preparedFor: 'Mrs J. Smith' });
    expect(text).toContain('Prepared by Oak & Ash Tree Care');
    expect(text).toContain('Prepared for Mrs J. Smith');
  });

  it('says no rate is set when there is no cost, and leaves out notes that do not apply', async () => {
    const { text } = await build({ cost: null, hourlyRate: '0.00', siteVisitReason: null, calibratedFromJobs: null });
    expect(text).toContain('No hourly rate set');
    expect(text).not.toContain('£');
    expect(text).not.toContain('Site visit recommended');
    expect(text).not.toContain('Calibrated from');
  });

  it('shows Unknown and N/A for what could not be told, and works without a photo', async () => {
    const { pdf, text } = await build(
      { species: null, diameter: null, height: null, woodDensity: null, method: null, factors: [], safetyWarnings: [] },
      { image: null },
    );
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(text).toContain('Species Unknown');
    expect(text).toContain('Trunk diameter N/A');
    expect(text).toContain('Height N/A');
    expect(text).toContain('Wood density N/A');
    expect(text).toContain('None noted.');
  });

  it('flows a long factor list onto a second page without losing the end', async () => {
    const factors = Array.from({ length: 40 }, (_, i) => `Factor number ${i + 1}: a branch union over the neighbour's conservatory roof`);
    const { totalPages, text } = await build({ factors });
    expect(totalPages).toBeGreaterThanOrEqual(2);
    expect(text).toContain('Factor number 1:');
    expect(text).toContain('Factor number 40:');
    expect(text).toContain('Factors affecting cutting time (continued)');
    expect(text).toContain(`Page 2 of ${totalPages}`);
    expect(text).toContain(SAFETY_DISCLAIMER);
  });

  it('keeps text the standard fonts cannot draw readable', async () => {
    const { text } = await build({
      businessName: 'Łódź Tree Surgeons',
      safetyWarnings: ['⚠️ Keep ≥ 10 ft from power lines → call the network operator'],
    });
    expect(text).toContain('Prepared by Lódz Tree Surgeons');
    expect(text).toContain('Keep >= 10 ft from power lines -> call the network operator');
  });

  it('sets the document metadata and is the same for the same input', async () => {
    const { pdf } = await build();
    const again = await build();
    expect(again.pdf.equals(pdf)).toBe(true);
    const meta = await (await getDocumentProxy(new Uint8Array(pdf))).getMetadata();
    const info = meta.info as Record<string, unknown>;
    expect(info.Title).toBe('Tree Work Estimate TA-000123');
    expect(info.Author).toBe('TreeAnalyzer Pro');
    expect(info.CreationDate).toBe('D:20261122103000Z');
  });
});
