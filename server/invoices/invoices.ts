import type { DepositAsk } from '../../core/card-payments';
import type { QuoteContent } from '../../core/quote-versions';
import { and, asc, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { DomainError } from '../../core/errors';
import { depositFromPercent, depositMoney, finalMoney, type Money, type VatBasis } from '../../core/invoice-money';
import { documentNumber, dueOn, INVOICE_MESSAGES, INVOICE_NOT_FOUND, type InvoiceCreateInput, type InvoiceKind, type InvoiceLineKind, type InvoicePatchInput } from '../../core/invoices';
import { ukToday } from '../../core/job-booking';
import { formatGbp, parsePence, penceToDecimal } from '../../core/money';
import { formatQuoteDate } from '../../core/quote';
import { immediate, type Db } from '../../db/client';
import { creditNotes, invoiceLines, invoices, jobs } from '../../db/schema';
import type { Clock } from '../clock';
import { findOwnJob, type JobRow } from '../jobs/jobs';
import { acceptedOf, type QuoteAnswerRow, type QuoteVersionRow } from '../jobs/quote-links';
import { getCompanyProfile } from '../settings/settings';
import { getInvoiceSettings, takeSequence } from '../settings/invoice-settings';

/**
 * Invoices of a job's accepted quote (docs/product.md, Getting paid). Everything is read from the
 * accepted version (its items, prices, words and VAT basis) and the optional items the customer
 * chose: nothing of the quote is typed again, and an edit made to the job after it was sent
 * cannot reach an invoice. A draft can change and be deleted; issuing gives it the account's next
 * number inside the same immediate transaction that reads it, so concurrent issues take
 * consecutive numbers, and from then on every change is refused (409).
 */

export type InvoiceRow = typeof invoices.$inferSelect;
export type InvoiceLineRow = typeof invoiceLines.$inferSelect;

/** The statuses of a job an invoice can be made from: the customer accepted, and it was not cancelled. */
const INVOICEABLE = new Set<JobRow['status']>(['accepted', 'booked', 'done']);

export function findOwnInvoice(db: Db, userId: number, id: number): InvoiceRow {
  const row = Number.isSafeInteger(id) && id > 0 ? db.select().from(invoices).where(and(eq(invoices.id, id), eq(invoices.userId, userId))).get() : undefined;
  if (!row) throw new DomainError('NOT_FOUND', INVOICE_NOT_FOUND);
  return row;
}

export function linesOf(db: Db, invoiceIds: readonly number[]): InvoiceLineRow[] {
  if (invoiceIds.length === 0) return [];
  return db.select().from(invoiceLines).where(inArray(invoiceLines.invoiceId, [...invoiceIds])).orderBy(asc(invoiceLines.position), asc(invoiceLines.id)).all();
}

export function invoicesOfJob(db: Db, jobId: number): InvoiceRow[] {
  return db.select().from(invoices).where(eq(invoices.jobId, jobId)).orderBy(asc(invoices.id)).all();
}

const basisOf = (version: QuoteVersionRow): VatBasis => ({ vatMode: version.content.vatMode, vatRatePercent: version.content.vatRatePercent });

/** The accepted record of a job that can be invoiced, read in the caller's transaction. */
function acceptedRecord(tx: Db, job: Pick<JobRow, 'id' | 'userId'>): { job: JobRow; version: QuoteVersionRow; answer: QuoteAnswerRow } {
  const current = findOwnJob(tx, job.userId, job.id);
  if (current.status === 'cancelled') throw new DomainError('CONFLICT', INVOICE_MESSAGES.cancelled);
  const accepted = INVOICEABLE.has(current.status) ? acceptedOf(tx, current.id) : undefined;
  if (!accepted) throw new DomainError('CONFLICT', INVOICE_MESSAGES.notAccepted);
  return { job: current, ...accepted };
}

/** The accepted work: the included items and the optional items the customer chose, as the version priced them. */
function acceptedWork(version: QuoteVersionRow, answer: QuoteAnswerRow) {
  const chosen = new Set(answer.optionalItemIds ?? []);
  return version.content.items.filter((item) => !item.optional || chosen.has(item.id));
}

/** The accepted total, as the customer pays it. */
function acceptedGross(version: QuoteVersionRow, answer: QuoteAnswerRow): number {
  return finalMoney(acceptedWork(version, answer), [], basisOf(version)).total.grossPence;
}

/** What a deposit invoice takes off the final invoice: its money less what was credited on it. */
function depositsToDeduct(tx: Db, jobId: number, exceptId?: number): { invoice: InvoiceRow; money: Money }[] {
  const deposits = tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.jobId, jobId), eq(invoices.kind, 'deposit'), isNotNull(invoices.number)))
    .orderBy(asc(invoices.sequence))
    .all()
    .filter((row) => row.id !== exceptId);
  return deposits
    .map((invoice) => {
      const credited = creditedMoney(tx, invoice.id);
      return {
        invoice,
        money: { netPence: invoice.netPence - credited.netPence, vatPence: invoice.vatPence - credited.vatPence, grossPence: invoice.grossPence - credited.grossPence },
      };
    })
    .filter((deposit) => deposit.money.grossPence > 0);
}

