/** Card numbers in the demo form: digits only, at most 16, shown in groups of 4. */
export const CARD_NUMBER_DIGITS = 16;

export function cardDigits(text: string): string {
  return text.replace(/\D/g, '').slice(0, CARD_NUMBER_DIGITS);
}

/** "4242424242424242" -> "4242 4242 4242 4242". */
export function formatCardNumber(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Where the caret goes in `formatted` so that `digitsBefore` digits stay to its left. */
export function caretAfterDigits(formatted: string, digitsBefore: number): number {
  if (digitsBefore <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i += 1) {
    if (/\d/.test(formatted[i]!)) seen += 1;
    if (seen === digitsBefore) return i + 1;
  }
  return formatted.length;
}

export interface CardNumberEdit {
  value: string;
  caret: number;
}

/**
 * Re-formats the field after an edit, keeping the caret beside the same digit. Deleting
 * only a space (Backspace just after it) deletes the digit before it instead, or the
 * formatting would put the space straight back and Backspace would seem to do nothing.
 */
export function editCardNumber(previous: string, typed: string, caret: number): CardNumberEdit {
  let digits = cardDigits(typed);
  let digitsBefore = cardDigits(typed.slice(0, caret)).length;
  const removedOnlyASpace = typed.length === previous.length - 1 && digits === cardDigits(previous);
  if (removedOnlyASpace && digitsBefore > 0) {
    digits = digits.slice(0, digitsBefore - 1) + digits.slice(digitsBefore);
    digitsBefore -= 1;
  }
  const value = formatCardNumber(digits);
  return { value, caret: caretAfterDigits(value, digitsBefore) };
}
