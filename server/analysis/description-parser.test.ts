import { describe, expect, it } from 'vitest';
import { parseDescription } from './description-parser';

describe('parseDescription: the issue sentences', () => {
  it('reads the issue example: oak, 30 in trunk, 60 ft, garage, power line', () => {
    const p = parseDescription('oak, about 30 inch trunk, 60 ft, next to the garage, power line overhead');
    expect(p.species?.name).toBe('Oak');
    expect(p.dbhIn).toBe(30);
    expect(p.heightFt).toBe(60);
    expect(p.site).toMatchObject({ targets: 'building', powerLines: true });
  });

  it('"pine 5 inch diameter 90 ft" gives both sizes', () => {
    const p = parseDescription('pine 5 inch diameter 90 ft');
    expect(p).toMatchObject({ dbhIn: 5, heightFt: 90 });
    expect(p.species).toMatchObject({ name: 'Pine', kind: 'conifer' });
  });

  it('"conifer 100 ft tall 50 inch diameter next to house and road": both sizes, a conifer, building and road', () => {
    const p = parseDescription('conifer 100 ft tall 50 inch diameter next to house and road');
    expect(p).toMatchObject({ dbhIn: 50, heightFt: 100 });
    expect(p.species).toMatchObject({ name: 'Conifer', kind: 'conifer' });
    expect(p.targets).toEqual(['building', 'road']);
    // The time model takes one target: the most serious.
    expect(p.site.targets).toBe('building');
  });

  it.each([
    ['90ft tall', { heightFt: 90 }],
    ['height 27 m', { heightFt: 89 }],
    ['2 m girth', { dbhIn: 25 }],
    ['50 inch diameter', { dbhIn: 50 }],
  ])('"%s"', (text, sizes) => {
    expect(parseDescription(text)).toMatchObject(sizes);
  });

  it.each([
    ['the tree is dead', ['dead']],
    ['it looks like it is dying', ['dying']],
    ['ash with ash dieback', ['ash_dieback']],
    ['some decay at the base', ['decay']],
    ['there is fungus on the trunk', ['fungus']],
    ['the trunk is hollow', ['hollow']],
    ['a split in the main stem', ['split']],
    ['storm damage last winter', ['storm_damage']],
    ['leaning towards the house', ['leaning']],
    ['hangs over the road', ['over_road']],
    ['ivy-clad', ['ivy']],
  ])('hazard "%s"', (text, hazards) => {
    expect(parseDescription(text).hazards).toEqual(hazards);
  });

  it('"over the road" puts the road within falling distance', () => {
    expect(parseDescription('big sycamore leaning over the road').targets).toEqual(['road']);
    expect(parseDescription('big sycamore leaning over the road').hazards).toEqual(['leaning', 'over_road']);
  });
});

