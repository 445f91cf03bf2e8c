import { vatNumberLine } from '../../core/company-profile';
import { EARLY_START_EXPLAINED, cancellationNotice, modelCancellationForm, modelFormFactsOf } from '../../core/consumer-rights';
import { EARLY_START_MESSAGES, EARLY_START_REQUEST_WORDS } from '../../core/cancellation-period';
import { ukToday } from '../../core/job-booking';
import { formatBookingDate } from '../../core/job-booking';
import { fingerprintCheck, groupedFingerprint } from '../../core/quote-copy';
import { formatGbp, parsePence } from '../../core/money';
import { depositOnAcceptance } from '../../core/card-payments';
import { VAT_STANDARD_RATE_PERCENT, type VatMode } from '../../core/price';
import { formatQuoteDate } from '../../core/quote';
import { ITEM_PRICE_HEADING, quoteTotalRows } from '../../core/quote-total-rows';
import type { QuoteTotals } from '../../core/quote-totals';
import type { PublicQuote } from '../../core/quote-versions';
import { escapeHtml, htmlDocument } from './html';
import { LATER_PHOTOS_SCRIPT, laterPhoto } from './later-photos';
import { LIVE_TOTAL_SCRIPT } from './live-total';

/**
 * The customer's quote page (docs/product.md, Jobs and quotes: the customer's page), rendered on
 * the server from their copy (PublicQuote) and nothing else: the business, the customer, each item
 * with its photo and price, the totals with VAT, validity and terms, and three plain HTML forms
 * (accept, decline, ask for a change) that work without JavaScript. Once answered, the answer.
 */

export type AnswerForm = 'accept' | 'decline' | 'changes' | 'cancel' | 'start-early';

/** What the customer sent, kept when an answer is refused, so nothing typed is lost. */
export interface TypedAnswer {
  name?: string;
  acceptTerms?: boolean;
  startEarly?: boolean;
  optionalItemIds?: number[];
  reason?: string;
  message?: string;
  confirm?: boolean;
}

export interface QuotePageInput {
  token: string;
  quote: PublicQuote;
  nonce: string;
  /** An answer refused for its fields (400): the form, its messages by field, what was typed. */
  refused?: { form: AnswerForm; message: string; fields: Record<string, string[]>; typed: TypedAnswer };
  /** A line at the top: a change asked for has been sent, or the quote was already answered. */
  notice?: string;
  /** Whether the sender has a logo: it heads the page, from the link's own route (quote-photo.ts). */
  logo?: boolean;
  /** This install's public origin, for the fingerprint's check address. */
  origin?: string;
  /** The job's issued invoices, each opened from this page by the same link (invoice-routes.ts). */
  invoices?: { id: number; label: string; owed: string; status: string }[];
  /**
   * The deposit (card-payments/deposit.ts): whether the business takes card payments now (the
   * accept button then pays it), and once accepted, the deposit invoice's state. `checks`: how
   * many times a page back from paying has looked for the payment, so it stops after a while.
   */
  deposit?: { cardOpen: boolean; state: DepositPageState | null; checks: number };
}

/** The deposit after acceptance, as the page shows it. */
export interface DepositPageState {
  amountPence: number;
  invoiceId: number;
  state: 'paid' | 'confirming' | 'due';
}

/** How many times (every few seconds) a page back from a card payment looks again before it says it will e-mail. */
export const PAYMENT_CHECKS = 10;

/** Reloads the page a few seconds on, counting in the address, while a card payment is being confirmed. */
export const RECHECK_SCRIPT = `setTimeout(function(){var u=new URL(location.href);u.searchParams.set('checks',String(Number(u.searchParams.get('checks')||'0')+1));location.replace(u.toString())},3000);`;

/**
 * The deposit once accepted: paid, being confirmed (back from paying, before the payment's event
 * has landed: the page looks again every few seconds), or still to pay, by card or by bank
 * transfer from the deposit invoice's page.
 */
