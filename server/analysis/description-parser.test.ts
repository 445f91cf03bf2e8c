import { describe, expect, it } from 'vitest';
import { parseDescription } from './description-parser';

describe('parseDescription', () => {
  it('reads the issue example: oak, 30 in trunk, 60 ft, garage, power line', () => {
    const p = parseDescription('oak, about 30 inch trunk, 60 ft, next to the garage, power line overhead');
    expect(p.species?.name).toBe('Oak');
    expect(p.dbhIn).toBe(30);
    expect(p.heightFt).toBe(60);
    expect(p.site).toMatchObject({ targets: 'building', powerLines: true });
  });

  it('knows species names, longest first', () => {
    expect(parseDescription('a big horse chestnut').species?.name).toBe('Horse chestnut');
    expect(parseDescription('Mountain ash in the front').species?.name).toBe('Rowan');
    expect(parseDescription('two silver birches').species?.name).toBe('Silver birch');
    expect(parseDescription('leylandii hedge gone wild').species?.name).toBe('Leyland cypress');
    expect(parseDescription('some tree').species).toBeNull();
  });

  it('converts centimetres, millimetres, metres and feet', () => {
    expect(parseDescription('trunk diameter 76 cm, 18 m tall')).toMatchObject({ dbhIn: 30, heightFt: 59 });
    expect(parseDescription('stem 500mm thick')).toMatchObject({ dbhIn: 20 });
    expect(parseDescription('about 40 feet high, 2 ft across')).toMatchObject({ heightFt: 40, dbhIn: 24 });
    expect(parseDescription('height 12 metres')).toMatchObject({ heightFt: 39 });
    expect(parseDescription('24" trunk')).toMatchObject({ dbhIn: 24 });
  });

  it('turns a girth into a diameter', () => {
    expect(parseDescription('girth 2.4 m').dbhIn).toBe(30);
  });

  it('ignores distances from things', () => {
    const p = parseDescription('ash, 15 m tall, 5 m from the house');
    expect(p.heightFt).toBe(49);
    expect(p.site.targets).toBe('building');
  });

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

  it('leaves sizes null without numbers and refuses nonsense', () => {
    expect(parseDescription('a tall oak near the shed')).toMatchObject({ dbhIn: null, heightFt: null });
    expect(parseDescription('9000 ft tall').heightFt).toBeNull();
    expect(parseDescription(undefined)).toEqual({ species: null, dbhIn: null, heightFt: null, site: {} });
  });
});
