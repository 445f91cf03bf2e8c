import { describe, expect, it } from 'vitest';
import { settingsPatchSchema, settingsResponseSchema } from './settings';
import {
  DEFAULT_QUOTE_ROUNDING_PENCE,
  DEFAULT_QUOTE_TERMS,
  MAX_QUOTE_TERMS_CHARS,
  QUOTE_ROUNDING_MESSAGE,
  QUOTE_ROUNDINGS,
  QUOTE_ROUNDINGS_PENCE,
  QUOTE_TERMS_MESSAGE,
  quoteRoundingSchema,
  quoteRoundingText,
  quoteTermsSchema,
  quoteTermsText,
  storedQuoteTerms,
} from './quote-settings';

describe('quote rounding', () => {
  it('is £1, £5 or £10, £5 by default, written as whole pounds and held in pence', () => {
    expect(QUOTE_ROUNDINGS_PENCE).toEqual([100, 500, 1000]);
    expect(DEFAULT_QUOTE_ROUNDING_PENCE).toBe(500);
    expect(QUOTE_ROUNDINGS.map((pounds) => quoteRoundingSchema.parse(pounds))).toEqual([100, 500, 1000]);
    expect(QUOTE_ROUNDINGS_PENCE.map(quoteRoundingText)).toEqual(['1', '5', '10']);
  });

  it('refuses anything else, numbers and other ways of writing the same pounds included', () => {
    for (const value of ['2', '5.00', '£5', ' 5', '0', '', 5, 500, null, undefined]) {
      const result = quoteRoundingSchema.safeParse(value);
      expect(result.success, String(value)).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(QUOTE_ROUNDING_MESSAGE);
    }
  });
});

describe('quote terms', () => {
  it('has standard terms that are plain numbered clauses, well inside the limit and unchanged by the tidying', () => {
    const clauses = DEFAULT_QUOTE_TERMS.split('\n');
    expect(clauses.map((line) => line.match(/^(\d+)\. /)?.[1])).toEqual(clauses.map((_, i) => String(i + 1)));
    const promised = [
      'fixed for the work described',
      'when the work is finished, by bank transfer within 7 days',
      // A deposit the quote asks is due on acceptance, not with the rest.
      'where this quote asks a deposit, the deposit is due when you accept the quote',
      'public liability insurance',
      'Tree Preservation Order',
      'conservation area',
      'Wildlife and Countryside Act 1981',
      'leave logs for you on request',
      'parking',
      'cancel within 14 days under the Consumer Contracts Regulations 2013',
    ];
    for (const words of promised) expect(DEFAULT_QUOTE_TERMS).toContain(words);
    expect(DEFAULT_QUOTE_TERMS.length).toBeLessThan(MAX_QUOTE_TERMS_CHARS / 2);
    expect(quoteTermsText(DEFAULT_QUOTE_TERMS)).toBe(DEFAULT_QUOTE_TERMS);
  });

  it('keeps lines and one blank line between paragraphs, and drops what could disguise them', () => {
    const typed = '\r\n  1. Cash only.  \r\n\r\n\r\n2. Logs\tstay\u202E on site.\u2028 3. Dogs in, please.\n\n';
    expect(quoteTermsText(typed)).toBe('1. Cash only.\n\n2. Logs stay on site.\n3. Dogs in, please.');
  });

  it('stores the surgeon\'s own terms, and null for the standard ones: empty, null or the standard text sent back', () => {
    expect(quoteTermsSchema.parse('  Payment in advance.\r\n')).toBe('Payment in advance.');
    for (const standard of ['', '  \n ', null, DEFAULT_QUOTE_TERMS, `${DEFAULT_QUOTE_TERMS.replaceAll('\n', '\r\n')}\n`]) {
      expect(quoteTermsSchema.parse(standard), JSON.stringify(standard)).toBeNull();
    }
    expect(storedQuoteTerms(null)).toBe(DEFAULT_QUOTE_TERMS);
    expect(storedQuoteTerms('Payment in advance.')).toBe('Payment in advance.');
  });

  it('takes at most 4,000 characters once tidied, and text only', () => {
    expect(quoteTermsSchema.parse('x'.repeat(MAX_QUOTE_TERMS_CHARS))).toHaveLength(MAX_QUOTE_TERMS_CHARS);
    expect(quoteTermsSchema.parse(`  ${'x'.repeat(MAX_QUOTE_TERMS_CHARS)}  \n\n`)).toHaveLength(MAX_QUOTE_TERMS_CHARS);
    expect(quoteTermsSchema.safeParse('x'.repeat(MAX_QUOTE_TERMS_CHARS + 1)).error?.issues[0]?.message).toBe(QUOTE_TERMS_MESSAGE);
    expect(QUOTE_TERMS_MESSAGE).toBe('Quote terms must be at most 4,000 characters');
    for (const value of [42, ['terms'], { text: 'terms' }]) expect(quoteTermsSchema.safeParse(value).success).toBe(false);
  });
});

describe('the settings schemas', () => {
  it('take quoteRounding and quoteTerms on their own, naming the field of a bad one', () => {
    expect(settingsPatchSchema.parse({ quoteRounding: '10' })).toEqual({ quoteRounding: 1000 });
    expect(settingsPatchSchema.parse({ quoteTerms: null })).toEqual({ quoteTerms: null });
    const refused = settingsPatchSchema.safeParse({ quoteRounding: '20', quoteTerms: 'y'.repeat(5000) });
    expect(refused.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['quoteRounding', 'quoteTerms']);
  });

  it('answer the rounding as pounds text and the terms as text', () => {
    const shape = settingsResponseSchema.shape;
    expect(shape.quoteRounding.safeParse('5').success).toBe(true);
    expect(shape.quoteRounding.safeParse('500').success).toBe(false);
    expect(shape.quoteTerms.safeParse(DEFAULT_QUOTE_TERMS).success).toBe(true);
  });
});
