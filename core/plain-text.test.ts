import { describe, expect, it } from 'vitest';
import { plainLine } from './plain-text';

describe('plainLine', () => {
  it('turns every line break into a space: C0, NEL, the line and paragraph separators', () => {
    expect(plainLine('Jo\nSmith\r\nJr\tX\u0085Y\u2028Z\u2029End')).toBe('Jo Smith Jr X Y Z End');
  });

  it('drops the other controls and the bidi marks, overrides and isolates', () => {
    const bidi = '\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';
    expect(plainLine(`A\u0000\u007f\u0080\u009fB${bidi}C`)).toBe('ABC');
  });

  it('keeps names in every script, accents and spaces as typed', () => {
    for (const name of ['Zoë Ó Briain', 'محمد الأحمد', 'יעל כהן', '李小龍', 'Anne-Marie O\'Neil']) expect(plainLine(name)).toBe(name);
  });
});
