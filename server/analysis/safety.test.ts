import { describe, expect, it } from 'vitest';
import { OPERATOR_WORDS } from '../../core/embed';
import { helpPassages, POWER_LINE_CLEARANCE } from '../../core/help-text';
import { assessSafety, type SafetyInput } from './safety';

const NEAR_POWER_LINES: SafetyInput = {
  date: new Date('2026-11-22T10:30:00Z'),
  site: { targets: 'nothing', powerLines: true },
  targetsNear: [],
  hazards: { noClimbing: false, warnings: [], siteVisitReasons: [] },
  method: 'straight_fell',
  dbhIn: 12,
  heightFt: 30,
  confidence: 0.5,
};

describe('power lines in UK terms', () => {
  const note = assessSafety(NEAR_POWER_LINES).warnings.find((w) => w.startsWith('Power lines near the tree'));

  it('an estimate near power lines says 3 m from low-voltage lines, more for higher voltages, and the network operator first', () => {
    expect(note).toBe(`Power lines near the tree: only a competent, authorised contractor may do this work. ${POWER_LINE_CLEARANCE}`);
    expect(note).toContain('at least 3 m (10 ft) from low voltage overhead lines');
    expect(note).toContain('more for higher voltages');
    expect(note).toContain('contact the Distribution Network Operator first');
  });

  it('the Safety Guide says the same', () => {
    const row = helpPassages({ visionModel: false }).find((p) => p.id === 'safety-power-lines');
    expect(row?.text).toContain(POWER_LINE_CLEARANCE);
  });

  it('reads as advice to a visitor, not words about how the server is set up', () => {
    // The widget shows an estimate's safety notes to homeowners, where operator words are kept out.
    expect(OPERATOR_WORDS.test(note!)).toBe(false);
  });

  it('says nothing about power lines when there are none', () => {
    const warnings = assessSafety({ ...NEAR_POWER_LINES, site: { targets: 'nothing', powerLines: false } }).warnings;
    expect(warnings.join(' ')).not.toContain('network operator');
  });
});
