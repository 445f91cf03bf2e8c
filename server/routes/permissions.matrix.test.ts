import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { cardPaymentProblems, jobs } from '../../db/schema';
import { AREAS, mayUse, PUBLIC_WHEN_QUERY, ROUTE_AREAS, routeKey, type AreaName } from '../../core/permissions';
import type { TeamRole } from '../../core/team';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, TestClient } from '../../testing/harness';
import { sampleImage } from '../../testing/images';
import { acceptQuote, sentLinesJob } from '../../testing/quote-links';
import { concretePath } from '../../testing/route-guards';
import { accountIdOf, inviteAndJoin } from '../../testing/team';

/*
 * Roles on every route (docs/security.md, Roles; CONVENTIONS 17): every route the app serves,
 * read from the app itself (Hono's app.routes, not the OpenAPI document), asked by the owner, an
 * office member and a crew member of one team, the owner of another team, and nobody, each answer
 * checked against core/permissions.ts. A route missing from the table, or a table entry for a
 * route that is gone, fails here. The route list is known when the tests are collected, so the
 * server starts here rather than in beforeAll.
 */
const server = await startTestServer();
afterAll(() => server.close());

interface Route {
  method: string;
  path: string;
  key: string;
  access: AreaName | 'public';
}
const routes: Route[] = [];
for (const r of server.app.routes) {
  if (r.method === 'ALL') continue;
  const key = routeKey(r.method, r.path);
  if (routes.some((seen) => seen.key === key)) continue;
  routes.push({ method: r.method, path: r.path, key, access: ROUTE_AREAS[key]! });
}

describe('the table and the app agree', () => {
  it('every route the app serves has an area', () => {
    expect(routes.filter((r) => r.access === undefined).map((r) => r.key)).toEqual([]);
  });
  it('every API route in the table is served', () => {
    // The pages' routes depend on what is built (GET /assets/* only with the dashboard built).
    const served = new Set(routes.map((r) => r.key));
    expect(Object.keys(ROUTE_AREAS).filter((key) => key.split(' ')[1]!.startsWith('/api/') && !served.has(key))).toEqual([]);
  });
});

/** The job booked on the crew member's crew, which their My days shows. */
let bookedOnCrew: number;
let owner: TestClient;
let office: Awaited<ReturnType<typeof inviteAndJoin>>;
let crew: Awaited<ReturnType<typeof inviteAndJoin>>;
let stranger: TestClient;
/** The first team's records, by the path that names them: what another team's owner must get 404 for. */
let ownersIds: { test: (path: string) => boolean; values: Record<string, string> }[];

