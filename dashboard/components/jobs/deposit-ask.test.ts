import { describe, expect, it } from 'vitest';
import { depositAskNow, depositAskWords, underThreshold } from './deposit-ask';

describe('depositAskNow', () => {
  const rule = { percent: 10, overAmount: '500.00' };

  it('follows the Settings rule when the job has no percentage of its own', () => {
    expect(depositAskNow(null, rule)).toEqual({ percent: 10, over: '500.00' });
    expect(depositAskNow(null, null)).toBeNull();
  });

  it('takes the job’s own percentage on any total, and 0 for none', () => {
    expect(depositAskNow(25, rule)).toEqual({ percent: 25, over: '0.00' });
    expect(depositAskNow(0, rule)).toBeNull();
  });
});

describe('depositAskWords', () => {
  it('says the percentage and the threshold when there is one', () => {
    expect(depositAskWords({ percent: 10, over: '500.00' })).toBe('a 10% deposit on totals over £500.00');
    expect(depositAskWords({ percent: 12.5, over: '0.00' })).toBe('a 12.5% deposit');
    expect(depositAskWords(null)).toBe('no deposit');
  });
});

describe('underThreshold', () => {
  it('is true only when even every optional item leaves the total at or under the rule’s amount', () => {
    const ask = { percent: 10, over: '500.00' };
    expect(underThreshold(ask, '300.00')).toBe(true);
    expect(underThreshold(ask, '500.00')).toBe(true);
    expect(underThreshold(ask, '500.01')).toBe(false);
    expect(underThreshold({ percent: 20, over: '0.00' }, '300.00')).toBe(false);
    expect(underThreshold(null, '300.00')).toBe(false);
  });
});
