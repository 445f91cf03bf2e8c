import { INVOICE_STATUS_WORDS, type PublicInvoice } from '../../core/invoices';
import { formatGbp, parsePence } from '../../core/money';
import { formatQuoteDate } from '../../core/quote';
import { escapeHtml, htmlDocument } from './html';
import { lateInterestWords } from '../invoices/invoice-pdf';
import { PAYMENT_CHECKS, RECHECK_SCRIPT } from './page';

/**
 * The customer's invoice page, `/invoice/<token>` (docs/product.md, Getting paid), rendered on
 * the server from their copy (PublicInvoice) and nothing else: what is owed now and by when, how
 * to pay (the bank details with the invoice number as the reference, each with a copy button once
 * the page's one small script runs; without JavaScript they are plain text to select), the lines
 * and totals (VAT only where it is charged) read down to what is owed, every payment, refund and
 * credit note with its day (each credit note's PDF beside it), and the PDF. Readable and
 * usable at 360 px with JavaScript off.
 */
export interface InvoicePageInput {
  token: string;
  invoice: PublicInvoice;
  nonce: string;
  /** Where the invoice's documents are (invoice.pdf, credit-notes/{id}/credit-note.pdf): under the invoice's own link unless the page was opened from the quote's. */
  documentsHref?: string;
  /** Where "Pay by card" posts (shown when the invoice says it can be paid by card). */
  payHref?: string;
  /** Back from paying by card, the payment not yet confirmed: the page says so and looks again (`checks` times so far). */
  confirming?: boolean;
  checks?: number;
}

const money = (text: string): string => {
  const negative = text.startsWith('-');
  const pence = parsePence(negative ? text.slice(1) : text) ?? 0;
  return formatGbp(negative ? -pence : pence);
};
const day = (text: string): string => formatQuoteDate(new Date(`${text}T12:00:00Z`));

/** Copies a bank detail on a tap; the buttons exist only for a browser that runs this. */
const COPY_SCRIPT = `for(const b of document.querySelectorAll('button[data-copy]')){b.hidden=false;b.addEventListener('click',async()=>{try{await navigator.clipboard.writeText(b.dataset.copy);const w=b.textContent;b.textContent='Copied';setTimeout(()=>{b.textContent=w},2000)}catch{b.textContent='Select and copy it'}})}`;

/** What the page says first: what is owed and by when, or that it is paid or credited. */
function headline(invoice: PublicInvoice): string {
  if (invoice.status === 'paid') return `<p class="lead">Paid in full. Thank you.</p>`;
  if (invoice.status === 'credited') return `<p class="lead">This invoice has been credited: nothing is owed on it.</p>`;
  const when = invoice.status === 'overdue' ? `was due on ${day(invoice.dueOn)}` : `is due by ${day(invoice.dueOn)}`;
  return `<p class="lead"><strong>${escapeHtml(money(invoice.owed))}</strong> ${when}.</p>`;
}

function copyRow(label: string, value: string): string {
  return `<div class="detail"><dt>${escapeHtml(label)}</dt><dd><span>${escapeHtml(value)}</span> <button type="button" class="copy secondary" data-copy="${escapeHtml(value)}" aria-label="Copy the ${escapeHtml(label.toLowerCase())}" hidden>Copy</button></dd></div>`;
}