/** The sum of an invoice's credit notes. */
export function creditedMoney(db: Db, invoiceId: number): Money {
  return db
    .select()
    .from(creditNotes)
    .where(eq(creditNotes.invoiceId, invoiceId))
    .all()
    .reduce((sum, note) => ({ netPence: sum.netPence + note.netPence, vatPence: sum.vatPence + note.vatPence, grossPence: sum.grossPence + note.grossPence }), {
      netPence: 0,
      vatPence: 0,
      grossPence: 0,
    });
}

interface LineValues {
  kind: InvoiceLineKind;
  description: string;
  note: string | null;
  unitPence: number;
  money: Money;
  depositInvoiceId: number | null;
}

/** What a draft holds: its lines and totals, worked out afresh from the accepted record. */
interface Drafted {
  lines: LineValues[];
  total: Money;
  depositPercent: number | null;
}

/**
 * A deposit's lines: `percent` of the accepted total or `amountPence`, at most what is not yet
 * invoiced (the accepted total less the deposits already issued).
 */
function draftDeposit(tx: Db, record: { job: JobRow; version: QuoteVersionRow; answer: QuoteAnswerRow }, ask: { percent: number | null; amountPence: number | null }, exceptId?: number): Drafted {
  const basis = basisOf(record.version);
  const final = liveFinal(tx, record.job.id);
  if (final?.number) throw new DomainError('CONFLICT', INVOICE_MESSAGES.depositAfterFinal(final.number));
  const accepted = acceptedGross(record.version, record.answer);
  const already = depositsToDeduct(tx, record.job.id, exceptId).reduce((sum, deposit) => sum + deposit.money.grossPence, 0);
  const gross = ask.percent !== null ? depositFromPercent(accepted, ask.percent) : (ask.amountPence ?? 0);
  if (gross <= 0) throw new DomainError('VALIDATION_ERROR', INVOICE_MESSAGES.depositZero, { details: { amount: [INVOICE_MESSAGES.depositZero] } });
  if (gross > accepted - already) {
    const message = INVOICE_MESSAGES.depositTooLarge(formatGbp(Math.max(0, accepted - already)));
    throw new DomainError('VALIDATION_ERROR', message, { details: { [ask.percent !== null ? 'percent' : 'amount']: [message] } });
  }
  const money = depositMoney(gross, basis);
  const reference = record.version.content.reference;
  const description =
    ask.percent !== null
      ? `Deposit of ${ask.percent}% of the ${formatGbp(accepted)} accepted for quote ${reference} (accepted ${formatQuoteDate(record.answer.createdAt)})`
      : `Deposit towards the ${formatGbp(accepted)} accepted for quote ${reference} (accepted ${formatQuoteDate(record.answer.createdAt)})`;
  return {
    lines: [{ kind: 'deposit', description, note: null, unitPence: gross, money, depositInvoiceId: null }],
    total: money,
    depositPercent: ask.percent,
  };
}

