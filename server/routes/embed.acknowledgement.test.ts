import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadListSchema, leadThanksSchema } from '../../core/business';
import { requestReference } from '../../core/embed';
import { guidePriceText, sumGuides } from '../../core/homeowner-guide';
import { LEAD_MAIL_WINDOW_MS, sendHeldLeadUpdates } from '../businesses/lead-mail';
import { RateLimits } from '../http/rate-limit';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { TEST_PROFILE } from '../../testing/logo';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';

/*
 * The homeowner is answered (docs/product.md, Embed widget), and the owner is not flooded: a quote
 * request answers its reference, the visitor gets an acknowledgement from the business with
 * that reference, their trees and guide prices, and replies go to the business; a burst of
 * updates to one request reaches the owner as one e-mail in ten minutes, the last one included.
 * All over HTTP against the real server, read from the outbox as a mail app would.
 */
let server: TestServer;
let owner: TestClient;
let ownerEmail: string;
beforeAll(async () => {
  server = await startTestServer(
    { MAIL_FROM: 'TreeAnalyzer Pro <no-reply@trees.test>' },
    {
      rateLimits: new RateLimits({
        embedAnalysesPerAddress: { points: 1000, windowSeconds: 60 },
        embedAnalysesPerBusiness: { points: 1000, windowSeconds: 60 },
        leadsPerAddress: { points: 1000, windowSeconds: 60 },
      }),
    },
  );
  const registered = await registerClient(server, { firstName: 'Ash' });
  owner = registered.client;
  ownerEmail = registered.account.email;
  grantTo(server, registered.account.username, 1000);
});
afterAll(() => server.close());

interface Priced {
  analysisId: number;
  leadToken: string;
  guide: { minPence: number; maxPence: number; vatMode: 'none' | 'inc' | 'ex' } | null;
}

async function estimate(slug: string, fields: Parameters<typeof visitorAnalyze>[2]): Promise<Priced> {
  const res = await visitorAnalyze(server, slug, fields);
  expect(res.status, await res.clone().text()).toBe(201);
  const body = (await res.json()) as { analysis: { id: number; guide: { price: Priced['guide'] } }; leadToken: string };
  return { analysisId: body.analysis.id, leadToken: body.leadToken, guide: body.analysis.guide.price };
}

/** The messages to `to` whose subject contains `subject`, once background mail has settled. */
async function mailsTo(to: string, subject: string) {
  await mailSettled(server);
  return outboxMessages(server.dataDir).filter(({ text }) => addressedTo(text, to) && text.includes(subject));
}

