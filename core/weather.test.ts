import { describe, expect, it } from 'vitest';
import { crewDayWeather, siteDayFigures, ukInstant, weatherCredit, windWarning, workingWindow, type ForecastPoint } from './weather';

const HOUR = 3_600_000;
const at = (text: string) => Date.parse(text);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Hourly steps from `from` for `hours`, each with next_1_hours and next_6_hours, gust and rain from the step's UTC hour. */
function hourly(from: string, hours: number, gust: (hourUtc: number) => number, rain: (hourUtc: number) => number = () => 0): ForecastPoint[] {
  return Array.from({ length: hours }, (_, i) => {
    const time = at(from) + i * HOUR;
    const h = new Date(time).getUTCHours();
    return { time: iso(time), gustMs: gust(h), windMs: 3, rain1hMm: rain(h), rain6hMm: rain(h) * 6 };
  });
}

describe('ukInstant and workingWindow', () => {
  it('reads the UK clock: BST in summer, GMT in winter, either side of the clock changes', () => {
    expect(iso(ukInstant('2026-06-15', 8 * 60))).toBe('2026-06-15T07:00:00Z');
    expect(iso(ukInstant('2026-12-07', 8 * 60))).toBe('2026-12-07T08:00:00Z');
    // The clocks go forward at 01:00 UTC on 29 March 2026 and back at 01:00 UTC on 25 October.
    expect(iso(ukInstant('2026-03-28', 8 * 60))).toBe('2026-03-28T08:00:00Z');
    expect(iso(ukInstant('2026-03-29', 8 * 60))).toBe('2026-03-29T07:00:00Z');
    expect(iso(ukInstant('2026-10-24', 8 * 60))).toBe('2026-10-24T07:00:00Z');
    expect(iso(ukInstant('2026-10-25', 8 * 60))).toBe('2026-10-25T08:00:00Z');
  });

  it('is 08:00 to 17:00 UK time unless the booking gives its start and the crew its day', () => {
    const summer = workingWindow('2026-06-15');
    expect([iso(summer.start), iso(summer.end)]).toEqual(['2026-06-15T07:00:00Z', '2026-06-15T16:00:00Z']);
    const winter = workingWindow('2026-12-07', '07:30', 8 * 60);
    expect([iso(winter.start), iso(winter.end)]).toEqual(['2026-12-07T07:30:00Z', '2026-12-07T15:30:00Z']);
  });
});

describe('siteDayFigures', () => {
  it('takes the highest gust and sums the rain over the working hours of a BST day only', () => {
    // Gusts of 20 m/s at 06:00 UTC (07:00 BST, before work) and 16:00 UTC (17:00 BST, after it); 13 at 12:00 UTC.
    const series = hourly('2026-06-15T00:00:00Z', 48, (h) => (h === 6 || h === 16 ? 20 : h === 12 ? 13 : 5), (h) => (h >= 7 && h < 16 ? 0.5 : 2));
    expect(siteDayFigures(series, workingWindow('2026-06-15'))).toEqual({ gustMs: 13, rainMm: 4.5 });
  });

  it('on a GMT day the same hours of the UK clock are an hour later in UTC', () => {
    const series = hourly('2026-12-07T00:00:00Z', 48, (h) => (h === 7 ? 20 : h === 16 ? 17 : 5), (h) => (h === 7 ? 3 : h === 16 ? 1 : 0));
    // 08:00 to 17:00 GMT is 08:00 to 17:00 UTC: the 07:00 UTC gust and rain are before work, the 16:00 ones in it.
    expect(siteDayFigures(series, workingWindow('2026-12-07'))).toEqual({ gustMs: 17, rainMm: 1 });
  });

  it('counts part hours in part', () => {
    const series = hourly('2026-12-07T00:00:00Z', 48, () => 5, () => 1);
    expect(siteDayFigures(series, workingWindow('2026-12-07', '08:30', 120))).toEqual({ gustMs: 5, rainMm: 2 });
  });

  it('spreads next_6_hours over its hours where the steps are six hours apart', () => {
    const series: ForecastPoint[] = [
      { time: '2026-06-20T06:00:00Z', gustMs: 9, windMs: 4, rain6hMm: 6 },
      { time: '2026-06-20T12:00:00Z', gustMs: 11, windMs: 5, rain6hMm: 12 },
      { time: '2026-06-20T18:00:00Z', gustMs: 25, windMs: 9, rain6hMm: 0 },
      { time: '2026-06-21T00:00:00Z', gustMs: 3 },
    ];
    // 07:00 to 16:00 UTC: five hours of the 06:00 period (1 mm an hour), four of the 12:00 one (2 mm an hour); the only step inside is 12:00.
    expect(siteDayFigures(series, workingWindow('2026-06-20'))).toEqual({ gustMs: 11, rainMm: 13 });
    // Two hours with no step inside: the steps either side.
    expect(siteDayFigures(series, workingWindow('2026-06-20', '14:00', 120))).toEqual({ gustMs: 25, rainMm: 4 });
  });

  it('takes the wind speed where a step has no gust', () => {
    const series = hourly('2026-12-07T00:00:00Z', 48, () => 5).map((p) => ({ time: p.time, windMs: 7, rain1hMm: 0 }));
    expect(siteDayFigures(series, workingWindow('2026-12-07'))?.gustMs).toBe(7);
  });

  it('gives nothing for a day beyond the forecast\'s reach, or a day already past', () => {
    const series = hourly('2026-12-07T00:00:00Z', 24, () => 5);
    expect(siteDayFigures(series, workingWindow('2026-12-08'))).toBeUndefined();
    expect(siteDayFigures(series, workingWindow('2026-12-06'))).toBeUndefined();
    expect(siteDayFigures([], workingWindow('2026-12-07'))).toBeUndefined();
    // Today from 11:00: the hours left are counted.
    const late = hourly('2026-12-07T11:00:00Z', 24, (h) => (h === 9 ? 30 : 6), () => 1);
    expect(siteDayFigures(late, workingWindow('2026-12-07'))).toEqual({ gustMs: 6, rainMm: 6 });
  });
});

