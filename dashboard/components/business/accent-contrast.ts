/**
 * WCAG 2.x contrast between an accent colour and the estimator's white card. Below 3:1
 * (WCAG 2.2, 1.4.11) the widget draws headings, outlines and progress in near-black
 * instead of the accent (widget/accent.ts), so Business Admin says so rather than let
 * the owner wonder where their colour went.
 * Formulae: WCAG 2.2, "relative luminance" and "contrast ratio" definitions.
 */
export const VISIBLE_ON_WHITE_CONTRAST = 3;

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
