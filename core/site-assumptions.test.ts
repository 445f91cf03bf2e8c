import { describe, expect, it } from 'vitest';
import { OPERATOR_WORDS } from './embed';
import { siteAssumptions } from './quote';
import { ACCESS, DRAG_DISTANCES, TARGETS } from './questions';
import {
  assumedPhrases,
  assumptionSentence,
  assumptionSentences,
  CAUTIOUS_SITE,
  cautiousSite,
  SITE_ASSUMED_PREFIX,
  SITE_QUESTION_KEYS,
  sizeRangePhrase,
  TYPICAL_GARDEN_TREE,
} from './site-assumptions';
import { estimateTimes, type TimeModelInput } from './time-model';

const TREE = { dbhIn: 12, heightFt: 30, greenDensityKgM3: 1000 };
const minutes = (site: TimeModelInput['site']) => {
  const t = estimateTimes({ ...TREE, site });
  return t.cutting.max + t.prep.max + t.cleanup.max;
};

describe('cautiousSite', () => {
  it('prices every question left out as its cautious answer, and lists each, in the order of the questions', () => {
    const { site, assumed } = cautiousSite({});
    expect(site).toEqual({ targets: 'building', powerLines: true, access: 'side_gate', dragDistance: 'long', stumpGrinding: false, wasteRemoval: true });
    expect(assumed).toEqual(SITE_QUESTION_KEYS.map((key) => CAUTIOUS_SITE[key].phrase));
  });

  it('keeps what was answered, then what was read from the details, and lists only the rest', () => {
    const { site, assumed } = cautiousSite({ powerLines: false, targets: 'nothing' }, { targets: 'road', access: 'open' });
    expect(site).toMatchObject({ powerLines: false, targets: 'nothing', access: 'open', dragDistance: 'long' });
    expect(assumed).toEqual([CAUTIOUS_SITE.dragDistance.phrase, CAUTIOUS_SITE.stumpGrinding.phrase, CAUTIOUS_SITE.wasteRemoval.phrase]);
  });

  it('is the cautious side in the time model: no target, power-line answer or drag takes longer', () => {
    const cautious = cautiousSite({}).site;
    const at = (change: Partial<TimeModelInput['site']>) => minutes({ ...cautious, ...change });
    for (const targets of TARGETS) expect(at({ targets }), targets).toBeLessThanOrEqual(minutes(cautious));
    for (const dragDistance of DRAG_DISTANCES) expect(at({ dragDistance }), dragDistance).toBeLessThanOrEqual(minutes(cautious));
    expect(at({ powerLines: false })).toBeLessThan(minutes(cautious));
    // Access: every answer but "through the house" (see CAUTIOUS_SITE.access).
    for (const access of ACCESS.filter((a) => a !== 'through_house')) expect(at({ access }), access).toBeLessThanOrEqual(minutes(cautious));
    // Taking the wood away is the longer cleanup; grinding is an extra asked for.
    expect(at({ wasteRemoval: false })).toBeLessThan(minutes(cautious));
  });
});

describe('the assumptions in words', () => {
  it('a phrase has no comma (the factor lists them after ", "), and every sentence is in a visitor\'s words', () => {
    for (const key of SITE_QUESTION_KEYS) {
      const { phrase, sentence } = CAUTIOUS_SITE[key];
      expect(phrase).not.toContain(',');
      expect(sentence).toMatch(/^We assumed .+\.$/);
      expect(sentence).not.toMatch(OPERATOR_WORDS);
      expect(assumptionSentence(phrase)).toBe(sentence);
    }
    expect(CAUTIOUS_SITE.powerLines.sentence).toBe('We assumed there may be power lines near the tree; tell us if not and the price may come down.');
  });

  it('says a typical garden tree in metres with feet, centimetres with inches, the documented ends as chosen', () => {
    const { height, trunk } = TYPICAL_GARDEN_TREE;
    expect(sizeRangePhrase('height', height.minFt, height.maxFt)).toBe('tree height of 6 to 15 m (20 to 49 ft)');
    expect(sizeRangePhrase('trunk', trunk.minIn, trunk.maxIn)).toBe('trunk width of 20 to 50 cm (8 to 20 in)');
    expect(sizeRangePhrase('height', 20, 62)).toBe('tree height of 6 to 19 m (20 to 62 ft)');
    expect(assumptionSentence('tree height of 6 to 15 m (20 to 49 ft)')).toBe(
      "We did not know the tree's height, so we priced a typical garden tree, 6 to 15 m (20 to 49 ft); a site visit will confirm it.",
    );
    expect(assumptionSentence('trunk width of 20 to 50 cm (8 to 20 in)')).toMatch(/^We did not know how thick the trunk is/);
  });

  it('reads them back from the estimate\'s factor; one from before these rules keeps its own phrase', () => {
    const factors = ['Method: section fell', `${SITE_ASSUMED_PREFIX}tree height of 6 to 15 m (20 to 49 ft), power lines may be near, fence or shed within falling distance`];
    expect(assumedPhrases(factors)).toEqual(['tree height of 6 to 15 m (20 to 49 ft)', 'power lines may be near', 'fence or shed within falling distance']);
    expect(siteAssumptions(factors)).toEqual(assumedPhrases(factors));
    expect(assumptionSentences(factors)).toEqual([
      "We did not know the tree's height, so we priced a typical garden tree, 6 to 15 m (20 to 49 ft); a site visit will confirm it.",
      CAUTIOUS_SITE.powerLines.sentence,
      'We assumed fence or shed within falling distance.',
    ]);
    expect(assumptionSentences(['Method: straight fell'])).toEqual([]);
  });
});