describe('windWarning', () => {
  const mewp = { name: 'Niftylift HR21', kind: 'mewp' as const };

  it('names the lowest limit of the kit and the climbing limit, in the board\'s words', () => {
    expect(windWarning(15, [mewp, { name: 'Chipper', kind: 'chipper' }], 10.7)).toBe("Gusts to 15 m/s (34 mph) forecast; your MEWP's limit is 12.5 m/s; the climbing limit is 10.7 m/s");
    expect(windWarning(15, [mewp], null)).toBe("Gusts to 15 m/s (34 mph) forecast; your MEWP's limit is 12.5 m/s");
  });

  it('names only the climbing limit when the kit holds', () => {
    expect(windWarning(11.04, [mewp], 10.7)).toBe('Gusts to 11 m/s (25 mph) forecast; the climbing limit is 10.7 m/s');
  });

  it('takes the lowest limit among the kit, by its kind or its own name', () => {
    const kit = [mewp, { name: 'Stumpy', kind: 'stump_grinder' as const, windLimitMs: 12 }, { name: 'Hiab', kind: 'other' as const, windLimitMs: 9.5 }];
    expect(windWarning(10, kit, 10.7)).toBe("Gusts to 10 m/s (22 mph) forecast; your Hiab's limit is 9.5 m/s");
    expect(windWarning(12.4, kit.slice(0, 2), 15)).toBe("Gusts to 12.4 m/s (28 mph) forecast; your stump grinder's limit is 12 m/s");
    expect(windWarning(13, [{ name: 'Crane', kind: 'crane', windLimitMs: 12.9 }, { name: 'Chip', kind: 'chipper', windLimitMs: 20 }], null)).toBe("Gusts to 13 m/s (29 mph) forecast; your crane's limit is 12.9 m/s");
  });

  it('says nothing at or under the limits, or with no limits', () => {
    expect(windWarning(12.5, [mewp], 12.5)).toBeUndefined();
    expect(windWarning(30, [{ name: 'Chipper', kind: 'chipper' }], null)).toBeUndefined();
  });
});

describe('crewDayWeather', () => {
  it('takes the highest gust and the most rain among the day\'s sites, and warns against the kit', () => {
    const day = crewDayWeather([{ gustMs: 9, rainMm: 4 }, undefined, { gustMs: 14, rainMm: 1.5 }], [{ name: 'MEWP', kind: 'mewp' }], 10.7);
    expect(day).toEqual({ gustMs: 14, rainMm: 4, warning: "Gusts to 14 m/s (31 mph) forecast; your MEWP's limit is 12.5 m/s; the climbing limit is 10.7 m/s" });
    expect(crewDayWeather([{ gustMs: 6, rainMm: 0 }], [], 10.7)).toEqual({ gustMs: 6, rainMm: 0 });
    expect(crewDayWeather([undefined], [], 10.7)).toBeUndefined();
  });

  it('credits MET Norway under CC BY 4.0', () => {
    expect(weatherCredit).toMatch(/MET Norway.*CC BY 4\.0/);
  });
});