function depositSection(input: QuotePageInput): string {
  const deposit = input.deposit?.state;
  if (!deposit || input.quote.answer?.kind !== 'accepted' || input.quote.answer.cancellation) return '';
  const amount = escapeHtml(formatGbp(deposit.amountPence));
  const invoicePage = `/quote/${escapeHtml(input.token)}/invoices/${deposit.invoiceId}`;
  if (deposit.state === 'paid') {
    return `<section class="card status" aria-labelledby="deposit" role="status"><h2 id="deposit">Deposit paid</h2><p>Your deposit of <strong>${amount}</strong> has been paid. Thank you: a receipt has been sent to you by e-mail.</p><p><a href="${invoicePage}">See the deposit invoice</a></p></section>`;
  }
  if (deposit.state === 'confirming') {
    const waited = (input.deposit?.checks ?? 0) >= PAYMENT_CHECKS;
    const words = waited
      ? 'Your payment has not been confirmed yet. If you paid, it will show here and you will get a receipt by e-mail as soon as it is; there is no need to pay again.'
      : 'Your payment is being confirmed. This page updates on its own in a few seconds.';
    return `<section class="card status" aria-labelledby="deposit" role="status"><h2 id="deposit">Deposit of ${amount}</h2><p>${words}</p></section>`;
  }
  const card = input.deposit?.cardOpen
    ? `<form method="post" action="/quote/${escapeHtml(input.token)}/deposit/pay"><button type="submit">Pay the ${amount} deposit by card</button></form>`
    : '';
  return `<section class="card" aria-labelledby="deposit"><h2 id="deposit">Deposit of ${amount} to pay</h2><p>The work is booked once the deposit is paid.</p>${card}<p><a href="${invoicePage}">Pay by bank transfer: see the deposit invoice and bank details</a></p></section>`;
}

/** The deposit the copy asks at the included items' total (the live total moves it as optional items are ticked). */
function depositAtOpen(quote: PublicQuote): { pence: number; hundredths: number; overPence: number } | null {
  if (!quote.deposit) return null;
  const ask = { percent: Number(quote.deposit.percent), overPence: pence(quote.deposit.over) };
  return { pence: depositOnAcceptance(ask, pence(quote.totals.gross)) ?? 0, hundredths: Math.round(ask.percent * 100), overPence: ask.overPence };
}

/** The job's invoices, once there are any: each opens on its own page, under this quote's link. */
function invoiceLinks(input: QuotePageInput): string {
  const invoices = input.invoices ?? [];
  if (invoices.length === 0) return '';
  const rows = invoices
    .map((invoice) => `<li><a href="/quote/${escapeHtml(input.token)}/invoices/${invoice.id}">${escapeHtml(invoice.label)}</a>: ${escapeHtml(invoice.status)}${invoice.owed !== '0.00' ? `, ${escapeHtml(formatGbp(pence(invoice.owed)))} to pay` : ''}</li>`)
    .join('');
  return `<section class="card" aria-labelledby="invoices"><h2 id="invoices">Invoices</h2><ul>${rows}</ul></section>`;
}

/** The money of a quote row in pence (the API carries pounds text). */
const pence = (text: string) => parsePence(text) ?? 0;
const totalsPence = (money: { net: string; vat: string; gross: string }): QuoteTotals => ({ netPence: pence(money.net), vatPence: pence(money.vat), grossPence: pence(money.gross) });

/** Which figure each of quoteTotalRows' rows shows (after the optional row), for the live total. */
const ROW_FIGURES: Record<VatMode, ('net' | 'vat' | 'gross')[]> = { inc: ['gross', 'vat'], ex: ['net', 'vat', 'gross'], none: ['gross'] };

const VAT_WORDS: Record<VatMode, string> = {
  inc: `Prices include VAT at ${VAT_STANDARD_RATE_PERCENT}%.`,
  ex: `Prices are before VAT; VAT at ${VAT_STANDARD_RATE_PERCENT}% is added to the total.`,
  none: 'No VAT is charged.',
};

