import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceOf } from '../../testing/invoices';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, looseEmbedLimits, visitorAnalyze, visitorLead } from '../../testing/business';
import { startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { jobOf } from '../../testing/jobs';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { pdfText } from '../../testing/quote';
import { ownerWithProfile, sendQuoteTo, sentLinesJob } from '../../testing/quote-links';
import { createCardPaymentsProvider } from '../card-payments/create-provider';
import { cardPaymentsOpen } from '../card-payments/checkout';
import { sendDueInvoiceReminders } from '../invoices/reminders';
import { createLogger } from '../log';

/*
 * What the customer keeps says what they agreed (docs/product.md, Card payments: a deposit on
 * acceptance; Getting paid): the deposit (how much, when, how to pay) on the quote's e-mail and
 * PDF as sent, on the acceptance e-mail and the PDF as accepted, and in the standard terms; a deposit
 * paid by card makes one e-mail (the receipt with the paid deposit invoice), never a bank-transfer
 * request first; the invoice's words ("Deposit VAT invoice", "date of supply" on the page, every
 * way to pay named); the acceptance's short "Fingerprint" line with the app's page on checking it;
 * and one name on the quote and the invoices. All over HTTP with the demo card provider (the
 * default with no Stripe keys), read back from the outbox and the PDFs.
 */
let server: TestServer;
let owner: TestClient;
const PROFILE = { tradingName: 'Oak & Ash Tree Care Ltd', phone: '01242 555010', email: 'office@oakash.example', address: '2 Mill Lane\nCheltenham GL52 3AA', vatNumber: 'GB123456789', quoteValidityDays: 30 };
const BANK = { accountName: 'Oak & Ash Tree Care Ltd', sortCode: '20-00-00', accountNumber: '55779911' };
const RULES = { crewSize: 2, minimumCharge: '0', travel: '0', wastePerTonne: '0', stumpGrinding: '0', accessPlatform: '0', trafficManagement: '0' };
const PAY_LINE = "Pay it by card from your quote page, or by bank transfer to Oak & Ash Tree Care Ltd, sort code 20-00-00, account number 55779911, with the deposit invoice's number as the reference.";
let customers = 0;

beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: looseEmbedLimits() });
  owner = (await ownerWithProfile(server, PROFILE)).client;
  const saved = await owner.request('PATCH', '/api/system-settings', { pricing: { ...RULES, vatMode: 'inc' }, bankDetails: BANK, depositRule: { percent: 30, overAmount: '100' } });
  expect(saved.status, await saved.clone().text()).toBe(200);
});
afterAll(() => server.close());

/** Every message so far, as UTF-8 text with its headers. */
const outbox = (): string[] => outboxMessages(server.dataDir).map((message) => message.text);
const oneLine = (text: string) => text.replace(/\s+/g, ' ');
const subjectOf = (message: string) => /^Subject: (.*)$/m.exec(message)?.[1] ?? '';

async function sentQuote(price = '1020'): Promise<{ jobId: number; token: string; email: string }> {
  customers += 1;
  const email = `jo${customers}@example.com`;
  const { job, token } = await sentLinesJob(server, owner, { name: 'Jo Rowan', email, siteAddress: '12 Elm Road\nCheltenham GL50 2AB' }, [{ description: 'Fell the leaning ash in sections', price }]);
  return { jobId: job.id, token, email };
}

const accept = (token: string, payDeposit: 'card' | 'bank') =>
  fetch(`${server.url}/api/quotes/${token}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify({ name: 'Jo Rowan', acceptTerms: true, payDeposit }),
  });

/** A form post from the customer's own page, not following the redirect. */
const postFromPage = (path: string) =>
  fetch(`${server.url}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin, 'sec-fetch-site': 'same-origin' }, body: '' });

const quotePdf = async (token: string) => oneLine((await pdfText(Buffer.from(await (await fetch(`${server.url}/api/quotes/${token}/quote.pdf`)).arrayBuffer()))).text);

