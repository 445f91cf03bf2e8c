import { describe, expect, it } from 'vitest';
import { FINISHING_STEP_MS, nextProcessingStep, PROCESSING_STEP_MS, PROCESSING_STEPS } from './processing-stage';

/** Plays the counter from the start, the answer arriving after `answerAfterMs`; the ms until the stage hands over. */
function timeToHandOver(answerAfterMs: number): number {
  let step = 0;
  let now = 0;
  for (;;) {
    const next = nextProcessingStep(step, now >= answerAfterMs);
    if (next === 'finished') return now;
    if (next === 'hold') {
      now = answerAfterMs;
      continue;
    }
    // A timer cut short by the answer restarts at the finishing pace.
    if (now < answerAfterMs && now + next > answerAfterMs) {
      now = answerAfterMs;
      continue;
    }
    now += next;
    step += 1;
  }
}

describe('the processing rows', () => {
  it('advance one row every 800 ms while the answer is out, then hold on the last', () => {
    expect(nextProcessingStep(0, false)).toBe(PROCESSING_STEP_MS);
    expect(nextProcessingStep(2, false)).toBe(PROCESSING_STEP_MS);
    expect(nextProcessingStep(PROCESSING_STEPS.length - 1, false)).toBe('hold');
  });

  it('finish the rows left quickly once the answer is in, then hand over', () => {
    expect(nextProcessingStep(0, true)).toBe(FINISHING_STEP_MS);
    expect(nextProcessingStep(PROCESSING_STEPS.length - 1, true)).toBe(FINISHING_STEP_MS);
    expect(nextProcessingStep(PROCESSING_STEPS.length, true)).toBe('finished');
  });

  it('do not hold a quick answer for the whole 2.4 s, nor let the stage flash by', () => {
    expect(timeToHandOver(100)).toBe(100 + PROCESSING_STEPS.length * FINISHING_STEP_MS);
    expect(timeToHandOver(100)).toBeLessThan(1000);
  });

  it('hand over a slow answer within a few rows of its arrival', () => {
    expect(timeToHandOver(12_000)).toBe(12_000 + FINISHING_STEP_MS);
    expect(timeToHandOver(1000)).toBe(1000 + 3 * FINISHING_STEP_MS);
  });
});
