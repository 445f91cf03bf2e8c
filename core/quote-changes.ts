import { formatGbp } from './money';

/**
 * What a job says now that the version sent to its customer does not (docs/product.md, Jobs and
 * quotes: changed since sent). The customer can accept only the version their link opens, so the
 * surgeon sees, item by item, what the next send would offer instead: an item added or removed,
 * a price, its words, whether it is optional, and the customer's details.
 */
export const QUOTE_CHANGE_KINDS = ['added', 'removed', 'price', 'words', 'optional', 'customer'] as const;
export type QuoteChangeKind = (typeof QUOTE_CHANGE_KINDS)[number];

export interface QuoteChange {
  kind: QuoteChangeKind;
  /** The item's words as the customer has them (or as added); null for the customer's details. */
  item: string | null;
  before: string | null;
  after: string | null;
  /** The change in one plain sentence, for the job page. */
  words: string;
}

export interface ComparedItem {
  id: number;
  description: string;
  pricePence: number;
  optional: boolean;
}

export interface ComparedCustomer {
  name: string;
  email: string | null;
  phone: string | null;
  siteAddress: string | null;
}

/** An item's words cut to one short line for a sentence. */
function short(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

const optionalWords = (optional: boolean) => (optional ? 'optional' : 'included');

/**
 * The changes from `sent` to `now`, in the job's order: items by id (a tree or line keeps its id
 * while edited). The customer's e-mail is left out: the quote goes to whichever address it is
 * sent to, so it is not part of what they accept.
 */
export function quoteChanges(sent: { items: readonly ComparedItem[]; customer: ComparedCustomer }, now: { items: readonly ComparedItem[]; customer: ComparedCustomer }): QuoteChange[] {
  const changes: QuoteChange[] = [];
  const before = new Map(sent.items.map((item) => [item.id, item]));
  const after = new Set(now.items.map((item) => item.id));
  for (const item of sent.items) {
    if (!after.has(item.id)) changes.push({ kind: 'removed', item: item.description, before: formatGbp(item.pricePence), after: null, words: `Removed: ${short(item.description)} (${formatGbp(item.pricePence)})` });
  }
  for (const item of now.items) {
    const was = before.get(item.id);
    if (!was) {
      changes.push({ kind: 'added', item: item.description, before: null, after: formatGbp(item.pricePence), words: `Added: ${short(item.description)} (${formatGbp(item.pricePence)}${item.optional ? ', optional' : ''})` });
      continue;
    }
    if (was.pricePence !== item.pricePence) {
      changes.push({ kind: 'price', item: was.description, before: formatGbp(was.pricePence), after: formatGbp(item.pricePence), words: `${short(was.description)}: ${formatGbp(was.pricePence)} → ${formatGbp(item.pricePence)}` });
    }
    if (was.description !== item.description) {
      changes.push({ kind: 'words', item: was.description, before: was.description, after: item.description, words: `Words changed: "${short(was.description)}" → "${short(item.description)}"` });
    }
    if (was.optional !== item.optional) {
      changes.push({ kind: 'optional', item: item.description, before: optionalWords(was.optional), after: optionalWords(item.optional), words: `${short(item.description)}: now ${optionalWords(item.optional)}, was ${optionalWords(was.optional)}` });
    }
  }
  const fields = (['name', 'phone', 'siteAddress'] as const).filter((field) => (sent.customer[field] ?? '') !== (now.customer[field] ?? ''));
  if (fields.length > 0) {
    const named = { name: 'name', phone: 'phone', siteAddress: 'site address' } as const;
    changes.push({ kind: 'customer', item: null, before: null, after: null, words: `Customer's ${fields.map((f) => named[f]).join(', ')} changed` });
  }
  return changes;
}
