import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../core/jobs';
import { QUOTE_LINK_MESSAGES, type QuoteContent } from '../../core/quote-versions';
import { RateLimits } from '../http/rate-limit';
import { sendWithPdf } from '../jobs/quote-flow';
import { sendDueReminders } from '../jobs/reminders';
import { createLogger } from '../log';
import { grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { logoForm, testLogoPng } from '../../testing/logo';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { pdfText } from '../../testing/quote';
import { analysisIdOf, jobOf } from '../../testing/jobs';

/*
 * The quote's PDF for the customer (docs/product.md, Jobs and quotes): by the link's token at
 * GET /api/quotes/{token}/quote.pdf, attached to the quote's e-mail and its reminder, and, once
 * accepted, to both sides' e-mails with the acceptance printed; always the version as it was
 * sent. And the sender's logo at the head of the customer's page, by the link's own route.
 */
let server: TestServer;
let owner: TestClient;
let ownerEmail: string;
const CUSTOMER = 'anna.customer@example.com';
const HEDGE = 'Reduce the beech hedge by 1 m';

beforeAll(async () => {
  // Every request here comes from one loopback network; the limit itself is quotes.test.ts's to test.
  server = await startTestServer({}, { rateLimits: new RateLimits({ quoteLinksPerAddress: { points: 10_000, windowSeconds: 600 } }) });
  const registered = await registerClient(server);
  owner = registered.client;
  ownerEmail = registered.account.email;
  grantTo(server, registered.account.username, 1000);
  const profile = await owner.request('PATCH', '/api/system-settings', {
    companyProfile: { tradingName: 'Birch Brothers', phone: '01632 960000', email: 'office@birch.example', address: '1 Yard Lane\nLeeds', vatNumber: '', quoteValidityDays: 30 },
  });
  expect(profile.status, await profile.clone().text()).toBe(200);
  expect((await owner.upload('/api/system-settings/logo', logoForm(await testLogoPng()))).status).toBe(200);
});
afterAll(() => server.close());

type Mail = ReturnType<typeof outboxMessages>[number];
const outbox = () => outboxMessages(server.dataDir);

/**
 * The message's PDF: its part is application/pdf, named quote-<reference>.pdf (nodemailer quotes
 * the name only when it must: a name like this one goes as a bare MIME token), base64 decoded.
 */
function attachedPdf(mail: Mail, reference: string): Buffer {
  // The outbox writes Unix newlines: parts between boundary lines, headers before the first blank line.
  const part = mail.raw.split(/\n--\S+\n/).find((p) => /^Content-Type: application\/pdf/im.test(p.slice(0, p.indexOf('\n\n'))));
  expect(part, 'no PDF attached').toBeDefined();
  const end = part!.indexOf('\n\n');
  expect(part!.slice(0, end)).toMatch(new RegExp(`^Content-Disposition: attachment; filename="?quote-${reference}\\.pdf"?$`, 'm'));
  return Buffer.from(part!.slice(end + 2), 'base64');
}

/** The one message to `to` that says each of `words`, since `before` messages. */
function mailTo(to: string, words: string[], before = 0): Mail {
  const found = outbox()
    .slice(before)
    .filter((mail) => addressedTo(mail.text, to) && words.every((w) => mail.text.includes(w)));
  expect(found, `${to}: ${words.join(', ')}`).toHaveLength(1);
  return found[0]!;
}

/** A job of `trees` trees at £600 each and an optional hedge at £175, sent; the token from the e-mailed link. */
async function sentJob(customer: string, trees = 1): Promise<{ job: Job; token: string; mail: Mail }> {
  const analysisIds = await Promise.all(Array.from({ length: trees }, () => analysisIdOf(owner)));
  const made = await jobOf(await owner.post('/api/jobs', { analysisIds, customer: { name: customer, siteAddress: '12 Elm Road\nLeeds' } }), 201);
  await jobOf(await owner.request('PATCH', `/api/jobs/${made.id}`, { items: made.items.map((item) => ({ id: item.id, price: '600' })) }));
  await jobOf(await owner.post(`/api/jobs/${made.id}/lines`, { description: HEDGE, price: '175', optional: true }), 201);
  const before = outbox().length;
  const job = await jobOf(await owner.post(`/api/jobs/${made.id}/send`, { email: CUSTOMER }));
  await mailSettled(server);
  const mail = mailTo(CUSTOMER, ['has sent you a quote', job.reference], before);
  const token = mail.text.match(/\/quote\/([A-Za-z0-9_-]{43})/)?.[1];
  if (!token) throw new Error('no quote link in the e-mail');
  return { job, token, mail };
}

const publicPdf = (token: string) => fetch(`${server.url}/api/quotes/${token}/quote.pdf`);

async function pdfOf(res: Response): Promise<string> {
  expect(res.status, res.status === 200 ? '' : await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return (await pdfText(bytes)).text;
}

describe('the public PDF by the link', () => {
  it.each(['Анна Кузнецова', 'Łukasz Wójcik'])("is the customer's copy for %s: the reference, their name as typed, the total", async (customer) => {
    const { job, token } = await sentJob(customer);
    const res = await publicPdf(token);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="quote-${job.reference}.pdf"`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    const text = await pdfOf(res);
    expect(text).toContain('Birch Brothers');
    expect(text).toContain(`Quote no. ${job.reference}`);
    expect(text).toContain(`Prepared for ${customer}`);
    expect(text).toContain(`${HEDGE} Optional £175.00`);
    expect(text).toContain('Total £600.00');
    expect(text).toContain('Optional items are not included in the total.');
    for (const word of ['onfidence', 'Internal', 'Wood density']) expect(text, word).not.toContain(word);
  });

  it('is the version as sent, not the job as it is now, and downloading it is not a view', async () => {
    const { job, token } = await sentJob('Łukasz Wójcik');
    const tree = job.items.find((item) => item.kind === 'tree')!;
    // The surgeon changes the price after sending: the customer's copy keeps what was sent.
    await jobOf(await owner.request('PATCH', `/api/jobs/${job.id}`, { items: [{ id: tree.id, price: '950' }] }));
    const before = outbox().length;
    const text = await pdfOf(await publicPdf(token));
    expect(text).toContain('Total £600.00');
    expect(text).not.toContain('£950.00');
    await mailSettled(server);
    expect(outbox().slice(before).filter((mail) => mail.text.includes('opened quote'))).toEqual([]);
    expect((await jobOf(await owner.get(`/api/jobs/${job.id}`))).status).toBe('sent');
  });

  it('is a 410 for a withdrawn or replaced link, with its plain sentence, and a 404 for any other', async () => {
    const withdrawn = await sentJob('Анна Кузнецова');
    await jobOf(await owner.post(`/api/jobs/${withdrawn.job.id}/revoke`, {}));
    const replaced = await sentJob('Łukasz Wójcik');
    await jobOf(await owner.post(`/api/jobs/${replaced.job.id}/send`, { email: CUSTOMER }));
    const cases: [string, number, string][] = [
      [withdrawn.token, 410, QUOTE_LINK_MESSAGES.revoked],
      [replaced.token, 410, QUOTE_LINK_MESSAGES.replaced],
      ['A'.repeat(43), 404, QUOTE_LINK_MESSAGES.unknown],
      ['x'.repeat(201), 404, QUOTE_LINK_MESSAGES.unknown],
    ];
    for (const [token, status, message] of cases) {
      const res = await publicPdf(token);
      expect(res.status, message).toBe(status);
      expect(res.headers.get('content-type')).not.toBe('application/pdf');
      expect(await res.json()).toMatchObject({ code: status === 410 ? 'QUOTE_GONE' : 'NOT_FOUND', message });
    }
  });
});

describe('the e-mails carry the PDF', () => {
  it('the quote e-mail: quote-Q-….pdf, application/pdf, the quote as sent', async () => {
    const { job, mail } = await sentJob('Анна Кузнецова', 3);
    const { text } = await pdfText(attachedPdf(mail, job.reference));
    expect(text).toContain(`Quote no. ${job.reference}`);
    expect(text).toContain('Prepared for Анна Кузнецова');
    expect(text).toContain('Total £1,800.00');
  });

  it("an acceptance: the customer's confirmation and the owner's news, each with the accepted PDF", async () => {
    const { job, token } = await sentJob('Łukasz Wójcik');
    const hedge = job.items.find((item) => item.optional)!;
    const before = outbox().length;
    const accepted = await fetch(`${server.url}/api/quotes/${token}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.origin },
      body: JSON.stringify({ name: 'Łukasz Wójcik', acceptTerms: true, optionalItemIds: [hedge.id], startWithinCancellationPeriod: true }),
    });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    await mailSettled(server);
    const mails = [mailTo(CUSTOMER, [`you accepted quote ${job.reference}`], before), mailTo(ownerEmail, [`has accepted quote ${job.reference}`], before)];
    for (const mail of mails) {
      const { text } = await pdfText(attachedPdf(mail, job.reference));
      // The test clock reads 1 June 2026.
      expect(text).toContain('Accepted by Łukasz Wójcik on 1 June 2026');
      expect(text).toContain(`${HEDGE} Optional: chosen £175.00`);
      expect(text).toContain('Optional items chosen £175.00 Total £775.00');
      // The early start asked for is part of the evidence on both copies.
      expect(text).toContain('The customer asked for the work to start within their 14-day cancellation period.');
    }
    // The link's PDF says the same from now on.
    expect(await pdfOf(await publicPdf(token))).toContain('Accepted by Łukasz Wójcik on 1 June 2026');
  });

  it('the reminder', async () => {
    const { job } = await sentJob('Анна Кузнецова');
    const before = outbox().length;
    server.clock.advance(6 * 24 * 60 * 60 * 1000);
    sendDueReminders({ db: server.db, clock: server.clock, mailer: server.mailer, config: server.config, photos: server.photos, logger: createLogger({ destination: { write: () => undefined } }) });
    await mailSettled(server);
    const pdf = attachedPdf(mailTo(CUSTOMER, ['A reminder of the quote', job.reference], before), job.reference);
    expect((await pdfText(pdf)).text).toContain('Prepared for Анна Кузнецова');
  });

  it('a PDF that cannot be made is logged, and its e-mail goes without it', async () => {
    const logs: Record<string, unknown>[] = [];
    const logger = createLogger({ destination: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) } });
    const content = { reference: 'Q-000099' } as QuoteContent;
    const before = outbox().length;
    sendWithPdf({ db: server.db, clock: server.clock, config: server.config, logger }, { to: CUSTOMER, subject: 'Your quote Q-000099', text: 'The link' }, content, () => Promise.reject(new Error('font missing')), 'quote Q-000099 v1', null);
    await mailSettled(server);
    expect(logs.find((line) => line.msg === 'quote PDF not made: the e-mail goes without it')).toMatchObject({ level: 'error', mail: 'quote Q-000099 v1' });
    const { text } = mailTo(CUSTOMER, ['Your quote Q-000099'], before);
    expect(text).toContain('Subject: Your quote Q-000099');
    expect(text).not.toContain('application/pdf');
  });
});