beforeAll(async () => {
  const { client, account } = await registerClient(server, { firstName: 'Olive', lastName: 'Oakes' });
  owner = client;
  const accountId = accountIdOf(server, account.username);
  // Both join from the invitation e-mail's link, as a person would (testing/team.ts).
  office = await inviteAndJoin(server, owner, 'office', { name: 'Ana Ruiz' });
  crew = await inviteAndJoin(server, owner, 'crew', { name: 'Sam Field' });
  grantTo(server, account.username, 10);

  const business = await createBusinessFor(owner);
  const estimate = (await (await visitorAnalyze(server, business.slug)).json()) as { analysis: { id: number }; leadToken: string };
  await visitorLead(server, business.slug, { analysisId: estimate.analysis.id, leadToken: estimate.leadToken, name: 'Jo', phone: '07700 900123' });
  const leads = (await (await owner.get(`/api/businesses/${business.id}/leads`)).json()) as { leads: { id: number }[] };
  const quoted = await sentLinesJob(server, owner, { name: 'Alex Customer', email: 'alex@example.com' }, [{ description: 'Fell the ash', price: '500' }]);
  // Asking to start within the 14 days, so it can be booked this week (My days, below).
  expect((await acceptQuote(server, quoted.token, [], true)).status).toBe(200);
  const made = (await (await owner.post(`/api/jobs/${quoted.job.id}/invoices`, { kind: 'final' })).json()) as { invoice: { id: number } };
  await owner.post(`/api/invoices/${made.invoice.id}/issue`);
  const paid = (await (await owner.post(`/api/invoices/${made.invoice.id}/payments`, { amount: '10', paidOn: '2026-06-01', method: 'cash' })).json()) as {
    invoice: { payments: { id: number }[] };
  };
  const invited = (await (await owner.post('/api/team/invitations', { email: 'new.climber@example.com', name: 'New Climber', role: 'crew' })).json()) as {
    invitation: { id: number };
  };
  const mail = server.db.$client.prepare('select id from mail_outbox order by id limit 1').pluck().get() as number;
  // A card payment that needs a refund, as a bad event leaves one (card-payments/events.ts).
  const problem = server.db
    .insert(cardPaymentProblems)
    .values({ userId: accountId, invoiceId: made.invoice.id, eventId: 'evt_matrix', amountPence: 1000, currency: 'gbp', reason: 'wrong_amount', createdAt: server.clock.now() })
    .returning()
    .get();
  const crewMade = (await (await owner.post('/api/crews', { name: 'Blue crew', memberIds: [crew.memberId] })).json()) as { crew: { id: number } };
  // The accepted job booked on the crew member's crew this week, so My days has a booking to check for money.
  const booked = await owner.post(`/api/jobs/${quoted.job.id}/book`, { date: '2026-06-02' });
  expect(booked.status, await booked.clone().text()).toBe(200);
  server.db.update(jobs).set({ crewId: crewMade.crew.id }).where(eq(jobs.id, quoted.job.id)).run();
  bookedOnCrew = quoted.job.id;
  stranger = (await registerClient(server)).client;

  const at = (prefix: string) => (path: string) => path.startsWith(prefix);
  ownersIds = [
    { test: at('/api/analysis/'), values: { id: String(estimate.analysis.id) } },
    { test: at('/api/businesses/:id'), values: { id: String(business.id), leadId: String(leads.leads[0]!.id) } },
    { test: at('/api/jobs/'), values: { id: String(quoted.job.id) } },
    { test: at('/api/invoices/'), values: { id: String(made.invoice.id), paymentId: String(paid.invoice.payments[0]!.id) } },
    { test: at('/api/mail-outbox/'), values: { id: String(mail) } },
    { test: at('/api/card-payment-problems/'), values: { id: String(problem.id) } },
    { test: at('/api/team/invitations/:id'), values: { id: String(invited.invitation.id) } },
    { test: at('/api/team/members/'), values: { id: String(office.memberId) } },
    { test: at('/api/crews/'), values: { id: String(crewMade.crew.id) } },
  ];
});

/** An id no record has: an allowed role's request then reaches the route and changes nothing. */
const NO_SUCH_RECORD = '999999';
const hasParameters = (path: string) => /:\w+/.test(path);
const bodyFor = (method: string) => (method === 'GET' || method === 'DELETE' || method === 'HEAD' || method === 'OPTIONS' ? undefined : {});

/** A field or a word a crew member must never be sent (docs/security.md, Roles: crews never see money). */
const MONEY_KEY = /price|total|amount|pence|deposit|paid|owed|rate|vat|credit|balance|bank/i;
function moneyIn(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => moneyIn(v, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [...(MONEY_KEY.test(k) ? [`${path}.${k}`] : []), ...moneyIn(v, `${path}.${k}`)]);
  }
  return [];
}