describe('the deposit in what the customer keeps', () => {
  it('the quote e-mail, the PDF as sent and as accepted, the terms and the acceptance e-mail say how much, when and how to pay; paying by card sends one e-mail, the receipt', async () => {
    const { token, email } = await sentQuote();
    await mailSettled(server);
    const quoteMail = oneLine(outbox().find((m) => addressedTo(m, email) && subjectOf(m).startsWith('Your quote from'))!);
    expect(quoteMail).toContain(
      'Deposit: 30% of the accepted total on totals over £100.00, £306.00 for the work as quoted. It is due when you accept, the work is booked once it is paid, and it is taken off the final invoice.',
    );
    expect(quoteMail).toContain(PAY_LINE);

    const sent = await quotePdf(token);
    expect(sent).toContain('Deposit Deposit: 30% of the accepted total on totals over £100.00, £306.00 for the work as quoted.');
    expect(sent).toContain(PAY_LINE);
    // The standard terms no longer say only that payment is due when the work is finished.
    expect(sent).toContain('where this quote asks a deposit, the deposit is due when you accept the quote, and is taken off our final invoice');

    const before = outbox().length;
    const res = await accept(token, 'card');
    expect(res.status).toBe(200);
    const { deposit } = (await res.json()) as { deposit: { amount: string; payUrl: string } };
    expect(deposit.amount).toBe('306.00');
    await mailSettled(server);
    // Accepted, not yet paid: the confirmation only, no deposit invoice asking for a bank transfer.
    const afterAccepting = outbox().slice(before).filter((m) => addressedTo(m, email));
    expect(afterAccepting.map(subjectOf)).toEqual([expect.stringMatching(/^You accepted quote /)]);
    const confirmation = oneLine(afterAccepting[0]!);
    expect(confirmation).toContain('Deposit: £306.00 (30% of the accepted total), due now that you have accepted. The work is booked once it is paid, and it is taken off the final invoice.');
    expect(confirmation).toContain(PAY_LINE);
    // The fingerprint in one short line, with the app's page on how to check it.
    const quote = (await (await fetch(`${server.url}/api/quotes/${token}`)).json()) as { quote: { answer: { contentHash: string } } };
    expect(confirmation).toContain(`Fingerprint: ${quote.quote.answer.contentHash} How to check it: ${server.url}/help/quote-fingerprint`);
    expect(confirmation).not.toMatch(/RFC 8785|SHA-256/);
    expect(await quotePdf(token)).toContain('Deposit: £306.00 (30% of the accepted total), due now that you have accepted.');

    const paidFrom = outbox().length;
    const path = new URL(deposit.payUrl).pathname;
    const paid = await postFromPage(path);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`/quote/${token}?deposit=paid`);
    await mailSettled(server);
    const toCustomer = outbox()
      .slice(paidFrom)
      .filter((m) => addressedTo(m, email));
    expect(toCustomer).toHaveLength(1);
    const receipt = oneLine(toCustomer[0]!);
    expect(receipt).toContain('has received your payment of £306.00');
    expect(receipt).toContain('towards deposit VAT invoice INV-0001');
    expect(receipt).toContain('Deposit VAT invoice INV-0001 is now paid in full.');
    expect(receipt).toContain('filename=invoice-INV-0001.pdf');
    // Never the deposit invoice asking to be paid: the receipt carries it, paid.
    expect(outbox().filter((m) => addressedTo(m, email) && subjectOf(m).startsWith('Deposit VAT invoice'))).toEqual([]);

    // The customer's page for the paid deposit invoice: its title, and the tax point in plain words.
    const link = /\/invoice\/([A-Za-z0-9_-]{43})/.exec(receipt)![1]!;
    const page = await (await fetch(`${server.url}/invoice/${link}`)).text();
    expect(page).toContain('<h1>Deposit VAT invoice INV-0001</h1>');
    expect(page).toMatch(/Issued 1 June 2026, date of supply 1 June 2026, for quote /);
    expect(page.toLowerCase()).not.toContain('tax point');
  });

  it('a deposit paid by bank transfer gets its invoice, naming the card as well; its reminder too', async () => {
    const { token, email } = await sentQuote();
    const before = outbox().length;
    expect((await accept(token, 'bank')).status).toBe(200);
    await mailSettled(server);
    const invoiceMail = outbox()
      .slice(before)
      .find((m) => addressedTo(m, email) && subjectOf(m).startsWith('Deposit VAT invoice'))!;
    expect(subjectOf(invoiceMail)).toMatch(/^Deposit VAT invoice INV-\d{4} from Oak & Ash Tree Care Ltd$/);
    const number = /Deposit VAT invoice (INV-\d{4})/.exec(subjectOf(invoiceMail))![1]!;
    expect(oneLine(invoiceMail)).toContain(
      `Please pay by card on the invoice's page (the link below), or by bank transfer to Oak & Ash Tree Care Ltd, sort code 20-00-00, account number 55779911, with the reference ${number}.`,
    );

    // Overdue: the deposit was due when issued; the first reminder goes 3 days after.
    const cardPayments = createCardPaymentsProvider(server.config, server.clock);
    const remind = () =>
      sendDueInvoiceReminders(
        { db: server.db, clock: server.clock, mailer: server.mailer, config: server.config, photos: server.photos, logger: createLogger({ destination: { write: () => undefined } }) },
        (userId) => cardPaymentsOpen({ db: server.db, cardPayments }, userId),
      );
    server.clock.advance(4 * 86_400_000);
    const reminded = outbox().length;
    expect(remind()).toBeGreaterThan(0);
    await mailSettled(server);
    const reminder = oneLine(outbox().slice(reminded).find((m) => addressedTo(m, email))!);
    expect(reminder).toContain(`Deposit VAT invoice ${number} from Oak & Ash Tree Care Ltd was due on`);
    expect(reminder).toContain("Please pay by card on the invoice's page (the link below), or by bank transfer to Oak & Ash Tree Care Ltd");
  });
});

