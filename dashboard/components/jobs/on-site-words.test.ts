import { describe, expect, it } from 'vitest';
import type { SiteCheck } from '../../../core/crew-day';
import { SITE_HAZARD_KEYS } from '../../../core/crew-day';
import { formatAnalysisDate } from '../analysis/analysis-date';
import {
  correctedWords,
  correctionDraftOf,
  correctionOf,
  CORRECTION_MESSAGES,
  finishedWords,
  hazardsAbsentWords,
  hazardsPresent,
  minutesInWords,
  photoAlt,
  siteCheckStateWords,
  startedWithoutCheckWords,
  timeText,
  workStateWords,
} from './on-site-words';

/* The job page's On site panel in words (docs/product.md, The crew's day, On the office's job page). */
const at = formatAnalysisDate;

describe('minutesInWords', () => {
  it('says hours and minutes as the panel writes them', () => {
    expect(minutesInWords(155)).toBe('2 h 35 min');
    expect(minutesInWords(45)).toBe('45 min');
    expect(minutesInWords(0)).toBe('0 min');
    expect(minutesInWords(180)).toBe('3 h');
    expect(minutesInWords(61)).toBe('1 h 1 min');
  });
});

describe('the state of the work', () => {
  it('reads Done for a done job whatever the last tap, else the timer in words', () => {
    expect(workStateWords({ state: 'running' }, true)).toBe('Done');
    expect(workStateWords({ state: 'not_started' }, false)).toBe('Not started yet');
    expect(workStateWords({ state: 'paused' }, false)).toBe('Paused');
  });

  it('names a start without a complete site check with its reason and who gave it', () => {
    expect(startedWithoutCheckWords({ reason: 'Storm damage, road blocked', by: 'Sam Field', at: '2026-06-02T07:00:00.000Z' })).toBe(
      'Started without a complete site check: Storm damage, road blocked, by Sam Field',
    );
  });
});

const check: SiteCheck = {
  jobId: 1,
  date: '2026-06-02',
  hazards: SITE_HAZARD_KEYS.map((key) => ({ key, present: key === 'overhead_lines' || key === 'weather', controls: key === 'overhead_lines' ? 'Lines isolated by the DNO' : key === 'weather' ? 'Gusts under 15 m/s' : null })),
  emergency: null,
  signatures: [{ memberId: 3, name: 'Sam Field', signedAt: '2026-06-02T06:50:00.000Z' }],
  complete: false,
  missing: ['Signed by 1 person: at least 2 people on site sign.'],
  updatedAt: '2026-06-02T06:45:00.000Z',
  updatedBy: 'Sam Field',
};

describe("a day's site check", () => {
  it("says complete, or not filled in, or what is missing in the server's words", () => {
    expect(siteCheckStateWords(check)).toEqual({ headline: 'Not complete', missing: ['Signed by 1 person: at least 2 people on site sign.'] });
    expect(siteCheckStateWords({ ...check, complete: true, missing: [] })).toEqual({ headline: 'Complete and signed', missing: [] });
    const empty = { complete: false, updatedAt: null, missing: ['The hazards are not answered yet.', 'The emergency plan is not given yet.', 'No one has signed yet: at least 2 people on site sign.'] };
    expect(siteCheckStateWords(empty)).toEqual({ headline: 'Not filled in yet', missing: empty.missing });
  });

  it('lists the hazards present with their controls, and the others in one line', () => {
    expect(hazardsPresent(check)).toEqual([
      { label: 'Overhead lines', controls: 'Lines isolated by the DNO' },
      { label: 'Weather: wind, rain, ice, heat', controls: 'Gusts under 15 m/s' },
    ]);
    expect(hazardsAbsentWords(check)).toBe(
      'Not present: Roads and the public; buildings and structures; ground: slopes, soft or uneven; other trees: dead wood, hung-up branches; wildlife: nesting birds, bats, wasps; underground services; anything else',
    );
    expect(hazardsAbsentWords({ hazards: check.hazards.map((h) => ({ ...h, present: true })) })).toBeNull();
  });
});

describe('the photos and the finish', () => {
  it('describes each photo by its kind, who took it and when', () => {
    expect(photoAlt({ kind: 'after', takenBy: 'Sam Field', at: '2026-06-02T14:10:00.000Z' })).toBe(`After photo, taken by Sam Field on ${at('2026-06-02T14:10:00.000Z')}`);
    expect(photoAlt({ kind: 'before', takenBy: 'Sam Field', at: '2026-06-02T07:10:00.000Z' })).toMatch(/^Before photo, taken by Sam Field on /);
  });

  it('names who finished and who corrected the times, without a name in a team of one', () => {
    const finish = { finishedBy: 'Sam Field', finishedAt: '2026-06-02T15:00:00.000Z', correctedBy: 'Ana Ruiz', correctedAt: '2026-06-03T09:00:00.000Z' };
    expect(finishedWords(finish)).toBe(`Finished by Sam Field on ${at(finish.finishedAt)}`);
    expect(correctedWords(finish)).toBe(`Times corrected by Ana Ruiz on ${at(finish.correctedAt)}`);
    expect(correctedWords({ correctedBy: null, correctedAt: null })).toBeNull();
    expect(finishedWords({ finishedBy: null, finishedAt: finish.finishedAt })).toBe(`Finished on ${at(finish.finishedAt)}`);
  });
});

describe('correcting the times', () => {
  const stored = [
    { itemId: 7, cuttingTime: 95, prepTime: 30, cleanupTime: 45 },
    { itemId: 8, cuttingTime: null, prepTime: null, cleanupTime: null },
  ];

  it('starts from the stored times, written so they read back', () => {
    expect(timeText(95)).toBe('1h 35m');
    expect(timeText(120)).toBe('2h');
    expect(timeText(30)).toBe('30');
    expect(timeText(null)).toBe('');
    expect(correctionDraftOf(stored)).toEqual({ 7: { cuttingTime: '1h 35m', prepTime: '30', cleanupTime: '45' }, 8: { cuttingTime: '', prepTime: '', cleanupTime: '' } });
    expect(correctionOf(stored, correctionDraftOf(stored))).toEqual({ unchanged: CORRECTION_MESSAGES.unchanged });
  });

  it('sends only the times that changed, tree by tree', () => {
    const draft = { ...correctionDraftOf(stored), 7: { cuttingTime: '2h', prepTime: '30', cleanupTime: '' }, 8: { cuttingTime: '', prepTime: '20 min', cleanupTime: '' } };
    expect(correctionOf(stored, draft)).toEqual({ actuals: [{ itemId: 7, cuttingTime: 120 }, { itemId: 8, prepTime: 20 }] });
  });

  it('marks each time it cannot read, and sends nothing then', () => {
    const draft = { 7: { cuttingTime: 'two hours', prepTime: '30', cleanupTime: '99999999' }, 8: { prepTime: '15' } };
    expect(correctionOf(stored, draft)).toEqual({ errors: { 7: { cuttingTime: CORRECTION_MESSAGES.duration, cleanupTime: CORRECTION_MESSAGES.duration } } });
  });
});
