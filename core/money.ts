/**
 * Money is integer pence inside the product and "12.50" text at its edges
 * (docs/product.md). No float ever holds an amount of money.
 */
const DECIMAL_TEXT = /^\s*(\d{1,8})(?:\.(\d{1,2}))?\s*$/;

/** "12.5" -> 1250; "" -> 0 (an empty rate is sent as "0"); undefined for anything else. */
export function parsePence(text: string | number): number | undefined {
  const value = typeof text === 'number' ? String(text) : text;
  if (value.trim() === '') return 0;
  const match = DECIMAL_TEXT.exec(value);
  if (!match) return undefined;
  const pounds = Number(match[1]);
  const pence = Number((match[2] ?? '').padEnd(2, '0'));
  return pounds * 100 + pence;
}

/** 1250 -> "12.50" (decimal(10,2) as text). */
export function penceToDecimal(pence: number): string {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(pence));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 123456 -> "£1,234.56". */
export function formatGbp(pence: number): string {
  const [pounds = '0', frac = '00'] = penceToDecimal(pence).replace('-', '').split('.');
  const grouped = pounds.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${pence < 0 ? '-' : ''}£${grouped}.${frac}`;
}

/** Cost of a number of minutes at an hourly rate, in whole pence, rounded half up. */
export function costForMinutes(minutes: number, hourlyRatePence: number): number {
  return Math.round((minutes * hourlyRatePence) / 60);
}
