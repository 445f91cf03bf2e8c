import { describe, expect, it } from 'vitest';
import { accentPalette, contrastRatio, DEFAULT_ACCENT, relativeLuminance } from './accent';

describe('contrast', () => {
  it('matches the WCAG reference values', () => {
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 5);
    expect(relativeLuminance('#000000')).toBe(0);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    // #767676 is the classic lightest grey that passes 4.5:1 on white.
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
  });
});

describe('accentPalette', () => {
  it('uses the default green with white text when the business has no colour', () => {
    expect(accentPalette(null)).toEqual({ accent: DEFAULT_ACCENT, onAccent: '#ffffff', accentVisible: DEFAULT_ACCENT });
  });

  it('falls back to the default for anything but #rrggbb', () => {
    expect(accentPalette('red').accent).toBe(DEFAULT_ACCENT);
    expect(accentPalette('#fff').accent).toBe(DEFAULT_ACCENT);
    expect(accentPalette('#12345g').accent).toBe(DEFAULT_ACCENT);
  });

  it('puts near-black text on a light accent and keeps the ring visible on white', () => {
    const yellow = accentPalette('#FACC15');
    expect(yellow.accent).toBe('#facc15');
    expect(yellow.onAccent).toBe('#1c1917');
    expect(contrastRatio(yellow.accent, yellow.onAccent)).toBeGreaterThanOrEqual(4.5);
    expect(yellow.accentVisible).toBe('#1c1917');
  });

  it('keeps white text and the accent itself on a dark accent', () => {
    const navy = accentPalette('#1e3a8a');
    expect(navy.onAccent).toBe('#ffffff');
    expect(navy.accentVisible).toBe('#1e3a8a');
  });

  it('picks the text colour with the higher contrast for mid-tones', () => {
    for (const colour of ['#2563eb', '#dc2626', '#0d9488', '#9333ea', '#ea580c', '#808080']) {
      const { accent, onAccent } = accentPalette(colour);
      const other = onAccent === '#ffffff' ? '#1c1917' : '#ffffff';
      expect(contrastRatio(accent, onAccent)).toBeGreaterThanOrEqual(contrastRatio(accent, other));
    }
  });
});