function howToPay(input: InvoicePageInput): string {
  const { invoice } = input;
  if (invoice.owed === '0.00') return '';
  if (input.confirming) {
    const waited = (input.checks ?? 0) >= PAYMENT_CHECKS;
    const words = waited
      ? 'Your card payment has not been confirmed yet. If you paid, it will show here and you will get a receipt by e-mail as soon as it is; there is no need to pay again.'
      : 'Your card payment is being confirmed. This page updates on its own in a few seconds.';
    return `<section class="card status" aria-labelledby="pay" role="status"><h2 id="pay">Payment</h2><p>${words}</p></section>`;
  }
  const card =
    invoice.payByCard && input.payHref
      ? `<form method="post" action="${escapeHtml(input.payHref)}"><button type="submit">Pay ${escapeHtml(money(invoice.owed))} by card</button></form><p class="hint">Card, Apple Pay, Google Pay${invoice.bankTransfer ? ', or bank transfer below' : ''}: no extra charge.</p>`
      : '';
  if (!invoice.bankTransfer) {
    const contact = [invoice.business.phone, invoice.business.email].filter(Boolean).map(escapeHtml).join(' or ');
    const ask = card ? '' : `<p>Please contact ${escapeHtml(invoice.business.name)}${contact ? ` (${contact})` : ''} to pay, quoting ${escapeHtml(invoice.number)}.</p>`;
    return `<section class="card" aria-labelledby="pay"><h2 id="pay">How to pay</h2>${card}${ask}</section>`;
  }
  const bank = invoice.bankTransfer;
  return `<section class="card" aria-labelledby="pay"><h2 id="pay">How to pay</h2>${card}<p>By bank transfer, using the reference so your payment is matched to this invoice:</p><dl class="details">${copyRow('Account name', bank.accountName)}${copyRow('Sort code', bank.sortCode)}${copyRow('Account number', bank.accountNumber)}${copyRow('Reference', bank.reference)}${copyRow('Amount', money(invoice.owed))}</dl></section>`;
}

function lines(invoice: PublicInvoice): string {
  const items = invoice.lines
    .map((line) => {
      const note = line.note ? `<p class="hint">${escapeHtml(line.note)}</p>` : '';
      return `<li class="item"><div class="line"><p>${escapeHtml(line.description)}</p><p class="price">${escapeHtml(money(line.gross))}</p></div>${note}</li>`;
    })
    .join('');
  const rows: [string, string, boolean][] = invoice.chargesVat
    ? [
        ['Total without VAT', money(invoice.totals.net), false],
        [`VAT at ${invoice.vatRatePercent}%`, money(invoice.totals.vat), false],
        ['Total with VAT', money(invoice.totals.gross), true],
      ]
    : [['Total', money(invoice.totals.gross), true]];
  // The sums read down to what is owed: total - credited - paid + refunded.
  if (invoice.credited !== '0.00') rows.push(['Credited', `-${money(invoice.credited)}`, false]);
  if (invoice.paid !== '0.00') rows.push(['Paid', `-${money(invoice.paid)}`, false]);
  if (invoice.refunded !== '0.00') rows.push(['Refunded to you', `+${money(invoice.refunded)}`, false]);
  rows.push(['To pay', money(invoice.owed), true]);
  const totals = rows.map(([label, value, strong]) => `<div${strong ? ' class="strong"' : ''}><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd></div>`).join('');
  const basis = invoice.chargesVat ? `<p class="hint">Prices include VAT at ${invoice.vatRatePercent}%.</p>` : '';
  const interest = invoice.lateInterest ? `<p>${escapeHtml(lateInterestWords(invoice.lateInterest, invoice.dueOn))}</p>` : '';
  return `<section class="card" aria-labelledby="work"><h2 id="work">Work invoiced</h2><ul class="items">${items}</ul><dl class="totals">${totals}</dl>${basis}${interest}</section>`;
}

/**
 * Every payment, refund and credit note, each on its day, oldest first; each credit note with its
 * reason and its PDF.
 */
