/**
 * Class lists shared by the estimator's controls, so every button has the same size,
 * contrast and disabled look. The accent colours come from widget/accent.ts.
 */
const button =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60';

export const buttonStyles = {
  primary: `${button} border border-accent-visible bg-accent text-on-accent shadow-sm hover:brightness-110 disabled:hover:brightness-100`,
  secondary: `${button} border border-stone-300 bg-white text-stone-800 hover:bg-stone-50`,
};

export const cardStyles = 'rounded-xl border border-stone-200 bg-white p-4';

export const fieldStyles =
  'block w-full rounded-lg border border-stone-400 bg-white px-3 py-2 text-base text-stone-900 placeholder:text-stone-500 aria-invalid:border-red-700';

export const labelStyles = 'block text-sm font-semibold text-stone-800';

export const hintStyles = 'text-sm text-stone-600';

export const errorTextStyles = 'text-sm font-medium text-red-800';
