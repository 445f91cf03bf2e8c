import { describe, expect, it } from 'vitest';
import {
  coversPostcode,
  MAX_SERVICE_DISTRICTS,
  normaliseDistrict,
  outsideAreaMessage,
  parseDistricts,
  parsePostcode,
  POSTCODE_INVALID,
  POSTCODE_REQUIRED,
  postcodeProblem,
  TOO_MANY_DISTRICTS,
} from './postcode';
import { cpuMs, leastCpuMs } from '../testing/cpu-time';

describe('parsePostcode', () => {
  it('takes every UK format in any case and spacing, and writes it the one way', () => {
    const cases: [string, string, string, string][] = [
      ['sw1a1aa', 'SW1A 1AA', 'SW1A', 'SW'], // AA9A 9AA
      ['  Sw1A   1aA ', 'SW1A 1AA', 'SW1A', 'SW'],
      ['m1 1ae', 'M1 1AE', 'M1', 'M'], // A9 9AA
      ['B338TH', 'B33 8TH', 'B33', 'B'], // A99 9AA
      ['cr2 6xh', 'CR2 6XH', 'CR2', 'CR'], // AA9 9AA
      ['DN55 1PT', 'DN55 1PT', 'DN55', 'DN'], // AA99 9AA
      ['w1a 0ax', 'W1A 0AX', 'W1A', 'W'], // A9A 9AA
      ['EC1A 1BB', 'EC1A 1BB', 'EC1A', 'EC'], // AA9A 9AA
      ['ls6 2ab', 'LS6 2AB', 'LS6', 'LS'],
      ['gir0aa', 'GIR 0AA', 'GIR', 'GIR'],
      ['LS6\t2AB', 'LS6 2AB', 'LS6', 'LS'],
    ];
    for (const [typed, postcode, district, area] of cases) {
      expect(parsePostcode(typed), typed).toEqual({ postcode, district, area });
    }
  });

  it('refuses what is not a UK postcode', () => {
    const bad = [
      '',
      '   ',
      'LS6', // the district alone
      'LS6 2A',
      'LS6 2ABC',
      'LS6 CAB', // the inward code starts with a digit
      'LS6 2CI', // inward letters never C, I, K, M, O or V
      'LS6 2AK',
      'LS6 2MO',
      'LS6 2AV',
      'QA1 1AA', // first letter never Q, V or X
      'VA1 1AA',
      'XA1 1AA',
      'AI1 1AA', // second letter never I, J or Z
      'AJ1 1AA',
      'AZ1 1AA',
      'W1I 1AA', // A9A: the third letter is one of A B C D E F G H J K P S T U W
      'EC1C 1BB', // AA9A: the fourth is one of A B E H M N P R V W X Y
      'ABC1 1AA',
      'LS123 2AB',
      '12 3AB',
      'LS-6 2AB',
      'LS6 2AB;DROP TABLE',
      'ＬＳ６ ２ＡＢ', // full-width look-alikes
      'ls6 2ab\u0000',
      'lѕ6 2ab', // a Cyrillic s
      'ıp1 1aa', // a dotless i that upper-cases to I
      'GIR 0AB',
    ];
    for (const text of bad) expect(parsePostcode(text), text).toBeNull();
  });

  it('refuses hostile input at once', () => {
    // CPU time, not the wall clock (testing/cpu-time.ts).
    const cpu = cpuMs(() => {
      expect(parsePostcode('LS6 2AB'.repeat(150_000))).toBeNull();
      expect(parsePostcode(' '.repeat(1_000_000))).toBeNull();
      expect(parsePostcode('\u{1F333}'.repeat(100_000))).toBeNull();
      expect(parsePostcode(undefined as unknown as string)).toBeNull();
    });
    expect(cpu).toBeLessThan(200);
  });

  it('says what is wrong in the words the widget and the server share', () => {
    expect(postcodeProblem('')).toBe(POSTCODE_REQUIRED);
    expect(postcodeProblem('  ')).toBe(POSTCODE_REQUIRED);
    expect(postcodeProblem('LS6')).toBe(POSTCODE_INVALID);
    expect(postcodeProblem('ls62ab')).toBeNull();
    expect(POSTCODE_REQUIRED).toBe('Enter your postcode, e.g. LS6 2AB');
  });
});