describe("the fingerprint's page", () => {
  it('says how to check a fingerprint, with no token and nothing of any account, under the pages’ headers', async () => {
    const res = await fetch(`${server.url}/help/quote-fingerprint`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const text = oneLine((await res.text()).replace(/<[^>]+>/g, ' ')).replace(/&quot;/g, '"');
    expect(text).toContain('put /api/quotes/ in place of /quote/');
    expect(text).toContain('Take the part named "quote" , and leave out its "answer" field');
    expect(text).toContain('SHA-256');
  });
});

describe('one name on the quote and its invoices', () => {
  it("a website lead's quote and its invoice both come from the business's name, the invoice naming the profile behind it", async () => {
    const { client, account } = await ownerWithProfile(server, PROFILE);
    grantTo(server, account.username, 10);
    await client.request('PATCH', '/api/system-settings', { pricing: { ...RULES, vatMode: 'inc' }, bankDetails: BANK });
    const business = await createBusinessFor(client, { name: 'Birch Brothers Arboriculture' });
    const visited = await visitorAnalyze(server, business.slug);
    expect(visited.status, await visited.clone().text()).toBe(201);
    const { analysis, leadToken } = (await visited.json()) as { analysis: { id: number }; leadToken: string };
    expect((await visitorLead(server, business.slug, { analysisId: analysis.id, leadToken, name: 'Sam Visitor', email: 'sam.visitor@example.com' })).status).toBe(201);
    const leads = (await (await client.get(`/api/businesses/${business.id}/leads`)).json()) as { leads: { id: number }[] };
    const job = await jobOf(await client.post('/api/jobs', { leadId: leads.leads[0]!.id }), 201);
    await jobOf(await client.post(`/api/jobs/${job.id}/lines`, { description: 'Crown lift the beech', price: '480' }), 201);
    const { token } = await sendQuoteTo(server, client, job.id, 'sam.visitor@example.com');
    expect((await accept(token, 'bank')).status).toBe(200);
    const draft = await invoiceOf(await client.post(`/api/jobs/${job.id}/invoices`, { kind: 'final' }), 201);
    const issued = await invoiceOf(await client.post(`/api/invoices/${draft.id}/issue`));
    await invoiceOf(await client.post(`/api/invoices/${issued.id}/send`, {}));
    await mailSettled(server);

    const toSam = outbox().filter((m) => addressedTo(m, 'sam.visitor@example.com'));
    const fromOf = (subject: RegExp) => /^From: (.*)$/m.exec(toSam.find((m) => subject.test(subjectOf(m)))!)?.[1];
    expect(fromOf(/^Your quote from/)).toMatch(/^"?Birch Brothers Arboriculture"? </);
    expect(fromOf(/^VAT invoice INV-/)).toBe(fromOf(/^Your quote from/));
    expect(subjectOf(toSam.find((m) => /^VAT invoice INV-/.test(subjectOf(m)))!)).toMatch(/ from Birch Brothers Arboriculture$/);

    const pdf = oneLine((await pdfText(Buffer.from(await (await client.get(`/api/invoices/${issued.id}/invoice.pdf`)).arrayBuffer()))).text);
    expect(pdf).toContain('Birch Brothers Arboriculture A trading name of Oak & Ash Tree Care Ltd');
    const link = /\/invoice\/([A-Za-z0-9_-]{43})/.exec(toSam.find((m) => /^VAT invoice INV-/.test(subjectOf(m)))!)![1]!;
    const html = await (await fetch(`${server.url}/invoice/${link}`)).text();
    // The profile's name is someone's typing: escaped on the page.
    expect(html).toContain('<br>A trading name of Oak &amp; Ash Tree Care Ltd<br>');
    const page = oneLine(html.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&'));
    expect(page).toContain('Birch Brothers Arboriculture A trading name of Oak & Ash Tree Care Ltd');
  });
});