/** Thirty-odd more, metric and imperial, in the ways people write. */
const SIZES: [string, { dbhIn?: number | null; heightFt?: number | null; crownSpreadFt?: number | null }][] = [
  ['trunk diameter 76 cm, 18 m tall', { dbhIn: 30, heightFt: 59 }],
  ['stem 500mm thick', { dbhIn: 20 }],
  ['about 40 feet high, 2 ft across', { heightFt: 40, dbhIn: 24 }],
  ['height 12 metres', { heightFt: 39 }],
  ['24" trunk', { dbhIn: 24 }],
  ["40' tall birch", { heightFt: 40 }],
  ['girth 2.4 m', { dbhIn: 30 }],
  ['circumference of 150 cm', { dbhIn: 19 }],
  ['15m tall, 40cm diameter', { heightFt: 49, dbhIn: 16 }],
  ['40cm diameter 15m tall', { heightFt: 49, dbhIn: 16 }],
  ['diameter of 60 cm and about 20 metres tall', { dbhIn: 24, heightFt: 66 }],
  ['it is 30 ft tall with a 12 inch trunk', { heightFt: 30, dbhIn: 12 }],
  ['12 inch trunk and 30 ft tall', { heightFt: 30, dbhIn: 12 }],
  ['the trunk is about 40 cm across and it is 10 m high', { dbhIn: 16, heightFt: 33 }],
  ['approx 60-70 ft', { heightFt: 65 }],
  ['10 to 12 m tall', { heightFt: 36 }],
  ['18 inches', { dbhIn: 18 }],
  ['80 feet', { heightFt: 80 }],
  ['6 m', { heightFt: 20 }],
  ['30 ft in height', { heightFt: 30 }],
  ['a 20-inch trunk', { dbhIn: 20 }],
  ['dbh 45cm', { dbhIn: 18 }],
  ['trunk 1.2 m wide, 25 m', { dbhIn: 47, heightFt: 82 }],
  ['canopy spread 30 ft, 45 ft tall', { crownSpreadFt: 30, heightFt: 45 }],
  ['45 ft tall, 30 ft wide crown', { heightFt: 45, crownSpreadFt: 30 }],
  ['ash, 15 m tall, 5 m from the house', { heightFt: 49, dbhIn: null }],
  ['within 3 m of the fence, 8 m tall', { heightFt: 26 }],
  ['around 30 ft, trunk around 10 inches', { heightFt: 30, dbhIn: 10 }],
  ['Height: 22m. Trunk: 55cm.', { heightFt: 72, dbhIn: 22 }],
  ['1.5m girth, 18m high', { dbhIn: 19, heightFt: 59 }],
  ['about 9.5 m, trunk 35.5 cm', { heightFt: 31, dbhIn: 14 }],
  ['two trees in the garden, 20 ft tall', { heightFt: 20, dbhIn: null }],
  ['a tall oak near the shed', { dbhIn: null, heightFt: null }],
];

describe('parseDescription: sizes in any order and unit', () => {
  it.each(SIZES)('"%s"', (text, sizes) => {
    expect(parseDescription(text)).toMatchObject(sizes);
  });

  it('has at least 30 more sentences than the issue', () => {
    expect(SIZES.length).toBeGreaterThanOrEqual(30);
  });

  it('ignores unbelievable sizes and says so', () => {
    const p = parseDescription('9000 ft tall');
    expect(p.heightFt).toBeNull();
    expect(p.factors).toEqual(['Your project details gave a height of 9000 ft, outside 3-230 ft; it was ignored']);
    expect(parseDescription('0.2 inch trunk').dbhIn).toBeNull();
  });

  it('leaves everything empty for no text', () => {
    expect(parseDescription(undefined)).toEqual({
      species: null,
      dbhIn: null,
      heightFt: null,
      crownSpreadFt: null,
      site: {},
      targets: [],
      hazards: [],
      factors: [],
      written: { height: null, diameter: null },
    });
  });

  it('keeps a size as written, one figure in a unit the forms take, so it is printed back so (55 cm, not the 22 in it is stored as)', () => {
    expect(parseDescription('oak, 55 cm trunk, 12.5 m tall').written).toEqual({ height: { value: 12.5, unit: 'm' }, diameter: { value: 55, unit: 'cm' } });
    expect(parseDescription('pine 5 inch diameter 90 ft').written).toEqual({ height: { value: 90, unit: 'ft' }, diameter: { value: 5, unit: 'in' } });
    expect(parseDescription('ash, trunk 550 mm').written.diameter).toEqual({ value: 55, unit: 'cm' });
    // A range is the estimate's middle, a girth is not a diameter, and an unbelievable size was ignored: none was written as such.
    expect(parseDescription('oak, 20-25 cm trunk').written.diameter).toBeNull();
    expect(parseDescription('oak, 2 m girth').written.diameter).toBeNull();
    expect(parseDescription('oak, 9000 cm trunk').written.diameter).toBeNull();
  });
});

