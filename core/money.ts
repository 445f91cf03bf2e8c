/**
 * Money is integer pence inside the product (DECISIONS, Credits and payments);
 * this turns pence into what a person reads, in pounds (SPEC section 1: GBP, £).
 */
export function formatGbp(pence: number, options: { dropZeroPence?: boolean } = {}): string {
  const whole = Math.trunc(pence / 100);
  const rest = Math.abs(pence % 100);
  const sign = pence < 0 ? '-' : '';
  if (options.dropZeroPence && rest === 0) return `${sign}£${Math.abs(whole)}`;
  return `${sign}£${Math.abs(whole)}.${String(rest).padStart(2, '0')}`;
}
