import { eq } from 'drizzle-orm';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREW_HOME_HEADER, FIRST_ANSWERS_ELEMENT } from '../../core/crew-home';
import { crewMembers, jobs, teamMembers } from '../../db/schema';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { seedSchedule } from '../../testing/schedule-seed';
import { accountIdOf, addTeamMember } from '../../testing/team';

/*
 * The crew's home as the server sends it (docs/performance.md, The crew's phone): the crew's app
 * page with My days drawn in it and the two answers it was drawn from. The drawing itself is
 * dashboard/crew/first-view.tsx's (first-view.test.tsx); here a stand-in module in the build's
 * place shows what the server gives it and what it does with the answer.
 */

const HOSTILE = 'Ann </script><script>alert(1)</script> & <b>Co</b>';

let root: string;
let server: TestServer;
let sam: TestClient;
let lee: TestClient;
let jobIds: number[];

const page = (client: TestClient, path = '/my-days', headers: Record<string, string> = {}) =>
  fetch(server.url + path, { headers: { cookie: client.cookieHeader(), 'Accept-Encoding': 'identity', ...headers } });

/** The answers the page holds, read back as the phone's script reads them. */
function answersIn(html: string): { me: unknown; myDays: { days: { bookings: { jobId: number; customerName: string }[] }[] }; asOf: number } {
  const match = new RegExp(`<script type="application/json" id="${FIRST_ANSWERS_ELEMENT}">([^<]*)</script>`).exec(html);
  if (!match) throw new Error('no answers in the page');
  return JSON.parse(match[1]!) as ReturnType<typeof answersIn>;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'treeanalyzer-crew-home-'));
  const dist = join(root, 'dashboard');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><head><title>TreeAnalyzer Pro</title><script type="module" crossorigin src="/assets/index-1.js"></script></head><body><div id="root"></div></body>');
  writeFileSync(
    join(dist, 'crew.html'),
    '<!doctype html><head><title>My days · TreeAnalyzer Pro</title><script type="module" crossorigin src="/assets/crew-3.js"></script><link rel="stylesheet" crossorigin href="/assets/crew-4.css"></head><body><div id="root"></div></body>',
  );
  writeFileSync(join(dist, 'assets', 'crew-4.css'), '.crew{color:green}');
  // In the build's place beside the dashboard's folder: one line per booking, as plain text.
  mkdirSync(join(root, 'crew-first-view'));
  writeFileSync(
    join(root, 'crew-first-view', 'first-view.js'),
    `const text = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');
export function renderMyDays(answers) {
  if (!answers.me || !answers.me.member) return null;
  return answers.myDays.days.flatMap((d) => d.bookings).map((b) => '<a data-testid="my-day-booking" href="/my-days/jobs/' + b.jobId + '">' + text(b.customerName) + '</a>').join('');
}`,
  );
  server = await startTestServer({}, { dashboardDir: dist });
  const { client: owner, account } = await registerClient(server);
  const accountId = accountIdOf(server, account.username);
  const today = server.clock.now().toISOString().slice(0, 10);
  const seeded = seedSchedule(server.db, { accountId, crews: 2, bookings: 6, from: today, days: 3, now: server.clock.now() });
  jobIds = seeded.jobIds;
  server.db.update(jobs).set({ customerName: HOSTILE }).where(eq(jobs.id, jobIds[0]!)).run();
  const member = async (firstName: string, crewId: number) => {
    const made = await addTeamMember(server, owner, { role: 'crew', firstName, lastName: 'Field' });
    const row = server.db.select({ id: teamMembers.id }).from(teamMembers).where(eq(teamMembers.userId, made.userId)).get()!;
    server.db.insert(crewMembers).values({ crewId, memberId: row.id }).run();
    return made.client;
  };
  sam = await member('Sam', seeded.crewIds[0]!);
  lee = await member('Lee', seeded.crewIds[1]!);
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe("the crew's home drawn by the server", () => {
  it('holds My days drawn from the same answers as GET /api/auth/me and GET /api/my-days, for nobody but the person', async () => {
    const res = await page(sam);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('vary')).toContain('Cookie');
    // The one page the phone's service worker keeps as this person's My days.
    expect(res.headers.get(CREW_HOME_HEADER.name)).toBe(CREW_HOME_HEADER.value);
    const html = await res.text();
    const answers = answersIn(html);
    expect(answers.me).toEqual(await (await sam.get('/api/auth/me')).json());
    expect(answers.myDays).toEqual(await (await sam.get('/api/my-days')).json());
    expect(answers.asOf).toBe(server.clock.now().getTime());
    const mine = answers.myDays.days.flatMap((d) => d.bookings);
    expect(mine.length).toBeGreaterThan(0);
    // The view is in the page's root, with a link per booking, and the stylesheet is in the page.
    expect(html).toContain(`<div id="root"><a data-testid="my-day-booking" href="/my-days/jobs/${mine[0]!.jobId}">`);
    expect(html).toContain('<style>.crew{color:green}</style>');
    expect(html).toContain('/assets/crew-3.js');
    expect(html).not.toContain('preload');
    // Lee's crew's jobs are not in Sam's page, and the other way round.
    const lees = answersIn(await (await page(lee)).text()).myDays.days.flatMap((d) => d.bookings).map((b) => b.jobId);
    expect(lees.length).toBeGreaterThan(0);
    for (const id of lees) expect(mine.map((b) => b.jobId)).not.toContain(id);
    expect(html).not.toContain('£');
  });

  it("keeps a customer's name as data: it cannot end the answers' element or add markup", async () => {
    const html = await (await page(sam)).text();
    const scripts = html.match(/<script\b/g) ?? [];
    expect(scripts).toHaveLength(2); // the app's, and the answers' data block
    const names = answersIn(html).myDays.days.flatMap((d) => d.bookings).map((b) => b.customerName);
    expect(names).toContain(HOSTILE);
    expect(html).not.toContain('<b>Co</b>');
  });

  it('is compressed as the phone accepts it', async () => {
    const br = await page(sam, '/my-days', { 'Accept-Encoding': 'gzip, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(answersIn(await br.text()).me).toEqual(await (await sam.get('/api/auth/me')).json());
    const gzip = await page(sam, '/my-days', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
  });

  it('a job sheet gets the crew page without answers; a session that ended gets the office app and its sign-in, the hint cleared', async () => {
    const sheetAnswer = await page(sam, `/my-days/jobs/${jobIds[0]}`);
    expect(sheetAnswer.headers.get(CREW_HOME_HEADER.name)).toBeNull();
    const sheet = await sheetAnswer.text();
    expect(sheet).toContain('/assets/crew-3.js');
    expect(sheet).not.toContain(FIRST_ANSWERS_ELEMENT);
    expect(sheet).not.toContain(HOSTILE.slice(0, 8));
    // A hint without a session (expired, signed out elsewhere): no one's days, the sign-in app.
    const stale = await fetch(`${server.url}/my-days`, { headers: { cookie: 'ta_signed_in=1; ta_session=Fe26.2**forged' } });
    expect(stale.headers.get(CREW_HOME_HEADER.name)).toBeNull();
    const text = await stale.text();
    expect(text).toContain('/assets/index-1.js');
    expect(text).not.toContain(FIRST_ANSWERS_ELEMENT);
    expect(stale.headers.getSetCookie().join('\n')).toMatch(/ta_signed_in=;/);
  });
});
