import { describe, expect, it } from 'vitest';
import { DIAMETER_BANDS, HEIGHT_BANDS, SITE_QUESTIONS } from './questions';
import { NOT_SURE, treeAnswers, visitorAnswers } from './visitor-answers';

const none = { species: null, heightFt: null, dbhIn: null, sources: null };

describe('treeAnswers', () => {
  it('reads a chosen band back from the middle value the analysis stored', () => {
    const answers = treeAnswers({
      species: 'Oak',
      heightFt: HEIGHT_BANDS.about_two_storey.feet,
      dbhIn: DIAMETER_BANDS.thicker_than_plate.inches,
      sources: { species: 'user', height: 'band', diameter: 'band' },
    });
    expect(answers).toEqual([
      { question: 'What kind of tree is it?', answer: 'Oak' },
      { question: 'How tall is the tree?', answer: HEIGHT_BANDS.about_two_storey.label },
      { question: 'How thick is the trunk?', answer: DIAMETER_BANDS.thicker_than_plate.label },
    ]);
  });

  it('gives typed and measured sizes in both units, and says how the visitor gave them', () => {
    const answers = treeAnswers({ species: 'Birch', heightFt: 40, dbhIn: 16, sources: { species: 'user', height: 'user', diameter: 'measured' }, units: 'imperial' });
    expect(answers.map((a) => a.answer)).toEqual(['Birch', '40 ft (12 m), typed in', '16 in (41 cm), measured on the photo']);
  });

  it("gives sizes in the business's units, and as typed: a metric visitor's 12 m and 40 cm read back so", () => {
    const sources = { species: 'user', height: 'user', diameter: 'user' } as const;
    const metric = treeAnswers({ species: 'Birch', heightFt: 39, dbhIn: 16, sources, units: 'metric', enteredSizes: { height: { value: 12, unit: 'm' }, diameter: { value: 40, unit: 'cm' } } });
    expect(metric.map((a) => a.answer)).toEqual(['Birch', '12 m (39 ft), typed in', '40 cm (16 in), typed in']);
    // No units stored (an older analysis): metric, the default.
    expect(treeAnswers({ species: 'Birch', heightFt: 40, dbhIn: 16, sources })[1]!.answer).toBe('12 m (40 ft), typed in');
  });

  it('says "Not sure" for a species the visitor did not name, and leaves out sizes they did not give', () => {
    // The species and sizes came from the photo or the description: not the visitor's answers.
    expect(treeAnswers({ species: 'Oak', heightFt: 45, dbhIn: 18, sources: { species: 'model', height: 'model', diameter: 'description' } })).toEqual([
      { question: 'What kind of tree is it?', answer: NOT_SURE },
    ]);
    expect(treeAnswers({ species: null, heightFt: 30, dbhIn: 12, sources: { species: null, height: 'assumed', diameter: 'assumed' } })).toEqual([
      { question: 'What kind of tree is it?', answer: NOT_SURE },
    ]);
    expect(treeAnswers(none)).toEqual([{ question: 'What kind of tree is it?', answer: NOT_SURE }]);
  });

  it('still says the size when a band no longer matches the stored value', () => {
    expect(treeAnswers({ ...none, heightFt: 25, sources: { species: null, height: 'band', diameter: 'assumed' }, units: 'imperial' })[1]).toEqual({
      question: 'How tall is the tree?',
      answer: 'About 25 ft (7.5 m), a size chosen',
    });
  });
});

describe('visitorAnswers', () => {
  it('puts the tree answers first, then each site question answered, in the order asked', () => {
    const answers = visitorAnswers(none, { wasteRemoval: false, targets: 'building', powerLines: true, stumpGrinding: true });
    expect(answers).toEqual([
      { question: 'What kind of tree is it?', answer: NOT_SURE },
      { question: SITE_QUESTIONS[0]!.question, answer: 'Building' },
      { question: 'Are there power lines near the tree?', answer: 'Yes' },
      { question: 'Grind out the stump too?', answer: 'Yes' },
      { question: 'Take the wood and waste away?', answer: 'No' },
    ]);
    expect(visitorAnswers(none, null)).toHaveLength(1);
  });
});