/** A final invoice's lines: the accepted work, the lines agreed on site, and each deposit taken off. */
function draftFinal(tx: Db, record: { job: JobRow; version: QuoteVersionRow; answer: QuoteAnswerRow }, onSite: readonly { description: string; price: string; note?: string | undefined }[]): Drafted {
  const basis = basisOf(record.version);
  const work = acceptedWork(record.version, record.answer).map((item) => ({ kind: 'work' as const, description: item.description, note: null, pricePence: item.pricePence }));
  const agreed = onSite.map((line) => ({ kind: 'on_site' as const, description: line.description, note: line.note ? line.note : null, pricePence: parsePence(line.price)! }));
  const deposits = depositsToDeduct(tx, record.job.id);
  const money = finalMoney([...work, ...agreed], deposits.map((deposit) => deposit.money), basis);
  if (money.total.grossPence < 0) throw new DomainError('CONFLICT', INVOICE_MESSAGES.finalBelowDeposits);
  const lines: LineValues[] = [...work, ...agreed].map((line, index) => ({ kind: line.kind, description: line.description, note: line.note, unitPence: line.pricePence, money: money.work[index]!, depositInvoiceId: null }));
  for (const deposit of deposits) {
    const less: Money = { netPence: -deposit.money.netPence, vatPence: -deposit.money.vatPence, grossPence: -deposit.money.grossPence };
    lines.push({ kind: 'less_deposit', description: `Less deposit invoiced on ${deposit.invoice.number} (${formatQuoteDate(new Date(`${deposit.invoice.issuedOn}T12:00:00Z`))})`, note: null, unitPence: less.grossPence, money: less, depositInvoiceId: deposit.invoice.id });
  }
  return { lines, total: money.total, depositPercent: null };
}

/** Writes a draft's lines and totals, replacing any it had. */
function writeDraft(tx: Db, invoiceId: number, drafted: Drafted, now: Date): InvoiceRow {
  tx.delete(invoiceLines).where(eq(invoiceLines.invoiceId, invoiceId)).run();
  drafted.lines.forEach((line, position) => {
    tx.insert(invoiceLines)
      .values({
        invoiceId,
        position,
        kind: line.kind,
        description: line.description,
        note: line.note,
        quantity: 1,
        unitPence: line.unitPence,
        netPence: line.money.netPence,
        vatPence: line.money.vatPence,
        grossPence: line.money.grossPence,
        depositInvoiceId: line.depositInvoiceId,
      })
      .run();
  });
  return tx
    .update(invoices)
    .set({ netPence: drafted.total.netPence, vatPence: drafted.total.vatPence, grossPence: drafted.total.grossPence, depositPercent: drafted.depositPercent, updatedAt: now })
    .where(eq(invoices.id, invoiceId))
    .returning()
    .get()!;
}

/**
 * The deposit an accepted copy asks (core/card-payments.ts): its own, frozen when sent, or for
 * versions sent before copies carried one, the Settings rule as it stands.
 */
export function depositAskOfContent(db: Db, userId: number, content: QuoteContent): DepositAsk | null {
  return content.deposit !== undefined ? content.deposit : getInvoiceSettings(db, userId).depositRule;
}

/** A final invoice of the job that is not credited in full, if any. */
function liveFinal(tx: Db, jobId: number): InvoiceRow | undefined {
  return invoicesOfJob(tx, jobId).find((row) => row.kind === 'final' && (row.number === null || creditedMoney(tx, row.id).grossPence < row.grossPence || row.grossPence === 0));
}