const LONDON_TIME = { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' } as const;
const when = (iso: string) => `${formatQuoteDate(new Date(iso))} at ${new Date(iso).toLocaleTimeString('en-GB', LONDON_TIME)}`;

const paragraphs = (lines: string[]) => lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('');

function businessCard(quote: PublicQuote): string {
  const b = quote.business;
  const lines = [
    b.address ? `<address class="pre">${escapeHtml(b.address)}</address>` : '',
    b.phone ? `<p>Phone: <a href="tel:${escapeHtml(b.phone.replace(/[^\d+]/g, ''))}">${escapeHtml(b.phone)}</a></p>` : '',
    b.email ? `<p>E-mail: <a href="mailto:${escapeHtml(b.email)}">${escapeHtml(b.email)}</a></p>` : '',
    b.vatNumber ? `<p>${escapeHtml(vatNumberLine(b.vatNumber))}</p>` : '',
  ];
  return `<div><h2>From</h2><p><strong>${escapeHtml(b.name || 'Your tree surgeon')}</strong></p>${lines.join('')}</div>`;
}

function customerCard(quote: PublicQuote): string {
  const site = quote.customer.siteAddress ? `<h3>Site address</h3><address class="pre">${escapeHtml(quote.customer.siteAddress)}</address>` : '';
  return `<div><h2>For</h2><p><strong>${escapeHtml(quote.customer.name)}</strong></p>${site}</div>`;
}

/** An error message under its field, tied to it by id (aria-describedby). */
function fieldError(id: string, messages: string[] | undefined): string {
  return messages?.length ? `<p class="error" id="${id}">${escapeHtml(messages.join(' '))}</p>` : '';
}

function itemList(input: QuotePageInput, open: boolean): string {
  const { quote, token } = input;
  const accepted = quote.answer?.kind === 'accepted' ? new Set(quote.answer.optionalItemIds) : null;
  const ticked = new Set(input.refused?.typed.optionalItemIds ?? []);
  const heading = ITEM_PRICE_HEADING[quote.vatMode];
  // The first photo is near the top of a phone's screen, usually its largest paint: fetched at
  // once and first; the rest wait until scrolled to (later-photos.ts).
  const firstPhoto = quote.items.find((item) => item.kind === 'tree')?.id;
  const items = quote.items.map((item) => {
    const src = `/quote/${escapeHtml(token)}/items/${item.id}/photo`;
    const sized = 'alt="Photo of the tree" decoding="async" width="640" height="416"';
    const photo = item.kind !== 'tree' ? '' : item.id === firstPhoto ? `<img src="${src}" ${sized} fetchpriority="high">` : laterPhoto(src, sized);
    let optional = '';
    if (item.optional && open) {
      // Described by the item's words, so each box says which item it adds.
      optional = `<label class="opt"><input type="checkbox" name="optional" value="${item.id}" form="accept" data-pence="${pence(item.price)}" aria-describedby="item-${item.id}"${ticked.has(item.id) ? ' checked' : ''}> Add this optional item</label>`;
    } else if (item.optional) {
      optional = `<span class="tag">${accepted ? (accepted.has(item.id) ? 'Optional: chosen' : 'Optional: not chosen') : 'Optional'}</span>`;
    }
    return `<li class="item">${photo}<div class="line"><p class="pre" id="item-${item.id}">${escapeHtml(item.description)}</p><p class="price"><span class="sr">${heading}: </span>${formatGbp(pence(item.price))}</p></div>${optional}</li>`;
  });
  return `<ul class="items">${items.join('')}</ul>`;
}

/** The totals as quoteTotalRows words them; while the quote is open, each figure marked for the live total. */
function totalsList(quote: PublicQuote, open: boolean): string {
  const accepted = quote.answer?.kind === 'accepted' && quote.answer.totals ? quote.answer : null;
  const totals = totalsPence(accepted?.totals ?? quote.totals);
  const chosen = new Set(accepted?.optionalItemIds ?? []);
  const chosenPence = quote.items.filter((item) => item.optional && chosen.has(item.id)).reduce((sum, item) => sum + pence(item.price), 0);
  const rows = quoteTotalRows(totals, quote.vatMode, chosenPence);
  const figures = ROW_FIGURES[quote.vatMode];
  const own = rows.slice(rows.length - figures.length);
  const html = own.map((row, i) => {
    const figure = open ? ` data-total="${figures[i]}"` : '';
    return `<div${row.strong ? ' class="strong"' : ''}><dt>${escapeHtml(row.label)}</dt><dd${figure}>${escapeHtml(row.value)}</dd></div>`;
  });
  const optionalRow = rows.length > figures.length ? rows[0]! : null;
  if (optionalRow) html.unshift(`<div><dt>${escapeHtml(optionalRow.label)}</dt><dd>${escapeHtml(optionalRow.value)}</dd></div>`);
  else if (open && quote.items.some((item) => item.optional)) {
    html.unshift(`<div data-row="optional" hidden><dt>Optional items chosen</dt><dd data-total="optional">${formatGbp(0)}</dd></div>`);
  }
  return `<dl class="totals" aria-live="polite">${html.join('')}</dl>`;
}

function answerStatus(input: QuotePageInput): string {
  const { quote } = input;
  const answer = quote.answer;
  if (!answer) return '';
  const business = escapeHtml(quote.business.name || 'The business');
  if (answer.kind === 'declined') {
    return `<section class="card status declined" aria-labelledby="status"><h2 id="status">Declined</h2><p>You declined this quote on ${escapeHtml(when(answer.at))}. ${business} has been told.</p></section>`;
  }
  const chosen = quote.items.filter((item) => item.optional && answer.optionalItemIds.includes(item.id));
  const hasOptional = quote.items.some((item) => item.optional);
  const chosenLine = !hasOptional ? '' : chosen.length ? `<p>Optional items chosen: ${chosen.map((item) => `${escapeHtml(item.description)} (${formatGbp(pence(item.price))})`).join('; ')}.</p>` : '<p>No optional items chosen.</p>';
  const total = answer.totals ? `<p>Total: <strong>${formatGbp(pence(answer.totals.gross))}</strong>${quote.vatMode === 'none' ? '' : ' including VAT'}.</p>` : '';
  const early = quote.consumer ? `<p>${earlyStartLine(answer)}</p>` : '';
  const cancelled = answer.cancellation;
  if (cancelled) {
    const how = cancelled.via === 'online' ? `by ${escapeHtml(cancelled.name ?? 'you')} on this page` : `as recorded by ${business}`;
    return `<section class="card status cancelled" aria-labelledby="status"><h2 id="status">Cancelled</h2><p>This agreement, accepted by <strong>${escapeHtml(answer.name ?? '')}</strong> on ${escapeHtml(when(answer.at))}, was cancelled ${how} on ${escapeHtml(when(cancelled.at))}.</p><p>${business} has been told, and a confirmation has been sent to you by e-mail. Anything you have paid for this work is repaid within 14 days.</p>${fingerprint(input)}</section>`;
  }
  return `<section class="card status" aria-labelledby="status"><h2 id="status">Accepted</h2><p>Accepted by <strong>${escapeHtml(answer.name ?? '')}</strong> on ${escapeHtml(when(answer.at))}.</p>${chosenLine}${total}${early}<p>${business} has been told, and a copy has been sent to you by e-mail.</p>${fingerprint(input)}</section>`;
}

/** Whether the customer asked for an early start: when accepting, or later on this page. */
function earlyStartLine(answer: NonNullable<PublicQuote['answer']>): string {
  if (answer.startEarly) return 'You asked for the work to start within your 14-day cancellation period.';
  const requested = answer.earlyStart?.requestedAt;
  if (requested) return escapeHtml(EARLY_START_MESSAGES.requested(ukToday(new Date(requested))));
  return 'You did not ask for the work to start within your 14-day cancellation period.';
}

/**
 * Once the business has asked (jobs/early-start.ts), while the customer may still cancel and has
 * not asked to start early: the express request in the Regulations' words, their name and a tick.
 */
function earlyStartForm(input: QuotePageInput): string {
  const { quote, token } = input;
  const answer = quote.answer;
  if (answer?.kind !== 'accepted' || !quote.consumer || !answer.canCancel || answer.startEarly) return '';
  if (!answer.earlyStart || answer.earlyStart.requestedAt) return '';
  const refused = input.refused?.form === 'start-early' ? input.refused : undefined;
  const errors = refused?.fields ?? {};
  const typed = refused?.typed ?? {};
  const invalid = (field: string, errorId: string) => (errors[field] ? ` aria-invalid="true" aria-describedby="${errorId}" autofocus` : '');
  const general = refused && !errors.name && !errors.confirm ? `<p class="error" tabindex="-1" autofocus>${escapeHtml(refused.message)}</p>` : '';
  const lastDay = answer.cancellableUntil ? formatBookingDate(answer.cancellableUntil, 'long') : '';
  const business = escapeHtml(quote.business.name || 'The business');
  return `<form id="early-start" class="card" method="post" action="/quote/${escapeHtml(token)}/start-early"><fieldset><legend>Start before the 14 days are over</legend>
<p class="hint">${business} can start the work before your cancellation period ends on ${escapeHtml(lastDay)}, if you ask. If you would rather wait, there is nothing to do.</p>${general}
<div class="words">${paragraphs([...EARLY_START_REQUEST_WORDS])}</div>
<label for="early-start-name">Your full name</label>
<input type="text" id="early-start-name" name="name" autocomplete="name" required minlength="2" maxlength="100" value="${escapeHtml(typed.name ?? '')}"${invalid('name', 'early-start-name-error')}>${fieldError('early-start-name-error', errors.name)}
<div class="check"><input type="checkbox" id="early-start-confirm" name="confirm" value="yes" required${typed.confirm ? ' checked' : ''}${invalid('confirm', 'early-start-confirm-error')}><label for="early-start-confirm">I ask for the work to start within my 14-day cancellation period</label></div>${fieldError('early-start-confirm-error', errors.confirm)}
<button type="submit">Ask for the work to start early</button></fieldset></form>`;
}

/** The accepted copy's fingerprint, with how to check it (core/quote-copy.ts). */
function fingerprint(input: QuotePageInput): string {
  const hash = input.quote.answer?.contentHash;
  if (!hash) return '';
  const api = `${input.origin ?? ''}/api/quotes/${input.token}`;
  return `<details class="proof"><summary>Fingerprint of the quote you accepted</summary><p>SHA-256: <code class="hash">${escapeHtml(groupedFingerprint(hash))}</code></p><p class="hint">${escapeHtml(fingerprintCheck(api))}</p></details>`;
}

/**
 * While a consumer may still cancel online (their 14 days, nothing cancelled, the work not
 * complete): the model form's words as a form, their name and a tick. After the 14 days, why not.
 */
function cancelForm(input: QuotePageInput): string {
  const { quote, token } = input;
  const answer = quote.answer;
  if (answer?.kind !== 'accepted' || !quote.consumer || answer.cancellation) return '';
  const lastDay = answer.cancellableUntil ? formatBookingDate(answer.cancellableUntil, 'long') : null;
  if (!answer.canCancel) {
    return lastDay ? `<section class="card" aria-labelledby="cancel"><h2 id="cancel">Cancelling</h2><p>Your 14-day cancellation period ended on ${escapeHtml(lastDay)}${quote.business.phone ? `. To talk about the work, call ${escapeHtml(quote.business.name || 'the business')} on ${escapeHtml(quote.business.phone)}` : ''}.</p></section>` : '';
  }
  const refused = input.refused?.form === 'cancel' ? input.refused : undefined;
  const errors = refused?.fields ?? {};
  const typed = refused?.typed ?? {};
  const invalid = (field: string, errorId: string) => (errors[field] ? ` aria-invalid="true" aria-describedby="${errorId}" autofocus` : '');
  const general = refused && !errors.name && !errors.confirm ? `<p class="error" tabindex="-1" autofocus>${escapeHtml(refused.message)}</p>` : '';
  return `<form id="cancel" class="card" method="post" action="/quote/${escapeHtml(token)}/cancel"><fieldset><legend>Cancel this agreement</legend>
<p class="hint">You can cancel until the end of ${escapeHtml(lastDay ?? '')} without giving a reason. I/We hereby give notice that I/We cancel my/our contract for the supply of this service.</p>${general}
<label for="cancel-name">Your full name</label>
<input type="text" id="cancel-name" name="name" autocomplete="name" required minlength="2" maxlength="100" value="${escapeHtml(typed.name ?? '')}"${invalid('name', 'cancel-name-error')}>${fieldError('cancel-name-error', errors.name)}
<div class="check"><input type="checkbox" id="cancel-confirm" name="confirm" value="yes" required${invalid('confirm', 'cancel-confirm-error')}><label for="cancel-confirm">I am cancelling this agreement</label></div>${fieldError('cancel-confirm-error', errors.confirm)}
<button type="submit" class="secondary">Cancel this agreement</button></fieldset></form>`;
}

function acceptForm(input: QuotePageInput): string {
  const { quote, token } = input;
  const refused = input.refused?.form === 'accept' ? input.refused : undefined;
  const typed = refused?.typed ?? {};
  const errors = refused?.fields ?? {};
  const invalid = (field: string, errorId: string) => (errors[field] ? ` aria-invalid="true" aria-describedby="${errorId}"` : '');
  // The first field refused takes the focus when the page comes back, without any script.
  const first = ['name', 'acceptTerms', 'optionalItemIds'].find((field) => errors[field]);
  const focus = (field: string) => (first === field ? ' autofocus' : '');
  const early = quote.consumer
    ? `<div class="check"><input type="checkbox" id="start-early" name="startEarly" value="yes" aria-describedby="start-early-hint"${typed.startEarly ? ' checked' : ''}><div><label for="start-early">Start the work within my 14-day cancellation period</label><p class="hint" id="start-early-hint">${escapeHtml(EARLY_START_EXPLAINED)}</p></div></div>`
    : '';
  // A refusal of the optional items (its details name item ids), or one no field names, is said at the form's top.
  const general = refused && (!first || first === 'optionalItemIds') ? `<p class="error" tabindex="-1" autofocus>${escapeHtml(refused.message)}</p>` : '';
  return `<form id="accept" class="card" method="post" action="/quote/${escapeHtml(token)}/accept"><fieldset><legend>Accept the quote</legend>
<p class="hint">Tick any optional items you want above, then accept for <strong data-total="gross">${formatGbp(pence(quote.totals.gross))}</strong><noscript> plus the optional items you tick</noscript>.</p>${depositHint(input)}${general}
<label for="accept-name">Your full name</label>
<input type="text" id="accept-name" name="name" autocomplete="name" required minlength="2" maxlength="100" value="${escapeHtml(typed.name ?? '')}"${invalid('name', 'accept-name-error')}${focus('name')}>${fieldError('accept-name-error', errors.name)}
<div class="check"><input type="checkbox" id="accept-terms" name="acceptTerms" value="yes" required${typed.acceptTerms ? ' checked' : ''}${invalid('acceptTerms', 'accept-terms-error')}${focus('acceptTerms')}><label for="accept-terms">I accept the terms of this quote</label></div>${fieldError('accept-terms-error', errors.acceptTerms)}
${early}
${acceptButtons(input)}</fieldset></form>`;
}

/** What the accept form says of the deposit, when the copy asks one: shown while the total is over its threshold. */
function depositHint(input: QuotePageInput): string {
  const deposit = depositAtOpen(input.quote);
  if (!deposit) return '';
  const how = input.deposit?.cardOpen ? 'You can pay it by card now, or by bank transfer from its invoice.' : 'Its invoice comes with the bank details to pay it.';
  return `<p class="hint" data-deposit-on${deposit.pence === 0 ? ' hidden' : ''}>A deposit of <strong data-total="deposit">${formatGbp(deposit.pence)}</strong> (${escapeHtml(input.quote.deposit!.percent)}% of the total) is asked when you accept. ${how}</p>`;
}

/**
 * The accept form's buttons: with a deposit asked and card payments open, "Accept and pay the £X
 * deposit" and "Pay by bank transfer instead" (both accept); otherwise "Accept the quote". Where
 * optional items move the total across the deposit's threshold, the script shows the right set.
 */
function acceptButtons(input: QuotePageInput): string {
  const deposit = depositAtOpen(input.quote);
  if (!deposit || !input.deposit?.cardOpen) return `<button type="submit" name="pay" value="bank">Accept the quote</button>`;
  const on = deposit.pence > 0;
  return `<div data-deposit-on${on ? '' : ' hidden'}><button type="submit" name="pay" value="card">Accept and pay the <span data-total="deposit">${formatGbp(deposit.pence)}</span> deposit</button><button type="submit" name="pay" value="bank" class="secondary">Pay by bank transfer instead</button></div><div data-deposit-off${on ? ' hidden' : ''}><button type="submit" name="pay" value="bank">Accept the quote</button></div>`;
}

function textForm(input: QuotePageInput, form: 'decline' | 'changes'): string {
  const refused = input.refused?.form === form ? input.refused : undefined;
  const field = form === 'decline' ? 'reason' : 'message';
  const id = `${form}-${field}`;
  const messages = refused?.fields[field];
  const value = (form === 'decline' ? refused?.typed.reason : refused?.typed.message) ?? '';
  const attrs = `${messages ? ` aria-invalid="true" aria-describedby="${id}-error" autofocus` : ''}`;
  const general = refused && !messages ? `<p class="error" tabindex="-1" autofocus>${escapeHtml(refused.message)}</p>` : '';
  const words =
    form === 'decline'
      ? { legend: 'Decline the quote', label: 'Reason (optional)', button: 'Decline the quote', limit: 'maxlength="1000"' }
      : { legend: 'Ask for a change', label: 'What would you like changed?', button: 'Send your request', limit: 'required maxlength="2000"' };
  const hint = form === 'changes' ? '<p class="hint">The quote stays open: you can still accept it as it is.</p>' : '';
  return `<form class="card" method="post" action="/quote/${escapeHtml(input.token)}/${form}"><fieldset><legend>${words.legend}</legend>${hint}${general}
<label for="${id}">${words.label}</label>
<textarea id="${id}" name="${field}" rows="3" ${words.limit}${attrs}>${escapeHtml(value)}</textarea>${fieldError(`${id}-error`, messages)}
<button type="submit" class="secondary">${words.button}</button></fieldset></form>`;
}

/**
 * The consumer's right to cancel and the model form (Consumer Contracts Regulations 2013,
 * Schedule 3), folded away; once accepted, the form is filled in with the agreement's facts.
 */
function consumerRights(quote: PublicQuote): string {
  const b = quote.business;
  const trader = { name: b.name || 'Your tree surgeon', address: b.address, phone: b.phone, email: b.email };
  const answer = quote.answer?.kind === 'accepted' ? quote.answer : null;
  const facts = answer ? modelFormFactsOf(quote, { chosen: answer.optionalItemIds, on: formatQuoteDate(new Date(answer.at)), name: answer.name ?? '' }) : undefined;
  // Each text's first line is its title; the section's heading already says the first.
  const [, ...notice] = cancellationNotice(trader);
  const [formTitle = '', ...form] = modelCancellationForm(trader, facts);
  return `<section class="card rights" aria-labelledby="rights"><h2 id="rights">Your right to cancel</h2>
<p class="hint">As a consumer you have 14 days to cancel after accepting. This is also in the e-mail you receive when you accept.</p>
<details><summary>The cancellation notice</summary>${paragraphs(notice)}</details>
<details><summary>${escapeHtml(formTitle)}</summary>${paragraphs(form)}</details></section>`;
}

/** The deposit's percentage (in hundredths) and threshold for the live total, when the copy asks one. */
function depositData(quote: PublicQuote): string {
  const deposit = depositAtOpen(quote);
  return deposit ? ` data-deposit-hundredths="${deposit.hundredths}" data-deposit-over-pence="${deposit.overPence}"` : '';
}

/** The whole page, as HTML text. */
export function quotePage(input: QuotePageInput): string {
  const { quote, token } = input;
  const open = quote.answer === null;
  const title = `Quote ${quote.reference} from ${quote.business.name || 'your tree surgeon'}`;
  const version = quote.version > 1 ? ` · Version ${quote.version}` : '';
  const included = quote.items.filter((item) => !item.optional).reduce((sum, item) => sum + pence(item.price), 0);
  const notice = input.notice ? `<div class="card status" role="status"><p>${escapeHtml(input.notice)}</p></div>` : '';
  const answerForms = open ? `<h2>Your answer</h2>${acceptForm(input)}${textForm(input, 'decline')}${textForm(input, 'changes')}` : '';
  const body = `<header class="bar"><p>${escapeHtml(quote.business.name || 'Your quote')}</p></header>
<main data-quote data-vat-mode="${quote.vatMode}" data-vat-rate="${VAT_STANDARD_RATE_PERCENT}" data-included-pence="${included}"${depositData(quote)}>
${input.logo ? `<img class="logo" src="/quote/${escapeHtml(token)}/logo" alt="${escapeHtml(quote.business.name ? `${quote.business.name} logo` : 'Logo')}">` : ''}<h1>Quote ${escapeHtml(quote.reference)}</h1>
<p class="meta">Issued ${escapeHtml(formatQuoteDate(new Date(quote.issuedAt)))} · Valid until ${escapeHtml(formatQuoteDate(new Date(quote.validUntil)))}${version} · <a href="/api/quotes/${escapeHtml(token)}/quote.pdf" download>Download as PDF</a></p>
${notice}${answerStatus(input)}
${depositSection(input)}
${invoiceLinks(input)}
<div class="card parties">${businessCard(quote)}${customerCard(quote)}</div>
<section class="card" aria-labelledby="work"><h2 id="work">The work</h2>${itemList(input, open)}${totalsList(quote, open)}<p class="hint">${VAT_WORDS[quote.vatMode]}${open && quote.items.some((i) => i.optional) ? ' Optional items are added to the total when you tick them.' : ''}</p>${quote.protectionNotice ? `<p data-protection>${escapeHtml(quote.protectionNotice)}.</p>` : ''}</section>
<section class="card" aria-labelledby="terms"><h2 id="terms">Terms</h2><p>This quote is valid until ${escapeHtml(formatQuoteDate(new Date(quote.validUntil)))}.</p><details><summary>Read the terms of this quote</summary><div class="pre">${escapeHtml(quote.terms)}</div></details></section>
${answerForms}
${earlyStartForm(input)}
${cancelForm(input)}
${quote.consumer ? consumerRights(quote) : ''}
</main>`;
  const laterPhotos = quote.items.filter((item) => item.kind === 'tree').length > 1;
  const confirming = input.deposit?.state?.state === 'confirming' && (input.deposit.checks ?? 0) < PAYMENT_CHECKS;
  const scripts = [open ? LIVE_TOTAL_SCRIPT : '', laterPhotos ? LATER_PHOTOS_SCRIPT : '', confirming ? RECHECK_SCRIPT : ''].filter(Boolean);
  return htmlDocument({ title, body, accentColor: quote.business.accentColor, nonce: input.nonce, script: scripts.length ? scripts.join('\n') : undefined });
}
