import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadListSchema } from '../../core/business';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, looseEmbedLimits, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { hiddenCharacters } from '../../testing/hidden-characters';
import { jobOf } from '../../testing/jobs';
import { addressedTo, decodeQuotedPrintable, mailSettled, outboxMessages } from '../../testing/mail';

/*
 * Control and bidi characters a visitor or customer types (core/plain-text.ts) are dropped where
 * the text comes in, so none reaches the owner's e-mail, the customer's quote page, its e-mails or
 * the calendar file (docs/security.md, Uploads and hostile input). A right-to-left override
 * (U+202E) turns "Hart\u202Egpj.exe" into "Hartexe.jpg" on screen; NUL and VT are forbidden in an
 * .ics (RFC 5545 3.3.11) and some mail clients cut a body at NUL.
 */
let server: TestServer;
let owner: TestClient;

beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: looseEmbedLimits() });
  const registered = await registerClient(server);
  owner = registered.client;
  grantTo(server, registered.account.username, 100);
  await owner.request('PATCH', '/api/system-settings', {
    companyProfile: { tradingName: 'Birch Brothers', phone: '01632 960000', email: 'office@birch.example', address: '1 Yard Lane\nLeeds', vatNumber: '', quoteValidityDays: 30 },
  });
});
afterAll(() => server.close());

const RLO = '\u202e';
const PDF = '\u202c';
const NUL = '\u0000';
const VT = '\u000b';
const ISOLATE = '\u2066';

