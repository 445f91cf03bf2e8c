import { describe, expect, it } from 'vitest';
import { editCardNumber, formatCardNumber } from './card-number';

describe('demo card number field', () => {
  it('groups digits in fours and drops anything else', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(editCardNumber('', '4242-4242 42a', 13)).toEqual({ value: '4242 4242 42', caret: 12 });
  });

  it('keeps at most 16 digits', () => {
    expect(editCardNumber('', '42424242424242429999', 20).value).toBe('4242 4242 4242 4242');
  });

  it('keeps the caret beside the digit typed in the middle', () => {
    // "4242 4242" with a 1 typed after the first "4242 4"
    expect(editCardNumber('4242 4242', '4242 41242', 7)).toEqual({ value: '4242 4124 2', caret: 7 });
  });

  it('Backspace just after a space deletes the digit before it', () => {
    // "4242 4242" with the caret after the space, Backspace removes the space
    expect(editCardNumber('4242 4242', '42424242', 4)).toEqual({ value: '4244 242', caret: 3 });
  });
});