describe("the sender's logo on the customer's page", () => {
  it('heads the page from the link\'s own route, beside "Download as PDF"', async () => {
    const { token } = await sentJob('Łukasz Wójcik');
    const html = await (await fetch(`${server.url}/quote/${token}`)).text();
    expect(html).toContain(`<img class="logo" src="/quote/${token}/logo" alt="Birch Brothers logo">`);
    expect(html).toContain(`<a href="/api/quotes/${token}/quote.pdf" download>Download as PDF</a>`);
    const logo = await fetch(`${server.url}/quote/${token}/logo`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toMatch(/^image\//);
    expect(logo.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await logo.arrayBuffer()).subarray(1, 4).toString('latin1')).toBe('PNG');
    // A link that opens nothing has no logo either.
    expect((await fetch(`${server.url}/quote/${'A'.repeat(43)}/logo`)).status).toBe(404);
  });

  it('is not there for an account without one, and its route is a 404', async () => {
    const { client: other, account } = await registerClient(server);
    grantTo(server, account.username, 10);
    await other.request('PATCH', '/api/system-settings', {
      companyProfile: { tradingName: 'No Logo Trees', phone: '', email: '', address: '', vatNumber: '', quoteValidityDays: 30 },
    });
    const made = await jobOf(await other.post('/api/jobs', { customer: { name: 'Анна Кузнецова', email: CUSTOMER } }), 201);
    await jobOf(await other.post(`/api/jobs/${made.id}/lines`, { description: 'Fell the leylandii', price: '600' }), 201);
    const before = outbox().length;
    await jobOf(await other.post(`/api/jobs/${made.id}/send`, {}));
    await mailSettled(server);
    const token = mailTo(CUSTOMER, ['has sent you a quote', made.reference], before).text.match(/\/quote\/([A-Za-z0-9_-]{43})/)![1]!;
    const html = await (await fetch(`${server.url}/quote/${token}`)).text();
    expect(html).not.toContain('class="logo"');
    expect(html).not.toContain('/logo"');
    expect((await fetch(`${server.url}/quote/${token}/logo`)).status).toBe(404);
  });
});