describe('the districts a business covers', () => {
  it('takes districts and areas separated by commas, spaces or lines, normalised and once each', () => {
    expect(parseDistricts('LS1, LS2, LS6, BD')).toEqual({ districts: ['LS1', 'LS2', 'LS6', 'BD'] });
    expect(parseDistricts(' ls1\nls2\r\n\tbd ;w1a,,ls1, LS1 ')).toEqual({ districts: ['LS1', 'LS2', 'BD', 'W1A'] });
    expect(parseDistricts(['ls6', 'BD', 'sw1a'])).toEqual({ districts: ['LS6', 'BD', 'SW1A'] });
    expect(parseDistricts('')).toEqual({ districts: [] });
    expect(parseDistricts([])).toEqual({ districts: [] });
    expect(parseDistricts(['  '])).toEqual({ districts: [] });
  });

  it('names the first entry that is not a district or an area', () => {
    expect(parseDistricts('LS1, LS6 2AB')).toEqual({ error: '"2AB" is not a postcode district or area: use e.g. LS6 or BD' });
    expect(parseDistricts(['LS1', 'Leeds'])).toEqual({ error: '"Leeds" is not a postcode district or area: use e.g. LS6 or BD' });
    expect(parseDistricts('Q1')).toHaveProperty('error');
    expect(parseDistricts('EC1C')).toHaveProperty('error'); // AA9A's last letter is one of A B E H M N P R V W X Y
  });

  it(`keeps to ${MAX_SERVICE_DISTRICTS} districts and refuses hostile lists quickly`, () => {
    const codes = Array.from({ length: 99 }, (_, i) => `LS${i + 1}`).concat(Array.from({ length: 99 }, (_, i) => `BD${i + 1}`));
    expect(parseDistricts([...codes, 'M1', 'M2'])).toEqual({ districts: [...codes, 'M1', 'M2'] });
    expect(parseDistricts([...codes, 'M1', 'M2', 'M3'])).toEqual({ error: TOO_MANY_DISTRICTS });
    // CPU time, not wall time (a busy box stretches the second, not the work), against a baseline
    // from this run: a hundred reads of the longest list allowed. Each hostile list is 10,000
    // entries or a megabyte; read in one pass they cost about half the baseline, a quadratic
    // read thousands of times more.
    // Each the least of three runs: a collection landing in one run only adds to it.
    const baseline = leastCpuMs(() => {
      for (let i = 0; i < 100; i += 1) parseDistricts([...codes, 'M1', 'M2']);
    });
    // The lists are made before the clock starts: what is measured is the reading, not the
    // allocation of a megabyte of input (which on Node 24 pushed a linear read past the bound).
    const tenThousand = Array.from({ length: 10_000 }, (_, i) => `LS${(i % 99) + 1}`);
    const tenThousandJoined = Array.from({ length: 10_000 }, (_, i) => `BD${i}`).join(',');
    const megabyte = 'x'.repeat(1_000_000);
    const trees = '\u{1F333},'.repeat(100_000);
    let answers: unknown[] = [];
    const hostile = leastCpuMs(() => {
      answers = [parseDistricts(tenThousand), parseDistricts(tenThousandJoined), parseDistricts(megabyte), parseDistricts(trees)];
    });
    // Repeats are one entry each: 10,000 of 99 districts is a list of 99.
    expect(answers[0]).toEqual({ districts: codes.slice(0, 99) });
    expect(answers[1]).toEqual({ error: '"BD100" is not a postcode district or area: use e.g. LS6 or BD' });
    expect(answers[2]).toHaveProperty('error');
    expect(answers[3]).toHaveProperty('error');
    expect(hostile).toBeLessThan(baseline * 5);
    expect((parseDistricts(['x'.repeat(5000)]) as { error: string }).error.length).toBeLessThan(80);
  });

  it('normalises one entry', () => {
    expect(normaliseDistrict(' ls 6 ')).toBe('LS6');
    expect(normaliseDistrict('bd')).toBe('BD');
    expect(normaliseDistrict('b')).toBe('B');
    expect(normaliseDistrict('gir')).toBe('GIR');
    expect(normaliseDistrict('LSX')).toBeNull();
    expect(normaliseDistrict('é')).toBeNull();
  });
});

describe('coversPostcode', () => {
  it('an empty list covers everywhere', () => {
    expect(coversPostcode([], 'LS6 2AB')).toBe(true);
    expect(coversPostcode([], 'TR1 1AA')).toBe(true);
  });

  it('a district covers its own postcodes and its lettered parts, no more', () => {
    expect(coversPostcode(['LS1', 'LS6'], 'ls6 2ab')).toBe(true);
    expect(coversPostcode(['LS1', 'LS6'], 'LS16 5AB')).toBe(false);
    expect(coversPostcode(['LS1', 'LS6'], 'LS2 7AB')).toBe(false);
    expect(coversPostcode(['W1'], 'W1A 0AX')).toBe(true);
    expect(coversPostcode(['EC1'], 'EC1A 1BB')).toBe(true);
    expect(coversPostcode(['EC1A'], 'EC1M 1BB')).toBe(false);
  });

  it('an area covers each of its districts, and not another area that begins with its letter', () => {
    for (let n = 1; n <= 99; n += 1) expect(coversPostcode(['BD'], `BD${n} 1AB`), `BD${n}`).toBe(true);
    expect(coversPostcode(['B'], 'BD1 1AB')).toBe(false);
    expect(coversPostcode(['B'], 'B33 8TH')).toBe(true);
    expect(coversPostcode(['BD'], 'B33 8TH')).toBe(false);
  });

  it('a postcode that is not one is never covered by a list', () => {
    expect(coversPostcode(['LS'], 'LS6')).toBe(false);
  });

  it('tells the visitor in plain words', () => {
    expect(outsideAreaMessage('Oak and Ash', 'TR1')).toBe('Oak and Ash may not cover TR1. Your request has been sent, and they will let you know.');
  });
});
