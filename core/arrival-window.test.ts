import { describe, expect, it } from 'vitest';
import { arrivalWindow, arrivalWindows } from './arrival-window';

describe('arrivalWindow', () => {
  it('is null for the first job of the day', () => {
    expect(arrivalWindow('08:00', [], 2)).toBeNull();
  });

  it('adds the earlier jobs on the clock: person-minutes over the members, rounded out to the quarter hour', () => {
    // 360 to 540 person-minutes for a crew of two: 3 to 4.5 hours on the clock.
    expect(arrivalWindow('08:00', [{ min: 360, max: 540 }], 2)).toEqual({ from: '11:00', to: '12:30' });
    // 130 to 170 for one person: 10:10 to 10:50, rounded out to 10:00 and 11:00.
    expect(arrivalWindow('08:00', [{ min: 130, max: 170 }], 1)).toEqual({ from: '10:00', to: '11:00' });
  });

  it('sums every earlier job', () => {
    expect(arrivalWindow('07:30', [{ min: 60, max: 90 }, { min: 120, max: 150 }], 3)).toEqual({ from: '08:30', to: '09:00' });
  });

  it('is a quarter hour wide at least, and never runs past the day', () => {
    expect(arrivalWindow('08:00', [{ min: 120, max: 120 }], 1)).toEqual({ from: '10:00', to: '10:15' });
    expect(arrivalWindow('20:00', [{ min: 600, max: 900 }], 1)).toEqual({ from: '23:45', to: '23:59' });
  });

  it('takes a crew with nobody in it as one person, and a range written backwards as its ends', () => {
    expect(arrivalWindow('08:00', [{ min: 90, max: 60 }], 0)).toEqual({ from: '09:00', to: '09:30' });
  });

  it('is null after a job with no time estimate: when the crew gets there is not known', () => {
    expect(arrivalWindow('08:00', [{ min: 0, max: 0 }], 2)).toBeNull();
    expect(arrivalWindow('08:00', [{ min: 60, max: 90 }, { min: 0, max: 0 }], 2)).toBeNull();
  });

  it('is null for a start that is not a time', () => {
    expect(arrivalWindow('8am', [{ min: 60, max: 90 }], 1)).toBeNull();
  });

  it('gives each job of a day its window', () => {
    expect(arrivalWindows('08:00', [{ min: 120, max: 180 }, { min: 60, max: 60 }, { min: 30, max: 30 }], 2)).toEqual([
      null,
      { from: '09:00', to: '09:30' },
      { from: '09:30', to: '10:00' },
    ]);
  });
});
