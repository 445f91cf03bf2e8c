import { describe, expect, it } from 'vitest';
import { companyProfileSchema, formatVatNumber, isUkVatNumber, PHONE_MESSAGE, VALIDITY_MESSAGE, VAT_NUMBER_MESSAGE, vatNumberLine } from './company-profile';

const valid = {
  tradingName: ' Oak & Ash Tree Care Ltd ',
  phone: '+44 (0)1632 960-123',
  email: 'office@oakandash.co.uk',
  address: '  Unit 4, Mill Lane \r\n\r\n Hebden Bridge\nHX7 8AB  ',
  vatNumber: 'gb 123 4567 89',
  quoteValidityDays: 30,
};

function errors(input: unknown): Record<string, string[]> {
  const result = companyProfileSchema.safeParse(input);
  if (result.success) return {};
  const out: Record<string, string[]> = {};
  for (const issue of result.error.issues) (out[issue.path.join('.')] ??= []).push(issue.message);
  return out;
}

describe('UK VAT numbers', () => {
  it('takes GB and 9 or 12 digits, spaces anywhere, any case', () => {
    for (const ok of ['GB123456789', 'GB 123 4567 89', 'gb123456789', 'GB 123 4567 89 012', ' GB123456789012 ']) expect(isUkVatNumber(ok), ok).toBe(true);
  });

  it('refuses other shapes', () => {
    for (const bad of ['123456789', 'GB12345678', 'GB1234567890', 'GB12345678901', 'GB1234567890123', 'XI123456789', 'GB12345678O', 'GBGD001', 'DE123456789']) {
      expect(isUkVatNumber(bad), bad).toBe(false);
    }
  });

  it("prints HMRC's grouping", () => {
    expect(formatVatNumber('GB123456789')).toBe('GB 123 4567 89');
    expect(formatVatNumber('gb 123456789 012')).toBe('GB 123 4567 89 012');
  });

  it('prints one line wherever a VAT number is shown, and nothing without one', () => {
    expect(vatNumberLine('GB123456789')).toBe('VAT registration no. GB 123 4567 89');
    expect(vatNumberLine('GB 123 4567 89')).toBe('VAT registration no. GB 123 4567 89');
    expect(vatNumberLine('')).toBe('');
  });
});

describe('companyProfileSchema', () => {
  it('trims, normalises the VAT number and tidies the address lines', () => {
    expect(companyProfileSchema.parse(valid)).toEqual({
      tradingName: 'Oak & Ash Tree Care Ltd',
      phone: '+44 (0)1632 960-123',
      email: 'office@oakandash.co.uk',
      address: 'Unit 4, Mill Lane\nHebden Bridge\nHX7 8AB',
      vatNumber: 'GB123456789',
      quoteValidityDays: 30,
    });
  });

  it('lets every text field be empty (no profile yet, or not VAT-registered)', () => {
    expect(companyProfileSchema.parse({ tradingName: '', phone: '', email: '', address: '', vatNumber: '  ', quoteValidityDays: 30 })).toMatchObject({ vatNumber: '' });
  });

  it('says what is wrong, field by field', () => {
    expect(errors({ ...valid, vatNumber: 'GB12345' })).toEqual({ vatNumber: [VAT_NUMBER_MESSAGE] });
    expect(errors({ ...valid, phone: 'call me' })).toEqual({ phone: [PHONE_MESSAGE] });
    expect(errors({ ...valid, phone: '12345' })).toEqual({ phone: [PHONE_MESSAGE] });
    expect(errors({ ...valid, email: 'office@' })).toHaveProperty('email');
    expect(errors({ ...valid, tradingName: 'x'.repeat(101) })).toHaveProperty('tradingName');
    expect(errors({ ...valid, address: Array.from({ length: 7 }, (_, i) => `Line ${i}`).join('\n') })).toEqual({ address: ['Address must be at most 6 lines'] });
    expect(errors({ ...valid, address: 'x'.repeat(301) })).toHaveProperty('address');
  });

  it('keeps the validity to whole days from 1 to 365', () => {
    for (const days of [1, 30, 365]) expect(errors({ ...valid, quoteValidityDays: days })).toEqual({});
    for (const days of [0, 366, 1.5, -3, Number.NaN, '30', null]) expect(errors({ ...valid, quoteValidityDays: days }), String(days)).toEqual({ quoteValidityDays: [VALIDITY_MESSAGE] });
  });
});
