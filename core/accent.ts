/**
 * The business's accent colour and the colours that go with it, chosen for WCAG 2.2
 * contrast: text on the accent needs 4.5:1 (1.4.3), a focus ring or progress bar on
 * the white card needs 3:1 (1.4.11). The widget draws with the palette; Business Admin warns
 * the owner with the same ratio when their colour will give way to near-black.
 */
export const DEFAULT_ACCENT = '#166534';
export const WHITE = '#ffffff';
/** The least contrast an accent needs on the white card to be drawn in its own colour (WCAG 2.2, 1.4.11). */
export const VISIBLE_ON_WHITE_CONTRAST = 3;
/** Tailwind's stone-900, the widget's darkest text colour. */
const NEAR_BLACK = '#1c1917';

export interface AccentPalette {
  /** Primary button background. */
  accent: string;
  /** Text and icons on the accent. */
  onAccent: string;
  /** The accent where it stands out on white (3:1), near-black where it does not. */
  accentVisible: string;
}

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/** WCAG 2.2 relative luminance of an sRGB #rrggbb colour. */
export function relativeLuminance(hex: string): number {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2.2 contrast ratio, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The palette for a business's #rrggbb accent; anything else falls back to the default green. */
export function accentPalette(colour: string | null | undefined): AccentPalette {
  const accent = colour && HEX_COLOUR.test(colour) ? colour.toLowerCase() : DEFAULT_ACCENT;
  const onAccent = contrastRatio(accent, WHITE) >= contrastRatio(accent, NEAR_BLACK) ? WHITE : NEAR_BLACK;
  const accentVisible = contrastRatio(accent, WHITE) >= VISIBLE_ON_WHITE_CONTRAST ? accent : NEAR_BLACK;
  return { accent, onAccent, accentVisible };
}