describe('parseDescription: species', () => {
  it('knows species names, longest first', () => {
    expect(parseDescription('a big horse chestnut').species?.name).toBe('Horse chestnut');
    expect(parseDescription('Mountain ash in the front').species?.name).toBe('Rowan');
    expect(parseDescription('two silver birches').species?.name).toBe('Silver birch');
    expect(parseDescription('leylandii hedge gone wild').species?.name).toBe('Leyland cypress');
    expect(parseDescription('Scots pine, 60 ft').species).toMatchObject({ name: 'Scots pine', kind: 'conifer' });
    expect(parseDescription('some tree').species).toBeNull();
  });
});

describe('parseDescription: hazards', () => {
  it.each([
    ['dead elm, 40 ft', ['dead']],
    ['the tree has died', ['dead']],
    ['dead branches in the crown', ['deadwood']],
    ['lots of deadwood', ['deadwood']],
    ['the ash has chalara', ['ash_dieback']],
    ['ash die back, dead top', ['ash_dieback', 'dead']],
    ['rotten at the base with bracket fungus', ['decay', 'fungus']],
    ['mushrooms round the roots', ['fungus']],
    ['a big cavity in the trunk', ['hollow']],
    ['cracked stem', ['split']],
    ['damaged in the storm', ['storm_damage']],
    ['half blown over in the gales', ['storm_damage']],
    ['leans badly to the left', ['leaning']],
    ['tilting towards the shed', ['leaning']],
    ['overhanging the pavement', ['over_road']],
    ['covered in ivy', ['ivy']],
    ['dead, hollow and ivy covered, leaning over the road', ['dead', 'hollow', 'leaning', 'over_road', 'ivy']],
  ])('"%s"', (text, hazards) => {
    expect(parseDescription(text).hazards).toEqual(hazards);
  });

  it('does not see a hazard that is denied, or a word that is not one', () => {
    for (const text of [
      'healthy, no sign of decay or fungus',
      'not leaning',
      'no ivy',
      'please split the logs for firewood',
      'a dead end road',
      'the deadline is Friday',
      'without any rot',
      'it is not dead',
    ]) {
      expect(parseDescription(text).hazards, text).toEqual([]);
    }
    expect(parseDescription('it is not dead, but leaning').hazards).toEqual(['leaning']);
  });

  it('ends a denial at its clause when a length follows the hazard', () => {
    // Reading the length's words once left the clause-break pattern past the first comma, so
    // "no decay" reached over it and denied the split too.
    expect(parseDescription('no decay, split trunk, 10 m from the house, nothing else').hazards).toEqual(['split']);
  });
});

describe('parseDescription: site', () => {
  it('reads obstacle, access and extras words', () => {
    expect(parseDescription('overhanging the fence').site.targets).toBe('fence_shed');
    expect(parseDescription('leans over the road').site.targets).toBe('road');
    expect(parseDescription('in the middle of the field').site.targets).toBe('nothing');
    expect(parseDescription('access through the house only').site.access).toBe('through_house');
    expect(parseDescription('back garden, side gate').site.access).toBe('side_gate');
    expect(parseDescription('please grind the stump and take it all away').site).toMatchObject({ stumpGrinding: true, wasteRemoval: true });
    expect(parseDescription('we will keep the logs for firewood').site.wasteRemoval).toBe(false);
    expect(parseDescription('no power lines nearby').site.powerLines).toBe(false);
    expect(parseDescription('telephone wires run through it').site.powerLines).toBe(true);
    expect(parseDescription('40 m carry to the road').site.dragDistance).toBe('long');
  });

  it('names every target, the most serious first', () => {
    expect(parseDescription('between the shed, the road and the house').targets).toEqual(['building', 'road', 'fence_shed']);
    expect(parseDescription('next to the fence and the footpath').targets).toEqual(['road', 'fence_shed']);
    expect(parseDescription('open lawn, nothing nearby').targets).toEqual(['nothing']);
  });
});
