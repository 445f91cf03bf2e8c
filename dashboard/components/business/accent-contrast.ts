/**
 * WCAG 2.x contrast between an accent colour and white text, the way the estimator draws
 * its buttons. Business Admin warns below the AA level for normal text (4.5:1), so an
 * owner does not pick a colour their visitors cannot read.
 * Formulae: WCAG 2.2, "relative luminance" and "contrast ratio" definitions.
 */
export const AA_TEXT_CONTRAST = 4.5;

function channel(hex: string): number {
  const c = parseInt(hex, 16) / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function luminance(color: string): number {
  const r = channel(color.slice(1, 3));
  const g = channel(color.slice(3, 5));
  const b = channel(color.slice(5, 7));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Contrast of white on `color` (#rrggbb), from 1 to 21. */
export function contrastWithWhite(color: string): number {
  return 1.05 / (luminance(color) + 0.05);
}