const header = (mail: string, name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(mail)?.[1];

describe('the homeowner is answered', () => {
  it('answers the reference and e-mails the visitor from the business: reference, each tree by its kind or place with its band, the guide prices, the postcode, what happens next; replies go to the profile e-mail', async () => {
    await owner.request('PATCH', '/api/system-settings', { companyProfile: TEST_PROFILE });
    const business = await createBusinessFor(owner, { name: 'Oak & Ash Tree Care' });
    const oak = await estimate(business.slug, { description: 'an oak', treeDetails: { species: 'Oak', height: { band: 'taller_than_house' }, diameter: { band: 'thicker_than_plate' } } });
    const unknown = await estimate(business.slug, { description: '', treeDetails: { height: { band: 'about_two_storey' }, diameterUnknown: true } });
    const res = await visitorLead(server, business.slug, {
      name: 'Jo Homeowner',
      email: 'jo@home.test',
      postcode: 'LS6 2AB',
      contactMethod: 'phone',
      phone: '07700 900123',
      trees: [
        { analysisId: oak.analysisId, leadToken: oak.leadToken },
        { analysisId: unknown.analysisId, leadToken: unknown.leadToken },
      ],
    });
    expect(res.status).toBe(201);
    const thanks = leadThanksSchema.parse(await res.json());
    const leads = leadListSchema.parse(await (await owner.get(`/api/businesses/${business.id}/leads`)).json()).leads;
    expect(thanks.reference).toBe(requestReference(leads[0]!.id));
    expect(thanks.reference).toMatch(/^R-\d{6}$/);

    const [ack, ...more] = await mailsTo('jo@home.test', 'Your quote request');
    expect(more).toHaveLength(0);
    // The owner's news of the request: their Reply reaches the visitor.
    const [news] = await mailsTo(ownerEmail, 'New quote request');
    expect(header(news!.text, 'Reply-To')).toBe('jo@home.test');
    const mail = ack!.text;
    // Quoted as RFC 5322 asks of a name with a special character; the install's address sends.
    expect(header(mail, 'From')).toBe('"Oak & Ash Tree Care" <no-reply@trees.test>');
    expect(header(mail, 'Reply-To')).toBe(TEST_PROFILE.email);
    expect(header(mail, 'Subject')).toBe(`Your quote request to Oak & Ash Tree Care (${thanks.reference})`);
    expect(mail).toContain(`Your reference: ${thanks.reference}`);
    expect(mail).toContain(`1. Oak, 8 to 15 m tall, trunk 27 to 50 cm: ${guidePriceText(oak.guide!)}`);
    expect(mail).toContain(`2. Tree 2 (kind not sure), 4 to 8 m tall: ${guidePriceText(unknown.guide!)}`);
    expect(mail).toContain(`Total for 2 trees: ${guidePriceText(sumGuides([oak.guide, unknown.guide])!)}`);
    expect(mail).toContain('Postcode: LS6 2AB');
    expect(mail).toContain('What happens next');
    expect(mail).toContain('get back to you by phone');
    // The owner's own e-mail names the same reference, so a reply quoting it finds the request.
    const [toOwner] = await mailsTo(ownerEmail, 'New quote request for Oak & Ash Tree Care from Jo Homeowner');
    expect(toOwner!.text).toContain(`Reference: ${thanks.reference}`);
  });

  it("replies go to the owner's account e-mail when the profile has none; no e-mail given, no acknowledgement", async () => {
    const other = await registerClient(server, { firstName: 'Rowan' });
    grantTo(server, other.account.username, 100);
    const business = await createBusinessFor(other.client, { name: 'Rowan Trees' });
    const tree = await estimate(business.slug, { description: 'birch, 8 inch trunk, 25 ft tall' });
    expect((await visitorLead(server, business.slug, { name: 'Sam', email: 'sam@home.test', trees: [tree] })).status).toBe(201);
    const [ack] = await mailsTo('sam@home.test', 'Your quote request to Rowan Trees');
    expect(header(ack!.text, 'Reply-To')).toBe(other.account.email);
    expect(header(ack!.text, 'From')).toBe('Rowan Trees <no-reply@trees.test>');

    const before = outboxMessages(server.dataDir).length;
    const phoneOnly = await estimate(business.slug, { description: 'birch, 8 inch trunk, 25 ft tall' });
    expect((await visitorLead(server, business.slug, { name: 'Kim', phone: '07700 900124', trees: [phoneOnly] })).status).toBe(201);
    await mailSettled(server);
    // The owner's "New quote request" only.
    expect(outboxMessages(server.dataDir).slice(before).map(({ text }) => header(text, 'Subject'))).toEqual(['New quote request for Rowan Trees from Kim']);
  });

  it('a name with a line break or a bidi control cannot add a header: From and Reply-To stay one plain line', async () => {
    const rogue = await registerClient(server, { firstName: 'Lee' });
    grantTo(server, rogue.account.username, 100);
    await rogue.client.request('PATCH', '/api/system-settings', { companyProfile: { ...TEST_PROFILE, email: 'office@lee.test' } });
    const business = await createBusinessFor(rogue.client, { name: 'Lee\u202e Trees' });
    const tree = await estimate(business.slug, { description: 'birch, 8 inch trunk, 25 ft tall' });
    expect((await visitorLead(server, business.slug, { name: 'Ada', email: 'ada@home.test', trees: [tree] })).status).toBe(201);
    const [ack] = await mailsTo('ada@home.test', 'Your quote request');
    expect(header(ack!.text, 'From')).toBe('Lee Trees <no-reply@trees.test>');
    expect(ack!.raw).not.toContain('\u202e');
  });
});

describe('"Updated quote request" e-mails for one request are coalesced', () => {
  it('twenty updates in a burst send the owner one e-mail in ten minutes; the held ones go as one, with the last update, once the window passes', async () => {
    const business = await createBusinessFor(owner, { name: 'Coalesce Trees' });
    const tree = await estimate(business.slug, { description: 'birch, 8 inch trunk, 25 ft tall' });
    const send = async (note: string) => {
      const res = await visitorLead(server, business.slug, { name: 'Pat Burst', email: 'pat@home.test', note, trees: [tree] });
      expect(res.status).toBeLessThan(300);
      return leadThanksSchema.parse(await res.json());
    };
    const first = await send('first');
    for (let i = 1; i <= 19; i += 1) {
      server.clock.advance(20_000);
      expect((await send(`update ${i}`)).reference).toBe(first.reference);
    }
    const subject = 'quote request for Coalesce Trees from Pat Burst';
    expect((await mailsTo(ownerEmail, subject)).map(({ text }) => header(text, 'Subject'))).toEqual([`New ${subject}`]);
    // One acknowledgement too, whatever the number of updates.
    expect(await mailsTo('pat@home.test', 'quote request to Coalesce Trees')).toHaveLength(1);

    // Nothing is sent before the window ends...
    expect(sendHeldLeadUpdates(server)).toBe(0);
    // ...and then the held updates go as one, saying what the last one said.
    server.clock.advance(LEAD_MAIL_WINDOW_MS);
    expect(sendHeldLeadUpdates(server)).toBe(1);
    expect(sendHeldLeadUpdates(server)).toBe(0);
    const mails = await mailsTo(ownerEmail, subject);
    expect(mails).toHaveLength(2);
    expect(header(mails[1]!.text, 'Subject')).toBe(`Updated ${subject}`);
    expect(mails[1]!.text).toContain('Note: update 19');
  });

  it('an update after the window is sent at once, and a quiet request sends nothing more', async () => {
    const business = await createBusinessFor(owner, { name: 'Window Trees' });
    const tree = await estimate(business.slug, { description: 'birch, 8 inch trunk, 25 ft tall' });
    const send = (note: string) => visitorLead(server, business.slug, { name: 'Max Later', phone: '07700 900125', note, trees: [tree] });
    expect((await send('first')).status).toBe(201);
    server.clock.advance(LEAD_MAIL_WINDOW_MS + 1_000);
    expect((await send('an hour later')).status).toBe(200);
    const subject = 'quote request for Window Trees from Max Later';
    // Both are made in the background, so the outbox may hold them in either order.
    const mails = await mailsTo(ownerEmail, subject);
    expect(mails.map(({ text }) => header(text, 'Subject')).sort()).toEqual([`New ${subject}`, `Updated ${subject}`]);
    expect(mails.find(({ text }) => header(text, 'Subject') === `Updated ${subject}`)!.text).toContain('Note: an hour later');
    server.clock.advance(LEAD_MAIL_WINDOW_MS + 1_000);
    expect(sendHeldLeadUpdates(server)).toBe(0);
  });
});