/** The text of an e-mail's calendar attachment, decoded from its transfer encoding. */
function calendarOf(raw: string): string {
  const part = raw.slice(raw.search(/Content-Type: text\/calendar/i));
  const split = part.search(/\r?\n\r?\n/);
  const headers = part.slice(0, split);
  const body = part.slice(split).replace(/^\r?\n\r?\n/, '');
  const encoded = body.slice(0, body.search(/\r?\n--/));
  const encoding = /Content-Transfer-Encoding: *([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(encoded.replace(/\s+/g, ''), 'base64').toString('utf8');
  return encoding === 'quoted-printable' ? Buffer.from(decodeQuotedPrintable(encoded), 'latin1').toString('utf8') : encoded;
}

describe('a quote request typed with bidi overrides, NUL and VT', () => {
  it("reaches the owner's e-mail, the job, the quote page and its e-mails, the acceptance and the calendar file without them", async () => {
    const business = await createBusinessFor(owner);
    const answer = await visitorAnalyze(server, business.slug);
    expect(answer.status, await answer.clone().text()).toBe(201);
    const estimate = (await answer.json()) as { analysis: { id: number }; leadToken: string };
    const lead = await visitorLead(server, business.slug, {
      analysisId: estimate.analysis.id,
      leadToken: estimate.leadToken,
      name: `Robin ${RLO}Hart${PDF}${NUL}${VT}gpj.exe`,
      email: 'robin@example.com',
      note: `Side gate${VT} code 1234${NUL}\r\nPlease ring ${RLO}first${PDF}\u0007`,
      address: `12 Elm${NUL} Road${ISOLATE}, Leeds${VT}`,
    });
    expect(lead.status, await lead.clone().text()).toBe(201);
    await mailSettled(server);

    // Stored and shown to the owner as typed, less the hidden characters.
    const [stored] = leadListSchema.parse(await (await owner.get(`/api/businesses/${business.id}/leads`)).json()).leads;
    expect(stored).toMatchObject({ name: 'Robin Hart gpj.exe', note: 'Side gate code 1234\nPlease ring first', address: '12 Elm Road, Leeds' });
    // The owner's news of the request (the visitor's acknowledgement goes out beside it, in either order).
    const leadMail = outboxMessages(server.dataDir).find((m) => /^Subject: New quote request/m.test(m.text) && m.text.includes('Robin'));
    expect(leadMail?.text).toContain('Robin Hart gpj.exe');
    expect(leadMail?.text).toContain('Please ring first');

    // The job made from it, a line the surgeon adds, sent, opened and accepted by a name with an override.
    const job = await jobOf(await owner.post('/api/jobs', { leadId: stored!.id }), 201);
    expect(job.customer).toMatchObject({ name: 'Robin Hart gpj.exe', siteAddress: '12 Elm Road, Leeds, LS6 2AB' });
    await jobOf(await owner.post(`/api/jobs/${job.id}/lines`, { description: `Grind the stump${NUL} ${RLO}and take the chippings${VT}`, price: '150' }), 201);
    const sent = await jobOf(await owner.post(`/api/jobs/${job.id}/send`, {}));
    expect(sent.items.map((item) => item.description)).toContain('Grind the stump and take the chippings');
    await mailSettled(server);
    const token = outboxMessages(server.dataDir)
      .map((m) => m.text)
      .find((text) => addressedTo(text, 'robin@example.com') && text.includes(sent.reference))
      ?.match(/\/quote\/([A-Za-z0-9_-]{43})/)?.[1];
    expect(token).toBeDefined();
    const page = await (await fetch(`${server.url}/quote/${token}`)).text();
    expect(page).toContain('Robin Hart gpj.exe');
    expect(hiddenCharacters(page, { lines: true })).toEqual([]);
    const accepted = await fetch(`${server.url}/api/quotes/${token}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.origin },
      body: JSON.stringify({ name: `Robin ${RLO}Hart${PDF}${ISOLATE}`, acceptTerms: true, startWithinCancellationPeriod: true }),
    });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    expect((await jobOf(await owner.get(`/api/jobs/${job.id}`))).acceptance?.name).toBe('Robin Hart');

    // Booked with a note of the surgeon's: the customer's calendar file.
    const booked = await owner.post(`/api/jobs/${job.id}/book`, { date: '2026-12-08', note: `Move the car${NUL}${VT} ${RLO}please` });
    expect(booked.status, await booked.clone().text()).toBe(200);
    await mailSettled(server);
    const bookingMail = outboxMessages(server.dataDir).find((m) => m.raw.includes('text/calendar'));
    expect(bookingMail).toBeDefined();
    const ics = calendarOf(bookingMail!.raw);
    expect(ics.replace(/\r\n /g, '')).toContain('LOCATION:12 Elm Road\\, Leeds');
    expect(ics.replace(/\r\n /g, '')).toContain('Move the car please');
    expect(hiddenCharacters(ics, { lines: true })).toEqual([]);

    // Not one e-mail of the whole way, to the owner or the customer, holds one.
    const mails = outboxMessages(server.dataDir);
    expect(mails.length).toBeGreaterThanOrEqual(4);
    for (const mail of mails) expect(hiddenCharacters(mail.text, { lines: true }), mail.text.slice(0, 300)).toEqual([]);
  });

  it('still refuses a typed line break in a name, as the widget does', async () => {
    const business = await createBusinessFor(owner);
    const estimate = (await (await visitorAnalyze(server, business.slug)).json()) as { analysis: { id: number }; leadToken: string };
    const res = await visitorLead(server, business.slug, { analysisId: estimate.analysis.id, leadToken: estimate.leadToken, name: 'Jo\nBcc: x@evil.example', email: 'jo@example.com' });
    expect(res.status).toBe(400);
  });
});

describe('answers typed on the quote page', () => {
  it('a decline reason and a change request keep their lines and lose their hidden characters', async () => {
    const send = async (email: string) => {
      const job = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Sam Oak', email } }), 201);
      await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Crown lift the oak', price: '300' });
      const sent = await jobOf(await owner.post(`/api/jobs/${job.id}/send`, {}));
      await mailSettled(server);
      const token = outboxMessages(server.dataDir)
        .map((m) => m.text)
        .find((text) => addressedTo(text, email) && text.includes(sent.reference))
        ?.match(/\/quote\/([A-Za-z0-9_-]{43})/)?.[1];
      return { job, token: token! };
    };
    const post = (token: string, action: string, body: unknown) =>
      fetch(`${server.url}/api/quotes/${token}/${action}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.origin }, body: JSON.stringify(body) });

    const changes = await send('sam.changes@example.com');
    expect((await post(changes.token, 'changes', { message: `Could you${NUL} also${VT}\r\nlook at the ${RLO}hedge${PDF}?` })).status).toBe(200);
    const declined = await send('sam.declines@example.com');
    expect((await post(declined.token, 'decline', { reason: `Too dear${NUL}\u001b[31m ${ISOLATE}sorry` })).status).toBe(200);
    const answers = async (id: number) => (await jobOf(await owner.get(`/api/jobs/${id}`))).versions.flatMap((v) => v.answers);
    expect((await answers(changes.job.id)).map((a) => a.message)).toContain('Could you also\nlook at the hedge?');
    expect((await answers(declined.job.id)).map((a) => a.message)).toContain('Too dear[31m sorry');
    await mailSettled(server);
    for (const mail of outboxMessages(server.dataDir)) expect(hiddenCharacters(mail.text, { lines: true })).toEqual([]);
  });
});
