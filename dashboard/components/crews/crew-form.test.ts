import { describe, expect, it } from 'vitest';
import { CREW_MESSAGES, type Crew } from '../../../core/crews';
import { SCHEDULE_SETTINGS_MESSAGES } from '../../../core/settings';
import { checkCrew, climbingLimitOf, colourLabel, crewBodyOf, crewDraftOf, hourDayWords, kitWords, newKit, windHint } from './crew-form';

const crew: Crew = {
  id: 3,
  name: 'Blue crew',
  colour: '#1d4ed8',
  dayHours: 7.5,
  equipment: [
    { name: 'Niftylift HR21', kind: 'mewp', windLimitMs: 12.5 },
    { name: 'Spider lift', kind: 'mewp', windLimitMs: 10 },
    { name: 'Timberwolf', kind: 'chipper', windLimitMs: null },
  ],
  members: [{ id: 12, name: 'Sam Field', role: 'crew' }],
  capacityMinutes: 450,
};

describe('the crew form', () => {
  it("starts from the crew, a MEWP's default limit left to the default", () => {
    const draft = crewDraftOf(crew);
    expect(draft).toMatchObject({ name: 'Blue crew', colour: '#1d4ed8', memberIds: [12], dayHours: '7.5' });
    expect(draft.kit.map((k) => [k.name, k.kind, k.windLimit])).toEqual([
      ['Niftylift HR21', 'mewp', ''],
      ['Spider lift', 'mewp', '10'],
      ['Timberwolf', 'chipper', ''],
    ]);
    expect(crewBodyOf(draft)).toEqual({
      name: 'Blue crew',
      colour: '#1d4ed8',
      memberIds: [12],
      dayHours: 7.5,
      equipment: [
        { name: 'Niftylift HR21', kind: 'mewp' },
        { name: 'Spider lift', kind: 'mewp', windLimitMs: 10 },
        { name: 'Timberwolf', kind: 'chipper' },
      ],
    });
  });

  it('starts a new crew at an 8-hour day with no colour', () => {
    expect(crewBodyOf(crewDraftOf(null))).toEqual({ name: '', colour: null, memberIds: [], dayHours: 8, equipment: [] });
  });

  it("puts the server's messages on the fields they name", () => {
    const draft = { ...crewDraftOf(null), dayHours: '7.3', kit: [{ ...newKit(), name: 'Lift', kind: 'mewp' as const, windLimit: '99' }, { ...newKit(), name: '' }] };
    const result = checkCrew(draft);
    expect('errors' in result && result.errors).toEqual({
      name: CREW_MESSAGES.name,
      memberIds: CREW_MESSAGES.members,
      dayHours: CREW_MESSAGES.dayHours,
      'equipment.0.windLimitMs': CREW_MESSAGES.windLimit,
      'equipment.1.name': CREW_MESSAGES.equipmentName,
    });
    // Text that is no number goes as typed, so the check says what is wrong with it.
    const words = checkCrew({ ...crewDraftOf(crew), dayHours: 'eight' });
    expect('errors' in words && words.errors).toEqual({ dayHours: CREW_MESSAGES.dayHours });
    expect(checkCrew(crewDraftOf(crew))).toHaveProperty('body');
  });

  it('says colours, kit and wind limits in words', () => {
    expect(colourLabel('#1D4ED8')).toBe('Blue');
    expect(colourLabel(null)).toBe('No colour');
    expect(colourLabel('#123456')).toBe('Colour #123456');
    expect(windHint('mewp')).toBe('12.5 m/s unless set');
    expect(kitWords(crew.equipment[0]!)).toBe('Niftylift HR21 (MEWP, wind limit 12.5 m/s, 28 mph)');
    expect(kitWords(crew.equipment[2]!)).toBe('Timberwolf (Chipper)');
    expect(hourDayWords(8)).toBe('an 8-hour day');
    expect(hourDayWords(8.5)).toBe('an 8.5-hour day');
    expect(hourDayWords(11)).toBe('an 11-hour day');
    expect(hourDayWords(7.5)).toBe('a 7.5-hour day');
    expect(hourDayWords(1)).toBe('a 1-hour day');
  });
});

describe('the climbing wind limit as typed', () => {
  it('takes 1 to 40 m/s to one decimal, and says so otherwise', () => {
    expect(climbingLimitOf('10.7')).toBe(10.7);
    expect(climbingLimitOf(' 12.46 ')).toBe(12.5);
    for (const bad of ['', 'windy', '0.5', '41', 'Infinity', '1e3']) expect(climbingLimitOf(bad), bad).toBe(SCHEDULE_SETTINGS_MESSAGES.climbingWindLimit);
  });
});
