import { JOB_LIMITS, type Job, type JobItem } from '../../../core/jobs';
import { formatGbp, parsePence, penceToDecimal } from '../../../core/money';
import type { VatMode } from '../../../core/price';
import { quoteTotals, type QuoteTotals } from '../../../core/quote-totals';

/**
 * The job page's unsaved changes (docs/product.md, Jobs and quotes): what the surgeon has typed
 * over the server's job, what Save sends (only what differs), and the totals as they would be
 * once saved, added up by the same core/quote-totals.ts the server uses. Pure, for tests.
 */

export interface ItemDraft {
  price?: string;
  description?: string;
  optional?: boolean;
}
export type ItemDrafts = Readonly<Record<number, ItemDraft>>;

export interface CustomerDraft {
  name: string;
  email: string;
  phone: string;
  siteAddress: string;
}

export const PRICE_MESSAGE = 'Enter a price in pounds, like 600 or 600.50';
export const DESCRIPTION_MESSAGE = 'Describe the work';

/** A price the API takes, in pence, or undefined: pounds with at most 2 decimals, 0 to £1,000,000. */
export function priceInPence(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const pence = parsePence(text);
  return pence !== undefined && pence <= JOB_LIMITS.priceMaxPence ? pence : undefined;
}

/** The item as the page shows it: the server's values with any unsaved change over them. */
export function shownItem(item: JobItem, draft: ItemDraft | undefined): { price: string; description: string; optional: boolean } {
  return {
    price: draft?.price ?? item.price,
    description: draft?.description ?? item.description,
    optional: draft?.optional ?? item.optional,
  };
}

/** Why an item cannot be saved as typed, per field. */
export function itemErrors(item: JobItem, draft: ItemDraft | undefined): { price?: string; description?: string } {
  const shown = shownItem(item, draft);
  return {
    ...(priceInPence(shown.price) === undefined ? { price: PRICE_MESSAGE } : {}),
    ...(shown.description.trim() === '' ? { description: DESCRIPTION_MESSAGE } : {}),
  };
}

export type ItemChange = { id: number; price?: string; description?: string; optional?: boolean };

/** PATCH's `items`: each changed item with only its changed fields; a price as "600.00". */
export function itemChanges(items: readonly JobItem[], drafts: ItemDrafts): ItemChange[] {
  const changes: ItemChange[] = [];
  for (const item of items) {
    const draft = drafts[item.id];
    if (!draft) continue;
    const change: ItemChange = { id: item.id };
    const pence = draft.price === undefined ? undefined : priceInPence(draft.price);
    if (pence !== undefined && pence !== parsePence(item.price)) change.price = penceToDecimal(pence);
    const description = draft.description?.trim();
    if (description && description !== item.description) change.description = description;
    if (draft.optional !== undefined && draft.optional !== item.optional) change.optional = draft.optional;
    if (Object.keys(change).length > 1) changes.push(change);
  }
  return changes;
}

export function customerDraftOf(customer: Job['customer']): CustomerDraft {
  return { name: customer.name, email: customer.email ?? '', phone: customer.phone ?? '', siteAddress: customer.siteAddress ?? '' };
}

/** PATCH's `customer` when anything in it changed (empty fields as null), else undefined. */
export function customerChange(customer: Job['customer'], draft: CustomerDraft): NonNullable<Job['customer']> | undefined {
  const typed = {
    name: draft.name.trim(),
    email: draft.email.trim() || null,
    phone: draft.phone.trim() || null,
    siteAddress: draft.siteAddress.trim() || null,
  };
  const same = typed.name === customer.name && typed.email === customer.email && typed.phone === customer.phone && typed.siteAddress === customer.siteAddress;
  return same ? undefined : typed;
}

export interface LiveTotals {
  /** The included items: what the customer pays before choosing any optional one. */
  totals: QuoteTotals;
  /** With every optional item. */
  withOptional: QuoteTotals;
  hasOptional: boolean;
}

/** The totals as they will be once saved; a price still being typed counts at its saved value. */
/** `chosen`: the optional items the customer chose on accepting, counted in the total (none before). */
export function liveTotals(items: readonly JobItem[], drafts: ItemDrafts, vatMode: VatMode, chosen: readonly number[] = []): LiveTotals {
  const priced = items.map((item) => {
    const shown = shownItem(item, drafts[item.id]);
    return { id: item.id, pricePence: priceInPence(shown.price) ?? parsePence(item.price) ?? 0, optional: shown.optional };
  });
  return {
    totals: quoteTotals(priced, new Set(chosen), vatMode),
    withOptional: quoteTotals(priced, new Set(priced.map((p) => p.id)), vatMode),
    hasOptional: priced.some((p) => p.optional),
  };
}

/** What an item's price is beside it: "inc VAT", "+ VAT", or nothing when no VAT is charged. */
export const PRICE_VAT_NOTE: Record<VatMode, string> = { inc: 'inc VAT', ex: '+ VAT', none: '' };

/**
 * A total as the customer reads it: the price including VAT ("£1,225.00 inc VAT"), the price
 * before VAT with VAT on top ("£1,020.83 + VAT"), or the price alone when no VAT is charged.
 */
export function formatQuoteTotal(totals: QuoteTotals, vatMode: VatMode): string {
  if (vatMode === 'inc') return `${formatGbp(totals.grossPence)} inc VAT`;
  if (vatMode === 'ex') return `${formatGbp(totals.netPence)} + VAT`;
  return formatGbp(totals.grossPence);
}

/** The VAT in or on a total, said plainly; nothing when no VAT is charged. */
export function describeVat(totals: QuoteTotals, vatMode: VatMode): string | null {
  if (vatMode === 'inc') return `Includes ${formatGbp(totals.vatPence)} VAT`;
  if (vatMode === 'ex') return `VAT ${formatGbp(totals.vatPence)}, ${formatGbp(totals.grossPence)} in all`;
  return null;
}
