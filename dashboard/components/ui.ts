/**
 * Class lists shared by buttons and links that look like buttons, so every
 * control has the same size, contrast and disabled look.
 */
const base =
  'inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60';

export const buttonStyles = {
  primary: `${base} bg-green-800 text-white shadow-sm hover:bg-green-900`,
  secondary: `${base} border border-green-800 bg-white text-green-900 hover:bg-green-50`,
  quiet: `${base} text-green-900 hover:bg-green-100`,
  /** Confirms something that cannot be undone from here (e.g. cancelling a plan). */
  danger: `${base} bg-red-700 text-white shadow-sm hover:bg-red-800`,
  /** Opens such a confirmation. */
  dangerOutline: `${base} border border-red-700 bg-white text-red-800 hover:bg-red-50`,
};

export const linkStyles = 'font-semibold text-green-800 underline-offset-4 hover:underline';

export const cardStyles = 'rounded-2xl border border-stone-200 bg-white shadow-sm';

/**
 * The same buttons at least 44 px tall, for screens used with a thumb on site (the invoices, the
 * payments, Getting paid): Apple's Human Interface Guidelines' 44 pt and WCAG 2.5.5's 44 CSS px.
 */
export const tallButtonStyles: Record<keyof typeof buttonStyles, string> = {
  primary: `${buttonStyles.primary} min-h-11`,
  secondary: `${buttonStyles.secondary} min-h-11`,
  quiet: `${buttonStyles.quiet} min-h-11`,
  danger: `${buttonStyles.danger} min-h-11`,
  dangerOutline: `${buttonStyles.dangerOutline} min-h-11`,
};