/** What a deposit asks: the percentage or amount sent, else the Settings rule's percentage. */
function depositAsk(tx: Db, userId: number, input: { percent?: number | undefined; amount?: string | undefined }): { percent: number | null; amountPence: number | null } {
  if (input.percent !== undefined) return { percent: input.percent, amountPence: null };
  if (input.amount !== undefined) return { percent: null, amountPence: parsePence(input.amount)! };
  const rule = getInvoiceSettings(tx, userId).depositRule;
  if (rule) return { percent: rule.percent, amountPence: null };
  const message = 'Give the deposit as a percentage or an amount (or set a deposit rule in Settings).';
  throw new DomainError('VALIDATION_ERROR', message, { details: { percent: [message] } });
}

/** POST /api/jobs/{id}/invoices: a draft deposit or final invoice of the accepted quote. `by`: the person (null when the customer's acceptance made it). */
export function createInvoice(db: Db, clock: Clock, job: Pick<JobRow, 'id' | 'userId'>, input: InvoiceCreateInput, by: number | null = null): InvoiceRow {
  const now = clock.now();
  return immediate(db, (tx) => {
    const record = acceptedRecord(tx, job);
    if (input.kind === 'final') {
      const existing = liveFinal(tx, record.job.id);
      if (existing) throw new DomainError('CONFLICT', existing.number ? INVOICE_MESSAGES.finalExists(existing.number) : INVOICE_MESSAGES.finalDraftExists);
    }
    const drafted = input.kind === 'deposit' ? draftDeposit(tx, record, depositAsk(tx, job.userId, input)) : draftFinal(tx, record, input.lines ?? []);
    const row = tx
      .insert(invoices)
      .values({
        userId: job.userId,
        jobId: record.job.id,
        versionId: record.version.id,
        kind: input.kind,
        vatMode: record.version.content.vatMode,
        vatRatePercent: record.version.content.vatRatePercent,
        netPence: 0,
        vatPence: 0,
        grossPence: 0,
        createdBy: by,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    return writeDraft(tx, row.id, drafted, now);
  });
}

/** The invoice read again inside the write transaction, refused once issued. */
function draftOf(tx: Db, invoice: Pick<InvoiceRow, 'id' | 'userId'>): InvoiceRow {
  const current = findOwnInvoice(tx, invoice.userId, invoice.id);
  if (current.number !== null) throw new DomainError('CONFLICT', INVOICE_MESSAGES.issued);
  return current;
}

/** The accepted record a draft was made from (its job may since have been booked or done). */
function recordOf(tx: Db, invoice: InvoiceRow) {
  return acceptedRecord(tx, { id: invoice.jobId, userId: invoice.userId });
}

/** A draft final invoice's lines agreed on site, as they were sent, to work it out again. */
function onSiteLinesOf(tx: Db, invoiceId: number): { description: string; price: string; note?: string }[] {
  return linesOf(tx, [invoiceId])
    .filter((line) => line.kind === 'on_site')
    .map((line) => ({ description: line.description, price: penceToDecimal(line.unitPence), ...(line.note ? { note: line.note } : {}) }));
}

/** PATCH /api/invoices/{id}: a draft's deposit or on-site lines, worked out again from the accepted record. */
export function updateDraft(db: Db, clock: Clock, invoice: Pick<InvoiceRow, 'id' | 'userId'>, input: InvoicePatchInput): InvoiceRow {
  return immediate(db, (tx) => {
    const draft = draftOf(tx, invoice);
    const record = recordOf(tx, draft);
    if (draft.kind === 'deposit') {
      if (input.lines !== undefined) throw new DomainError('VALIDATION_ERROR', INVOICE_MESSAGES.linesOnlyOnFinal, { details: { lines: [INVOICE_MESSAGES.linesOnlyOnFinal] } });
      return writeDraft(tx, draft.id, draftDeposit(tx, record, depositAsk(tx, draft.userId, input), draft.id), clock.now());
    }
    if (input.percent !== undefined || input.amount !== undefined) {
      throw new DomainError('VALIDATION_ERROR', INVOICE_MESSAGES.depositOnlyOnDeposit, { details: { percent: [INVOICE_MESSAGES.depositOnlyOnDeposit] } });
    }
    const onSite = input.lines ?? onSiteLinesOf(tx, draft.id);
    return writeDraft(tx, draft.id, draftFinal(tx, record, onSite), clock.now());
  });
}

/** DELETE /api/invoices/{id}: a draft only. */
export function deleteDraft(db: Db, invoice: Pick<InvoiceRow, 'id' | 'userId'>): void {
  immediate(db, (tx) => {
    draftOf(tx, invoice);
    tx.delete(invoices).where(eq(invoices.id, invoice.id)).run();
  });
}

/**
 * POST /api/invoices/{id}/issue: the draft, worked out once more from the accepted record (a
 * deposit issued since it was drafted is taken off), takes the account's next number and the
 * parties as they are today, in one immediate transaction: twenty issues at once take twenty
 * consecutive numbers, and a failed issue takes none.
 */
export function issueInvoice(db: Db, clock: Clock, invoice: Pick<InvoiceRow, 'id' | 'userId'>, by: number | null = null): InvoiceRow {
  const now = clock.now();
  const today = ukToday(now);
  return immediate(db, (tx) => {
    const draft = draftOf(tx, invoice);
    const record = recordOf(tx, draft);
    if (draft.kind === 'final') {
      writeDraft(tx, draft.id, draftFinal(tx, record, onSiteLinesOf(tx, draft.id)), now);
    } else {
      const ask = draft.depositPercent !== null ? { percent: draft.depositPercent, amountPence: null } : { percent: null, amountPence: draft.grossPence };
      writeDraft(tx, draft.id, draftDeposit(tx, record, ask, draft.id), now);
    }
    const settings = getInvoiceSettings(tx, draft.userId);
    const sequence = takeSequence(tx, draft.userId, 'invoice', now);
    const profile = getCompanyProfile(tx, draft.userId);
    const content = record.version.content;
    return tx
      .update(invoices)
      .set({
        number: documentNumber(settings.invoicePrefix, sequence),
        sequence,
        issuedAt: now,
        issuedBy: by,
        issuedOn: today,
        dueOn: dueOn(draft.kind, today, settings.paymentTermsDays),
        parties: {
          // The supplier under the name the quote came from, its details as the company profile
          // says today (an invoice is the business's own document), with the profile's name
          // beside a website business's trading name; the customer as the accepted quote names them.
          supplier: { ...supplierNames(content.business.name, profile.tradingName), address: profile.address, phone: profile.phone, email: profile.email, vatNumber: profile.vatNumber },
          customer: { name: content.customer.name, email: content.customer.email, address: content.customer.siteAddress },
          bank: settings.bankDetails,
          paymentTermsDays: settings.paymentTermsDays,
        },
        updatedAt: now,
      })
      .where(and(eq(invoices.id, draft.id), isNull(invoices.number)))
      .returning()
      .get()!;
  });
}

const sameName = (a: string, b: string) => a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/** The quote's name on the invoice, and the profile's as the legal name when it differs (as the quote's PDF prints "A trading name of"). */
function supplierNames(quoteName: string, profileName: string): { name: string; legalName?: string } {
  const name = quoteName.trim() || profileName;
  return profileName.trim() && !sameName(profileName, name) ? { name, legalName: profileName } : { name };
}

/** The account's invoices, newest first. */
export function listOwnInvoices(db: Db, userId: number): InvoiceRow[] {
  return db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(desc(invoices.createdAt), desc(invoices.id)).all();
}

/** The jobs of invoices (their UK done day gives the final invoice's tax point). */
export function jobsOf(db: Db, jobIds: readonly number[]): Map<number, JobRow> {
  if (jobIds.length === 0) return new Map();
  return new Map(
    db
      .select()
      .from(jobs)
      .where(inArray(jobs.id, [...new Set(jobIds)]))
      .all()
      .map((job) => [job.id, job]),
  );
}

export type { InvoiceKind };