async function answer(client: TestClient, method: string, path: string) {
  const res = await client.request(method, path, bodyFor(method));
  const text = await res.text();
  let json: { code?: string; message?: string } | undefined;
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

describe.each(routes.filter((r) => r.access !== undefined))('$key', (route) => {
  if (route.access === 'public') {
    it('is public: nobody signed in is neither asked to sign in nor refused a role', async () => {
      const got = await answer(new TestClient(server), route.method, concretePath(route.path));
      expect(got.status, got.text).not.toBe(401);
      expect(got.json?.code).not.toBe('ROLE_FORBIDDEN');
    });
    return;
  }
  const area: AreaName = route.access;
  const publicWith = PUBLIC_WHEN_QUERY[route.key];

  it(`${publicWith ? `without ?${publicWith}, ` : ''}is 401 signed out, and answers each role as the ${area} area says`, async () => {
    // Signed out on our own origin (a visitor's call comes from another site: the route's own tests).
    const signedOut = await answer(new TestClient(server), route.method, concretePath(route.path));
    expect(signedOut.status, signedOut.text).toBe(401);
    expect(signedOut.json?.code).toBe('UNAUTHORIZED');

    const people: [TeamRole, TestClient][] = [
      ['owner', owner],
      ['office', office.client],
      ['crew', crew.client],
    ];
    for (const [role, client] of people) {
      const got = await answer(client, route.method, concretePath(route.path, hasParameters(route.path) ? idsOf(route.path, NO_SUCH_RECORD) : {}));
      if (mayUse(role, area)) {
        expect(got.status, `${role}: ${got.text}`).not.toBe(401);
        expect(got.json?.code, `${role}: ${got.text}`).not.toBe('ROLE_FORBIDDEN');
      } else {
        expect(got.status, `${role}: ${got.text}`).toBe(403);
        // toMatchObject: the analysis route repeats the message as `error`, as its first embeds read it.
        expect(got.json, role).toMatchObject({ code: 'ROLE_FORBIDDEN', message: AREAS[area].refusal });
      }
      if (role === 'crew') {
        expect(got.text, 'a crew member is sent no £').not.toContain('£');
        expect(moneyIn(got.json), 'a crew member is sent no money field').toEqual([]);
      }
    }
  });

  if (hasParameters(route.path)) {
    it("is 404 for another team's owner asking for this team's record", async () => {
      const found = ownersIds.find((r) => r.test(route.path));
      expect(found, `the matrix seeds no record for ${route.path}`).toBeDefined();
      const got = await answer(stranger, route.method, concretePath(route.path, found!.values));
      expect(got.status, got.text).toBe(404);
      expect(got.json?.code).toBe('NOT_FOUND');
    });
  }
});

/** Every parameter of a path given the same value. */
function idsOf(path: string, value: string): Record<string, string> {
  return Object.fromEntries([...path.matchAll(/:(\w+)/g)].map((m) => [m[1]!, value]));
}

describe('the sentences a refused person reads, and what stays theirs', () => {
  it('crew: invoices and jobs are refused with who can; the office reads the same job', async () => {
    const jobs = (await (await owner.get('/api/jobs')).json()) as { jobs: { id: number }[] };
    const jobId = jobs.jobs[0]!.id;
    const invoices = await crew.client.get('/api/invoices');
    expect(invoices.status).toBe(403);
    expect(await invoices.json()).toEqual({ code: 'ROLE_FORBIDDEN', message: 'Only the owner and the office can see invoices and payments.' });
    const job = await crew.client.get(`/api/jobs/${jobId}`);
    expect(job.status).toBe(403);
    expect(((await job.json()) as { message: string }).message).toBe('Only the owner and the office can open jobs and quotes. Your work is in My days.');
    const seen = await office.client.get(`/api/jobs/${jobId}`);
    expect(seen.status).toBe(200);
    expect(((await seen.json()) as { job: { id: number } }).job.id).toBe(jobId);
    expect((await stranger.get(`/api/jobs/${jobId}`)).status).toBe(404);
  });

  it('office: the bank details, the plan and the team are the owner’s, and nothing of a refused patch is saved', async () => {
    const bank = { accountName: 'Oak & Ash Ltd', sortCode: '12-34-56', accountNumber: '12345678' };
    const refused = await office.client.request('PATCH', '/api/system-settings', { bankDetails: { accountName: 'Mallory', sortCode: '65-43-21', accountNumber: '87654321' }, hourlyRate: 99 });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ code: 'ROLE_FORBIDDEN', message: 'Only the owner can change the bank details.' });
    expect((await owner.request('PATCH', '/api/system-settings', { bankDetails: bank })).status).toBe(200);
    const after = (await (await office.client.get('/api/system-settings')).json()) as { bankDetails: { accountName: string }; hourlyRate: string };
    expect(after.bankDetails.accountName).toBe('Oak & Ash Ltd');
    expect(after.hourlyRate).not.toBe('99.00');
    const rate = await office.client.request('PATCH', '/api/system-settings', { hourlyRate: 61 });
    expect(rate.status).toBe(200);
    expect(((await rate.json()) as { hourlyRate: string }).hourlyRate).toBe('61.00');

    for (const [path, message] of [
      ['/api/team', 'Only the owner can manage the team.'],
      ['/api/billing/config', 'Only the owner can change the plan and billing.'],
      ['/api/payments-setup', 'Only the owner can set up card payments.'],
      ['/api/account/export', "Only the owner can download or delete the business's account."],
    ] as const) {
      const res = await office.client.get(path);
      expect(res.status, path).toBe(403);
      expect(await res.json(), path).toEqual({ code: 'ROLE_FORBIDDEN', message });
    }
  });
});

