import type { Accuracy } from '../../../core/accuracy';

/**
 * What the accuracy page says in words (docs/analysis.md, Accuracy): the figures the contractor can
 * act on, with the comparison always made on the same jobs so the gain is not flattered.
 */

/** A median error as the page shows it: whole percent ("24%"), "under 1%" for a near miss. */
export function errorText(value: number | null): string {
  if (value === null) return '–';
  if (value > 0 && value < 0.5) return 'under 1%';
  return `${Math.round(value)}%`;
}

export const jobsText = (count: number) => (count === 1 ? '1 job' : `${count} jobs`);
export const treesText = (count: number) => (count === 1 ? '1 tree' : `${count} trees`);

/**
 * "Over your 12 trees from 5 jobs, the model's estimates were off the actual times by a median of
 * 24%." Times are reported per tree, so the figures are over trees; the jobs are counted as jobs.
 */
export function overallSentence(accuracy: Accuracy): string | null {
  const { trees, jobs, original } = accuracy;
  if (original.total === null) return null;
  if (trees === 1) return `On your one tree so far, the model's estimate was ${errorText(original.total)} off the actual time.`;
  const from = jobs === 1 ? 'of one job' : `from ${jobsText(jobs)}`;
  return `Over your ${treesText(trees)} ${from}, the model's estimates were off the actual times by a median of ${errorText(original.total)}.`;
}

/** How calibration did on the trees it could be tried on, in plain words. */
export function gainSentence(accuracy: Accuracy): string {
  const { calibratedTrees, calibrated, originalOnCalibratedTrees } = accuracy;
  if (calibratedTrees === 0) {
    return 'The calibrated figure needs a second tree: each tree is calibrated only from the trees reported before it, and your first had none.';
  }
  const before = originalOnCalibratedTrees.total;
  const after = calibrated.total;
  const on = calibratedTrees === 1 ? 'On your second tree' : `On your ${treesText(calibratedTrees)} after the first`;
  if (before === null || after === null) return `${on} there are no times above zero to compare yet.`;
  const shownBefore = errorText(before);
  const shownAfter = errorText(after);
  if (shownBefore === shownAfter) {
    return `${on}, calibrating each from only the trees reported before it left the median error about the same, at ${shownAfter}. It settles as you report more trees of each kind.`;
  }
  if (after < before) {
    const less = Math.round((1 - after / before) * 100);
    return `${on}, calibrating each from only the trees reported before it brought the median error from ${shownBefore} to ${shownAfter}: ${less}% less error.`;
  }
  return `Calibration has not helped yet: ${on.charAt(0).toLowerCase()}${on.slice(1)}, the median error was ${shownAfter} calibrated against ${shownBefore} as the model estimated. It settles as you report more trees of each kind.`;
}

/** "3 Mar 2026" in the viewer's own time zone: the day a job counts as reported. */
export function formatReportDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString('en-GB', { dateStyle: 'medium' });
}
