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
