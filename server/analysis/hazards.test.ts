import { describe, expect, it } from 'vitest';
import { HAZARD_CAP, hazardEffects } from './hazards';

describe('hazardEffects', () => {
  it('changes nothing when nothing is named', () => {
    expect(hazardEffects([])).toEqual({ noClimbing: false, factors: [], warnings: [], siteVisitReasons: [], times: { cutting: 1, prep: 1, cleanup: 1 } });
  });

  it('does not compound words for the same problem', () => {
    const one = hazardEffects(['dead']);
    const many = hazardEffects(['dead', 'decay', 'fungus', 'hollow']);
    expect(many.times).toEqual(one.times);
    expect(many.factors).toEqual([
      'Your details mention dead, decay, fungus, hollow: dead or decayed wood cannot be climbed or rigged in the normal way, so cutting x1.5, set-up x1.3',
    ]);
    expect(many.warnings).toHaveLength(1);
    expect(many.noClimbing).toBe(true);
  });

  it('multiplies different problems, capped', () => {
    expect(hazardEffects(['leaning', 'ivy']).times).toEqual({ cutting: 1.38, prep: 1.1, cleanup: 1.1 });
    const all = hazardEffects(['dead', 'split', 'leaning', 'ivy', 'deadwood']);
    expect(all.times.cutting).toBe(HAZARD_CAP);
    expect(all.times.prep).toBeCloseTo(1.3 * 1.2 * 1.1, 3);
  });

  it('asks for a site visit where the hazard raises the risk, not for ivy or dead branches alone', () => {
    expect(hazardEffects(['ivy', 'deadwood']).siteVisitReasons).toEqual([]);
    expect(hazardEffects(['storm_damage']).siteVisitReasons).toEqual(['split or storm-damaged wood needs an on-site assessment']);
    expect(hazardEffects(['over_road']).siteVisitReasons).toEqual(['a tree over a road needs a traffic management plan on site']);
  });

  it('adds the ash dieback note', () => {
    expect(hazardEffects(['ash_dieback']).warnings.join(' ')).toMatch(/Ash dieback: affected ash becomes brittle/);
  });
});
