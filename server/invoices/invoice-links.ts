import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { openQuote } from '../jobs/quote-links';
import { DomainError } from '../../core/errors';
import { INVOICE_LINK_MESSAGES, INVOICE_MESSAGES } from '../../core/invoices';
import { immediate, type Db } from '../../db/client';
import { invoiceLinks, invoices } from '../../db/schema';
import type { Clock } from '../clock';
import { hashesMatch, randomSecret, sha256 } from '../secrets/tokens';
import { holdMail, takeHeldMail, type HeldMail, type HeldMailRow } from './held-mail';
import { findOwnInvoice, type InvoiceRow } from './invoices';

/**
 * The customer's invoice links, `/invoice/<token>`, with the quote link's rules (docs/security.md,
 * Customer links): a 256-bit random token kept only as its SHA-256, compared in constant time.
 * Each e-mail that carries a link (the invoice, a receipt, a reminder) has its own; none expires
 * (an invoice stays readable, paid or not), and the surgeon can withdraw them all (410).
 */

/** How long a token may be before any lookup: ours are 43 characters. */
export const INVOICE_TOKEN_MAX = 200;

/** A new link to the invoice, in the caller's transaction; its token goes only into an e-mail. */
export function newInvoiceLink(tx: Db, invoiceId: number, now: Date): string {
  const token = randomSecret();
  tx.insert(invoiceLinks).values({ invoiceId, tokenHash: sha256(token), createdAt: now }).run();
  return token;
}

export interface SentInvoice {
  invoice: InvoiceRow;
  token: string;
  to: string;
  /** What waited while the links were withdrawn (held-mail.ts), each with a link of its own, to send to `to` now. */
  released: { mail: HeldMailRow; token: string }[];
}

/**
 * POST /api/invoices/{id}/send: an issued invoice, to the customer's e-mail or `email`, with a new
 * link. After its links were withdrawn, only to an address the surgeon types (the one on file may
 * be the wrong person's); what waited meanwhile is taken, to go there too.
 */
export function sendInvoiceLink(db: Db, clock: Clock, invoice: Pick<InvoiceRow, 'id' | 'userId'>, email: string | undefined, by: number | null = null): SentInvoice {
  const now = clock.now();
  return immediate(db, (tx) => {
    const current = findOwnInvoice(tx, invoice.userId, invoice.id);
    if (!current.number || !current.parties) throw new DomainError('CONFLICT', INVOICE_MESSAGES.notIssued);
    if (current.linksWithdrawnAt && email === undefined) {
      throw new DomainError('VALIDATION_ERROR', INVOICE_LINK_MESSAGES.confirmAddress, { details: { email: [INVOICE_LINK_MESSAGES.confirmAddress] } });
    }
    const to = email ?? current.parties.customer.email;
    if (!to) throw new DomainError('VALIDATION_ERROR', INVOICE_MESSAGES.noEmail, { details: { email: [INVOICE_MESSAGES.noEmail] } });
    const token = newInvoiceLink(tx, current.id, now);
    const released = takeHeldMail(tx, current.id).map((mail) => ({ mail, token: newInvoiceLink(tx, current.id, now) }));
    const row = tx.update(invoices).set({ sentTo: to, sentAt: now, sentBy: by, linksWithdrawnAt: null, updatedAt: now }).where(eq(invoices.id, current.id)).returning().get()!;
    return { invoice: row, token, to, released };
  });
}

/**
 * POST /api/invoices/{id}/revoke: every link sent so far opens nothing but says it was withdrawn,
 * and nothing more goes to the customer until it is sent again to a confirmed address (held-mail.ts).
 */
export function revokeInvoiceLinks(db: Db, clock: Clock, invoice: Pick<InvoiceRow, 'id' | 'userId'>): InvoiceRow {
  const now = clock.now();
  return immediate(db, (tx) => {
    const current = findOwnInvoice(tx, invoice.userId, invoice.id);
    tx.update(invoiceLinks).set({ revokedAt: now }).where(and(eq(invoiceLinks.invoiceId, current.id), isNull(invoiceLinks.revokedAt))).run();
    return tx.update(invoices).set({ linksWithdrawnAt: now, updatedAt: now }).where(eq(invoices.id, current.id)).returning().get()!;
  });
}

/**
 * A link for customer e-mail about the invoice, in the caller's transaction, or null when its
 * links are withdrawn: then `held` is kept to go once it is sent again (held-mail.ts).
 */
export function linkOrHold(tx: Db, invoiceId: number, held: HeldMail, now: Date): string | null {
  const row = tx.select({ linksWithdrawnAt: invoices.linksWithdrawnAt }).from(invoices).where(eq(invoices.id, invoiceId)).get();
  if (row?.linksWithdrawnAt) {
    holdMail(tx, invoiceId, held, now);
    return null;
  }
  return newInvoiceLink(tx, invoiceId, now);
}

/** The invoice a link opens: 404 for a token nobody has, 410 for a withdrawn one. */
export function openInvoiceLink(db: Db, token: string): InvoiceRow {
  if (token.length > INVOICE_TOKEN_MAX) throw new DomainError('NOT_FOUND', INVOICE_LINK_MESSAGES.unknown);
  const hash = sha256(token);
  const found = db.select({ invoice: invoices, tokenHash: invoiceLinks.tokenHash, revokedAt: invoiceLinks.revokedAt }).from(invoiceLinks).innerJoin(invoices, eq(invoices.id, invoiceLinks.invoiceId)).where(eq(invoiceLinks.tokenHash, hash)).get();
  if (!found || !hashesMatch(found.tokenHash, hash)) throw new DomainError('NOT_FOUND', INVOICE_LINK_MESSAGES.unknown);
  if (found.revokedAt) throw new DomainError('QUOTE_GONE', INVOICE_LINK_MESSAGES.revoked);
  return found.invoice;
}

/** The customer opened their invoice: the first time, it reads "viewed". Returns whether this was the first view. */
export function markInvoiceViewed(db: Db, clock: Clock, row: InvoiceRow): boolean {
  if (row.viewedAt) return false;
  return db.update(invoices).set({ viewedAt: clock.now() }).where(and(eq(invoices.id, row.id), isNull(invoices.viewedAt))).run().changes === 1;
}

/**
 * The issued invoices of the job a quote link opens (the quote's own link checks: 404 unknown,
 * 410 withdrawn or replaced): the customer's quote page links to them under the same link.
 */
export function issuedInvoicesOfQuote(db: Db, clock: Clock, quoteToken: string): InvoiceRow[] {
  const opened = openQuote(db, clock, quoteToken);
  return db.select().from(invoices).where(and(eq(invoices.jobId, opened.job.id), isNotNull(invoices.number))).orderBy(invoices.sequence).all();
}

/** One of them by id; any other id is the unknown link's 404. */
export function invoiceOfQuote(db: Db, clock: Clock, quoteToken: string, invoiceId: number): InvoiceRow {
  const found = issuedInvoicesOfQuote(db, clock, quoteToken).find((row) => row.id === invoiceId);
  if (!found) throw new DomainError('NOT_FOUND', 'Invoice not found. Please open the latest link from your e-mail, or contact the business that sent it.');
  return found;
}