function history(invoice: PublicInvoice, documents: string): string {
  const entries: { on: string; html: string }[] = [
    ...invoice.payments.map((payment) => ({ on: payment.paidOn, html: entry(payment.paidOn, 'Payment received', money(payment.amount), '') })),
    ...invoice.refunds.map((refund) => ({
      on: refund.refundedOn,
      html: entry(refund.refundedOn, 'Refunded to you', money(refund.amount), refund.creditNoteNumber ? `<p class="hint">With credit note ${escapeHtml(refund.creditNoteNumber)}.</p>` : ''),
    })),
    ...invoice.creditNotes.map((note) => ({
      on: note.issuedOn,
      html: entry(
        note.issuedOn,
        `Credit note ${note.number}`,
        money(note.gross),
        `<p class="hint">${escapeHtml(note.reason)}</p><p class="hint"><a href="${escapeHtml(`${documents}/credit-notes/${note.id}/credit-note.pdf`)}" download>Download credit note ${escapeHtml(note.number)} (PDF)</a></p>`,
      ),
    })),
  ];
  if (entries.length === 0) return '';
  const heading = [invoice.payments.length ? 'Payments' : '', invoice.refunds.length ? 'refunds' : '', invoice.creditNotes.length ? 'credit notes' : ''].filter(Boolean).join(', ').replace(/, ([^,]*)$/, ' and $1');
  const rows = entries
    .map((item, index) => ({ ...item, index }))
    .sort((a, b) => a.on.localeCompare(b.on) || a.index - b.index)
    .map((item) => item.html)
    .join('');
  return `<section class="card" aria-labelledby="paid"><h2 id="paid">${escapeHtml(heading.charAt(0).toUpperCase() + heading.slice(1))}</h2><ul class="items">${rows}</ul></section>`;
}

function entry(on: string, what: string, amount: string, more: string): string {
  return `<li class="item"><div class="line"><p>${escapeHtml(day(on))}: ${escapeHtml(what)}</p><p class="price">${escapeHtml(amount)}</p></div>${more}</li>`;
}

function parties(invoice: PublicInvoice): string {
  const business = invoice.business;
  const from = [business.address, business.phone ? `Phone: ${business.phone}` : '', business.email, business.vatNumber ? `VAT registration no. ${business.vatNumber}` : '']
    .filter(Boolean)
    .map((line) => `<span class="pre">${escapeHtml(line)}</span>`)
    .join('<br>');
  const to = [invoice.customer.name, invoice.customer.address ?? ''].filter(Boolean).map((line) => `<span class="pre">${escapeHtml(line)}</span>`).join('<br>');
  const legal = business.legalName ? `<br>A trading name of ${escapeHtml(business.legalName)}` : '';
  return `<section class="card parties"><div><h2>From</h2><address><strong>${escapeHtml(business.name)}</strong>${legal}<br>${from}</address></div><div><h2>To</h2><address>${to}</address></div></section>`;
}

export function invoicePage(input: InvoicePageInput): string {
  const { invoice, token } = input;
  // The PDF prints HMRC's "tax point" (VAT Notice 700/21); the customer's page says it in plain words.
  const meta = [`Issued ${day(invoice.issuedOn)}`, invoice.chargesVat ? `date of supply ${day(invoice.taxPoint)}` : '', `for quote ${invoice.quoteReference}`].filter(Boolean).join(', ');
  const documents = input.documentsHref ?? `/invoice/${encodeURIComponent(token)}`;
  const pdf = `${documents}/invoice.pdf`;
  const body = `<header class="bar"><p>${escapeHtml(invoice.business.name || 'Your tree surgeon')}</p></header>
<main>
<h1>${escapeHtml(invoice.title)} ${escapeHtml(invoice.number)}</h1>
<p class="meta">${escapeHtml(meta)}. Status: ${escapeHtml(INVOICE_STATUS_WORDS[invoice.status])}.</p>
${headline(invoice)}
${howToPay(input)}
${lines(invoice)}
${history(invoice, documents)}
${parties(invoice)}
<p><a href="${escapeHtml(pdf)}" download>Download the invoice (PDF)</a></p>
<p class="hint">Questions about this invoice? Reply to the e-mail it came with, or contact ${escapeHtml(invoice.business.name)}${invoice.business.phone ? ` on ${escapeHtml(invoice.business.phone)}` : ''}.</p>
</main>`;
  const recheck = input.confirming && (input.checks ?? 0) < PAYMENT_CHECKS;
  const scripts = [invoice.owed !== '0.00' && invoice.bankTransfer && !input.confirming ? COPY_SCRIPT : '', recheck ? RECHECK_SCRIPT : ''].filter(Boolean);
  return htmlDocument({ title: `${invoice.title} ${invoice.number}`, body, accentColor: null, nonce: input.nonce, script: scripts.length ? scripts.join('\n') : undefined });
}
