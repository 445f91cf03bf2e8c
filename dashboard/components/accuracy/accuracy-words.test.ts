import { describe, expect, it } from 'vitest';
import type { Accuracy, AccuracyMedians } from '../../../core/accuracy';
import { errorText, gainSentence, overallSentence } from './accuracy-words';

const medians = (total: number | null): AccuracyMedians => ({ cutting: total, prep: total, cleanup: total, total });

function accuracy(trees: number, original: number | null, before: number | null, after: number | null, jobs = trees): Accuracy {
  return {
    trees,
    jobs,
    limit: 500,
    original: medians(original),
    calibratedTrees: Math.max(0, trees - 1),
    calibrated: medians(after),
    originalOnCalibratedTrees: medians(before),
    series: [],
  };
}

describe('accuracy words', () => {
  it('show errors as whole percent', () => {
    expect(errorText(null)).toBe('–');
    expect(errorText(0)).toBe('0%');
    expect(errorText(0.3)).toBe('under 1%');
    expect(errorText(24.5)).toBe('25%');
  });

  it('say what one tree shows and what the calibrated figure needs', () => {
    const one = accuracy(1, 24, null, null);
    expect(overallSentence(one)).toBe("On your one tree so far, the model's estimate was 24% off the actual time.");
    expect(gainSentence(one)).toMatch(/^The calibrated figure needs a second tree/);
  });

  it('count trees as trees and jobs as jobs', () => {
    // Seen before: three trees of one job read "Over your 3 jobs".
    expect(overallSentence(accuracy(3, 30, 28, 14, 1))).toBe("Over your 3 trees of one job, the model's estimates were off the actual times by a median of 30%.");
    expect(overallSentence(accuracy(12, 30, 28, 14, 5))).toBe("Over your 12 trees from 5 jobs, the model's estimates were off the actual times by a median of 30%.");
  });

  it('compare calibration with the model on the same trees, better, the same or worse', () => {
    expect(overallSentence(accuracy(10, 30, 28, 14))).toBe("Over your 10 trees from 10 jobs, the model's estimates were off the actual times by a median of 30%.");
    expect(gainSentence(accuracy(10, 30, 28, 14))).toBe(
      'On your 9 trees after the first, calibrating each from only the trees reported before it brought the median error from 28% to 14%: 50% less error.',
    );
    expect(gainSentence(accuracy(2, 30, 20, 20.2))).toMatch(/^On your second tree, .* about the same, at 20%/);
    expect(gainSentence(accuracy(3, 30, 20, 26))).toBe(
      'Calibration has not helped yet: on your 2 trees after the first, the median error was 26% calibrated against 20% as the model estimated. It settles as you report more trees of each kind.',
    );
  });
});
