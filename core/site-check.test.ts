import { describe, expect, it } from 'vitest';
import { bookedDays, checkDayOf, distanceKm, mapUrlOf, nearestHospital, siteCheckMissingWords, what3wordsOf } from './site-check';

const LEEDS_SITE = { latitude: 53.819012, longitude: -1.571223 };
const hospitals = [
  { name: 'Bristol Royal Infirmary', postcode: 'BS2 8HW', latitude: 51.4584, longitude: -2.5965 },
  { name: "St James's University Hospital", postcode: 'LS9 7TF', latitude: 53.8076, longitude: -1.5207 },
  { name: 'Leeds General Infirmary', postcode: 'LS1 3EX', latitude: 53.8016, longitude: -1.5522 },
];

describe('distanceKm', () => {
  it('is the great-circle distance: London to Paris about 343.5 km, a place to itself 0', () => {
    expect(distanceKm({ latitude: 51.5074, longitude: -0.1278 }, { latitude: 48.8566, longitude: 2.3522 })).toBeCloseTo(343.5, 0);
    expect(distanceKm(LEEDS_SITE, LEEDS_SITE)).toBe(0);
  });

  it('is the same both ways', () => {
    expect(distanceKm(LEEDS_SITE, hospitals[0]!)).toBeCloseTo(distanceKm(hospitals[0]!, LEEDS_SITE), 9);
  });
});

describe('nearestHospital', () => {
  it('names the nearest of the list in a straight line, in km to one decimal', () => {
    const nearest = nearestHospital(LEEDS_SITE, hospitals);
    expect(nearest).toEqual({ name: 'Leeds General Infirmary', postcode: 'LS1 3EX', distanceKm: Math.round(distanceKm(LEEDS_SITE, hospitals[2]!) * 10) / 10 });
    expect(nearest!.distanceKm).toBeGreaterThan(2);
    expect(nearest!.distanceKm).toBeLessThan(2.6);
    expect(Number.isInteger(nearest!.distanceKm * 10)).toBe(true);
  });

  it('is null without the site position or a hospital; the first of a tie', () => {
    expect(nearestHospital(null, hospitals)).toBeNull();
    expect(nearestHospital(LEEDS_SITE, [])).toBeNull();
    const twin = { ...hospitals[2]!, name: 'Twin' };
    expect(nearestHospital(LEEDS_SITE, [hospitals[2]!, twin])?.name).toBe('Leeds General Infirmary');
  });
});

describe('the map link and what3words', () => {
  it('points OpenStreetMap at the site, zoomed to the street', () => {
    expect(mapUrlOf(LEEDS_SITE)).toBe('https://www.openstreetmap.org/?mlat=53.819012&mlon=-1.571223#map=18/53.819012/-1.571223');
    expect(mapUrlOf(null)).toBeNull();
  });

  it('writes what3words with its slashes, lower case', () => {
    expect(what3wordsOf('filled.count.soap')).toBe('///filled.count.soap');
    expect(what3wordsOf(' ///Filled.Count.Soap ')).toBe('///filled.count.soap');
  });
});

describe('the day a check is for', () => {
  const booking = { date: '2026-06-02', days: 3 };
  it('lists the booked days', () => {
    expect(bookedDays(booking)).toEqual(['2026-06-02', '2026-06-03', '2026-06-04']);
    expect(bookedDays({ date: '2026-06-02', days: 1 })).toEqual(['2026-06-02']);
  });

  it('is today on a booked day, else the next booked day, else the last', () => {
    expect(checkDayOf(booking, '2026-06-03')).toBe('2026-06-03');
    expect(checkDayOf(booking, '2026-06-01')).toBe('2026-06-02');
    expect(checkDayOf(booking, '2026-06-20')).toBe('2026-06-04');
  });
});

describe('what a check lacks', () => {
  it('is everything with no check, the signatures until two people signed, nothing after', () => {
    expect(siteCheckMissingWords(false, 0)).toEqual(['The hazards are not answered yet.', 'The emergency plan is not given yet.', 'No one has signed yet: at least 2 people on site sign.']);
    expect(siteCheckMissingWords(true, 1)).toEqual(['Signed by 1 person: at least 2 people on site sign.']);
    expect(siteCheckMissingWords(true, 2)).toEqual([]);
    expect(siteCheckMissingWords(true, 3)).toEqual([]);
  });
});
