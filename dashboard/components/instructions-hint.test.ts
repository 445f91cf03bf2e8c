import { describe, expect, it } from 'vitest';
import { instructionsHint } from './instructions-hint';

describe('instructionsHint', () => {
  it('promises guidance only where a model reads the instructions', () => {
    expect(instructionsHint(true, 'account')).toMatch(/They guide the estimate/);
    expect(instructionsHint(true, 'business')).toMatch(/guide your website's estimates/);
    for (const where of ['account', 'business'] as const) {
      const hint = instructionsHint(false, where);
      expect(hint).not.toMatch(/guide/);
      expect(hint).toMatch(/This server has none/);
    }
  });
});
