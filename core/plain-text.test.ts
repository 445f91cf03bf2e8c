import { describe, expect, it } from 'vitest';
import { plainLine, plainText } from './plain-text';

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

describe('plainText', () => {
  const bidi = '\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';

  it('keeps lines and tabs, every break written as \\n', () => {
    expect(plainText('Gate code:\t1234\r\nBack gate\rSide\u0085A\u2028B\u2029C\nD')).toBe('Gate code:\t1234\nBack gate\nSide\nA\nB\nC\nD');
  });

  it('drops every other control and the bidi controls', () => {
    expect(plainText(`A\u0000B\u000bC\u000cD\u001bE\u007fF\u0080\u009fG${bidi}H`)).toBe('ABCDEFGH');
    expect(plainText('Invoice \u202egpj.exe')).toBe('Invoice gpj.exe');
  });

  it('keeps words in every script, and spaces as typed', () => {
    for (const text of ['  Zoë Ó Briain  ', 'محمد الأحمد', 'יעל כהן\nשורה', '李小龍', '£600 — “fell”']) expect(plainText(text)).toBe(text);
  });
});
