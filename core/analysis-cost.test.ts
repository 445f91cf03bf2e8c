import { describe, expect, it } from 'vitest';
import { ANALYSIS_COST_CREDITS, analysesAvailable } from './analysis-cost';
import { INSUFFICIENT_TOKENS_MESSAGE } from './upload-rules';

describe('what an analysis costs', () => {
  it('says the cost in the words shown when the credits run out', () => {
    expect(INSUFFICIENT_TOKENS_MESSAGE.startsWith(`You need ${ANALYSIS_COST_CREDITS} credits for each analysis.`)).toBe(true);
    expect(INSUFFICIENT_TOKENS_MESSAGE).toBe('You need 10 credits for each analysis. Subscribe to get monthly credits and continue analyzing trees.');
  });

  it('counts whole analyses in a balance', () => {
    expect([0, 9, 10, 19, 20, -5].map(analysesAvailable)).toEqual([0, 0, 1, 1, 2, 0]);
  });
});