describe("The crew's day", () => {
  it("gives the crew member their crew's job sheet, site check and its record, with no money in them", async () => {
    for (const path of [`/api/jobs/${bookedOnCrew}/sheet`, `/api/jobs/${bookedOnCrew}/site-check`, `/api/jobs/${bookedOnCrew}/site-check?date=2026-06-02`]) {
      const res = await crew.client.get(path);
      const text = await res.text();
      expect(res.status, `${path}: ${text}`).toBe(200);
      expect(text, path).not.toContain('£');
      expect(moneyIn(JSON.parse(text)), path).toEqual([]);
    }
    const pdf = await crew.client.get(`/api/jobs/${bookedOnCrew}/site-check.pdf?date=2026-06-02`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });
});

describe('My days', () => {
  it("gives the crew member their crew's booking, with no money in it", async () => {
    const res = await crew.client.get('/api/my-days');
    expect(res.status).toBe(200);
    const text = await res.text();
    const body = JSON.parse(text) as { days: { date: string; bookings: { jobId: number }[] }[] };
    expect(body.days.find((d) => d.date === '2026-06-02')!.bookings.map((b) => b.jobId)).toEqual([bookedOnCrew]);
    expect(text).not.toContain('£');
    expect(moneyIn(body)).toEqual([]);
  });
});

describe("The crew's work on their crew's job", () => {
  it('answers the timer, the photos and the finish with no money in any of them; the correction of the times is the office’s', async () => {
    const form = new FormData();
    form.append('kind', 'after');
    form.append('photo', new Blob([new Uint8Array(await sampleImage('jpeg', 64, 48))], { type: 'image/jpeg' }), 'after.jpg');
    const answers = [
      // A day ahead of the booking's first day on the test clock: refused in words, with no money.
      await crew.client.post(`/api/jobs/${bookedOnCrew}/work`, { event: 'start', at: '2026-06-01T08:00:00Z', clientId: 'matrix-start-1', reason: 'Matrix' }),
      await crew.client.upload(`/api/jobs/${bookedOnCrew}/photos`, form),
      await crew.client.get(`/api/jobs/${bookedOnCrew}/photos`),
      await crew.client.post(`/api/jobs/${bookedOnCrew}/finish`, { actuals: [] }),
    ];
    expect(answers.map((r) => r.status)).toEqual([400, 201, 200, 200]);
    for (const res of answers) {
      const text = await res.text();
      expect(text).not.toContain('£');
      expect(moneyIn(JSON.parse(text))).toEqual([]);
    }
    const patch = await crew.client.request('PATCH', `/api/jobs/${bookedOnCrew}/actuals`, { actuals: [] });
    expect(patch.status).toBe(403);
  });
});
