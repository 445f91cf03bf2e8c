import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { freePort, spawnServer, type ServerProcess } from '../build/server-process';
import { analysisForm, photo } from '../testing/analysis';
import { BOUNDARY, multipartBody } from '../testing/hostile-upload';
import { blackPng, rawRequest, sendPaced, trickleJson, type Reply } from './attack-shapes';
import { postJson, registerAccount, ROOT, writeSection } from './lib';

/**
 * The attacks on the public estimator as an attacker tried them (docs/security.md, Abuse of the
 * public estimator, and Uploads and hostile input: a hijacked lead, a pixel bomb, junk that
 * spends the limits, one IPv6 network, and the small ones), each against the real server in its
 * own process (`--import tsx server/main.ts`, the real limits, TRUST_PROXY=true so
 * X-Forwarded-For names the visitor). `ATTACKS_BEFORE_ROOT=/path/to/an/older/checkout` runs every
 * attack against that checkout too, so before and after come from one run on one box. Exits 1
 * when this checkout misses a goal.
 */

const TIMEOUT_MS = 120_000;
const TRICKLE_CAP_MS = 40_000;
/** The measured pixel bomb: 1 x 39,000,000 is under the 40-megapixel check and 78 MB of rows. */
const BOMB_HEIGHT = 39_000_000;
/** A normal paid analysis may take this many times its usual time while an attack runs. */
const MAX_SLOWDOWN = 5;
const DESCRIPTION = 'redbud, 6 inch trunk, 15 ft tall';

interface Row {
  attack: string;
  measure: string;
  shown: string;
  /** What this checkout should show, and whether it did; absent for figures given for scale. */
  goal?: string;
  met?: boolean;
}

interface Estimate {
  status: number;
  code?: string;
  retryAfter: string | null;
  id?: number;
  leadToken?: string;
  price?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const codeOf = (body: string) => {
  try {
    return (JSON.parse(body) as { code?: string }).code;
  } catch {
    return undefined;
  }
};
/** A reply as one cell: `413 PAYLOAD_TOO_LARGE`, `> 120 s`, or the network error. */
const replyCell = (reply: Reply) =>
  reply.status === null ? (reply.error?.startsWith('no answer') ? `> ${TIMEOUT_MS / 1000} s` : `network error (${reply.error})`) : [reply.status, codeOf(reply.body)].filter(Boolean).join(' ');
const isRefusal = (reply: Reply) => reply.status !== null && reply.status >= 400 && reply.status < 500;
/** Non-ASCII characters written as \uXXXX, so a line separator or a bidi override shows in the table. */
const visible = (text: string) => text.replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);

async function measure(root: string): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-attacks-'));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', TRUST_PROXY: 'true' };
  const server = await spawnServer({ nodeArgs: ['--import', 'tsx', 'server/main.ts'], cwd: root, port: await freePort(), env, timeoutMs: 60_000 });
  const rows: Row[] = [];
  const add = (attack: string, measure: string, shown: string, goal?: string, met?: boolean) => {
    rows.push({ attack, measure, shown, goal, met });
    console.log(`  ${attack} | ${measure}: ${shown}${goal === undefined ? '' : ` (goal ${goal}: ${met ? 'met' : 'MISSED'})`}`);
  };
  try {
    // The first account on an empty database is the admin; it owns every business here.
    const owner = await registerAccount(server, { credits: 3000, root, env });
    const own = { cookie: owner.cookie, origin: server.url, 'sec-fetch-site': 'same-origin' };
    const business = async (name: string, extra: Record<string, unknown> = {}) => {
      const slug = `${name}-${process.pid}`;
      const { res } = await postJson(server, '/api/businesses', { name: `Attack ${name}`, slug, hourlyRate: '60.00', aiInstructions: null, ...extra }, owner.cookie);
      return { slug, id: ((await res.json()) as { business: { id: number } }).business.id };
    };
    const json = (method: string, path: string, body: unknown, headers: Record<string, string>) =>
      rawRequest(server.url + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), timeoutMs: TIMEOUT_MS });
    const lead = (slug: string, body: unknown, address: string) => json('POST', `/api/businesses/${slug}/leads`, body, { 'x-forwarded-for': address });
    const estimate = (slug: string, address: string) => visitorEstimate(server, slug, address);

    // A normal paid analysis on the dashboard path, as bench/hostile.bench.ts sends it.
    const form = analysisForm({ image: photo('elm-beside-building.jpg'), description: 'oak, 16 inch trunk, 40 ft tall' });
    const paidBody = Buffer.from(await new Request('http://x/', { method: 'POST', body: form }).arrayBuffer());
    const paidType = `multipart/form-data; boundary=${paidBody.subarray(2, paidBody.indexOf('\r\n')).toString()}`;
    const paid = () => rawRequest(`${server.url}/api/analyze-tree`, { method: 'POST', headers: { ...own, 'content-type': paidType }, body: paidBody, timeoutMs: TIMEOUT_MS });

    await hijack(add, business, estimate, lead);
    await pixelBomb(add, server, business, paid, own);
    await junk(add, server, business, estimate);
    await oneNetwork(add, business, estimate, json, own);
    await smallOnes(add, server, dataDir, business, estimate, lead, json, own);
    return rows;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

type Add = (attack: string, measure: string, shown: string, goal?: string, met?: boolean) => void;
type MakeBusiness = (name: string, extra?: Record<string, unknown>) => Promise<{ slug: string; id: number }>;
type VisitorEstimate = (slug: string, address: string) => Promise<Estimate>;
type Lead = (slug: string, body: unknown, address: string) => Promise<Reply>;
type Json = (method: string, path: string, body: unknown, headers: Record<string, string>) => Promise<Reply>;

/** A visitor's estimate as the widget asks it, from `address` (X-Forwarded-For), with the description that gets a price. */
async function visitorEstimate(server: ServerProcess, slug: string, address: string, description = DESCRIPTION): Promise<Estimate> {
  const res = await fetch(`${server.url}/api/analyze-tree?businessSlug=${slug}`, {
    method: 'POST',
    headers: { 'x-forwarded-for': address },
    body: analysisForm({ businessSlug: slug, description }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const body = (await res.json().catch(() => ({}))) as { code?: string; leadToken?: string; analysis?: { id: number }; cost?: { min: string; max: string } };
  return {
    status: res.status,
    code: body.code,
    retryAfter: res.headers.get('retry-after'),
    id: body.analysis?.id,
    leadToken: body.leadToken,
    price: body.cost ? `${body.cost.min}-${body.cost.max}` : undefined,
  };
}

const estimateCell = (e: Estimate) => [e.status, e.code, e.price && `price ${e.price}`, e.retryAfter && `Retry-After ${e.retryAfter}`].filter(Boolean).join(', ');

/** 1. A stranger's lead for a visitor's estimate, the visitor's own after it, and whether a 404 tells ids apart. */
async function hijack(add: Add, business: MakeBusiness, estimate: VisitorEstimate, lead: Lead) {
  const attack = '1. Lead hijack';
  const { slug } = await business('hijack');
  const other = await business('hijack-other');
  const visitor = await estimate(slug, '198.51.100.1');
  if (visitor.status !== 201 || visitor.id === undefined) throw new Error(`visitor estimate: ${estimateCell(visitor)}`);
  add(attack, 'visitor A: estimate (has a leadToken)', `${estimateCell(visitor)} (${visitor.leadToken ? 'token' : 'no token'})`);
  const stranger = await lead(slug, { analysisId: visitor.id, name: 'Spam', email: 'spam@example.com' }, '198.51.100.2');
  add(attack, 'stranger B: lead for A\'s analysisId', replyCell(stranger), '400/404', stranger.status === 400 || stranger.status === 404);
  const real = await lead(slug, { analysisId: visitor.id, ...(visitor.leadToken && { leadToken: visitor.leadToken }), name: 'Real Visitor', email: 'visitor@example.com' }, '198.51.100.1');
  add(attack, 'visitor A: own lead, with its proof', replyCell(real), '201', real.status === 201);

  // The oracle: the same wrong token for an unknown id, another business's id and a fresh id of this one.
  const fresh = await estimate(slug, '198.51.100.3');
  const elsewhere = await estimate(other.slug, '198.51.100.4');
  const wrong = { leadToken: 'A'.repeat(43), name: 'Probe', email: 'probe@example.com' };
  const probes = [
    ['unknown id', await lead(slug, { analysisId: 999_999, ...wrong }, '198.51.100.2')],
    ["another business's id", await lead(slug, { analysisId: elsewhere.id, ...wrong }, '198.51.100.2')],
    ["this business's id, no lead yet", await lead(slug, { analysisId: fresh.id, ...wrong }, '198.51.100.2')],
  ] as const;
  for (const [what, reply] of probes) add(attack, `stranger, wrong token: ${what}`, replyCell(reply));
  const answers = new Set(probes.map(([, reply]) => `${reply.status} ${reply.body}`));
  add(attack, 'oracle: answers differ by id', answers.size > 1 ? 'yes' : 'no (one answer)', 'no', answers.size === 1);
}

/** 2. The tall PNG, 6 at once to the estimator and 3 at once as a logo, with a paid analysis timed meanwhile. */
async function pixelBomb(add: Add, server: ServerProcess, business: MakeBusiness, paid: () => Promise<Reply>, own: Record<string, string>) {
  const attack = '2. Pixel bomb';
  const bomb = blackPng(1, BOMB_HEIGHT);
  const { slug } = await business('bomb');
  await paid(); // warm-up: the first analysis loads the models' code and sharp
  const normals: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    const reply = await paid();
    if (reply.status !== 201) throw new Error(`normal paid analysis: ${replyCell(reply)} ${reply.body}`);
    normals.push(reply.ms);
  }
  const normal = median(normals);
  add(attack, `greyscale PNG 1 x ${BOMB_HEIGHT.toLocaleString('en-GB')} px`, `${bomb.length.toLocaleString('en-GB')} bytes`);
  add(attack, 'normal paid analysis, before the attack (median of 3)', seconds(normal));

  /** The attacks sent at once, a paid analysis started just after them, all timed. */
  const during = async (label: string, attacks: () => Promise<Reply>[]) => {
    const sent = attacks();
    await sleep(100);
    const analysis = await paid();
    const replies = await Promise.all(sent);
    const slowest = Math.max(...replies.map((r) => r.ms));
    const statuses = [...new Set(replies.map(replyCell))].join(', ');
    const refused = replies.every(isRefusal);
    add(attack, `${label}: answers`, `${statuses}${replies.length > 1 ? ` (${replies.length}x)` : ''}`, '4xx', refused);
    const fast = replies.every((r) => r.status !== null) && slowest <= MAX_SLOWDOWN * normal;
    add(attack, `${label}: answer times`, replies.map((r) => (r.status === null ? `> ${TIMEOUT_MS / 1000} s` : seconds(r.ms))).join(' / '), `<= ${MAX_SLOWDOWN}x normal`, fast);
    const ratio = analysis.ms / normal;
    const kept = analysis.status === 201 && ratio < MAX_SLOWDOWN;
    add(attack, `${label}: paid analysis meanwhile`, `${replyCell(analysis)} in ${seconds(analysis.ms)} (${ratio.toFixed(1)}x normal)`, `201, < ${MAX_SLOWDOWN}x`, kept);
  };

  const image = multipartBody([{ name: 'image', filename: 'tree.png', headers: ['Content-Type: image/png'], content: bomb }]);
  await during('6 at once to the estimator', () =>
    Array.from({ length: 6 }, (_, i) =>
      rawRequest(`${server.url}/api/analyze-tree?businessSlug=${slug}`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'x-forwarded-for': `198.51.100.${11 + i}` },
        body: image,
        timeoutMs: TIMEOUT_MS,
      }),
    ),
  );
  const logo = multipartBody([{ name: 'logo', filename: 'logo.png', headers: ['Content-Type: image/png'], content: bomb }]);
  await during('3 at once as a signed-in logo', () =>
    Array.from({ length: 3 }, () =>
      rawRequest(`${server.url}/api/system-settings/logo`, {
        method: 'POST',
        headers: { ...own, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        body: logo,
        timeoutMs: TIMEOUT_MS,
      }),
    ),
  );
  const health = await rawRequest(`${server.url}/healthz`, { timeoutMs: 10_000 });
  add(attack, '/healthz afterwards', replyCell(health));
}

/** 3. 30 bodies that are not multipart from three addresses, then the business's status and a real visitor. */
async function junk(add: Add, server: ServerProcess, business: MakeBusiness, estimate: VisitorEstimate) {
  const attack = '3. Junk shuts the estimator';
  const { slug } = await business('junk');
  const replies: Reply[] = [];
  for (let i = 0; i < 30; i += 1) {
    replies.push(
      await rawRequest(`${server.url}/api/analyze-tree?businessSlug=${slug}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'x-forwarded-for': `203.0.113.${1 + (i % 3)}` },
        body: 'not a form',
        timeoutMs: TIMEOUT_MS,
      }),
    );
  }
  const counts = new Map<string, number>();
  for (const reply of replies) counts.set(replyCell(reply), (counts.get(replyCell(reply)) ?? 0) + 1);
  add(attack, '30 text/plain bodies from 3 addresses', [...counts].map(([cell, n]) => `${n}x ${cell}`).join(', '));
  const look = await rawRequest(`${server.url}/api/businesses/${slug}`, { headers: { 'x-forwarded-for': '203.0.113.4' }, timeoutMs: TIMEOUT_MS });
  const status = (JSON.parse(look.body) as { status?: string }).status ?? replyCell(look);
  add(attack, 'GET /api/businesses/{slug} status', status);
  const visitor = await estimate(slug, '203.0.113.4');
  add(attack, 'real visitor from a 4th address', estimateCell(visitor), '201 with a price', visitor.status === 201 && visitor.price !== undefined);
  add(attack, 'status honest (says busy when refusing)', status === 'available' && visitor.status !== 201 ? 'no' : 'yes', 'yes', !(status === 'available' && visitor.status !== 201));
}

/** 4. Twelve addresses inside one IPv6 /64, and the largest daily cap an owner may set. */
async function oneNetwork(add: Add, business: MakeBusiness, estimate: VisitorEstimate, json: Json, own: Record<string, string>) {
  const attack = '4. One IPv6 /64';
  const { slug, id } = await business('network');
  const answers: Estimate[] = [];
  for (let i = 1; i <= 12; i += 1) answers.push(await estimate(slug, `2001:db8:1:2::${i.toString(16)}`));
  const estimates = answers.filter((a) => a.status === 201).length;
  const refusal = answers.find((a) => a.status !== 201);
  add(attack, 'estimates for 12 addresses in 2001:db8:1:2::/64', `${estimates} of 12`, '10', estimates === 10);
  add(attack, 'first refusal', refusal ? estimateCell(refusal) : 'none', '429 VISITOR_LIMIT', refusal?.status === 429 && refusal.code === 'VISITOR_LIMIT');
  const cap = await json('PATCH', `/api/businesses/${id}`, { dailyCap: 10_000 }, own);
  add(attack, 'PATCH dailyCap 10000', replyCell(cap), '400', cap.status === 400);
}

/** 5. Wildcard origins, a forged Host, a cross-site log-accounts, a trickled lead, a 9 MB description, a bidi name. */
async function smallOnes(add: Add, server: ServerProcess, dataDir: string, business: MakeBusiness, estimate: VisitorEstimate, lead: Lead, json: Json, own: Record<string, string>) {
  const attack = '5. Small ones';
  const { slug } = await business('small');
  // The trickle runs beside the rest: it only waits.
  const leadBody = JSON.stringify({ analysisId: 1, name: 'Slow', email: 'slow@example.com' }).padEnd(200, ' ');
  const trickle = trickleJson(server.url, `/api/businesses/${slug}/leads`, { 'X-Forwarded-For': '192.0.2.40' }, leadBody, 20, TRICKLE_CAP_MS);

  const created = await json('POST', '/api/businesses', { name: 'Attack wildcard', slug: `wildcard-${process.pid}`, hourlyRate: '60.00', aiInstructions: null, allowedOrigins: ['https://*'] }, own);
  add(attack, 'create with allowedOrigins ["https://*"]', replyCell(created), '400', created.status === 400);
  const target = await business('origins');
  const updated = await json('PATCH', `/api/businesses/${target.id}`, { allowedOrigins: ['https://*'] }, own);
  add(attack, 'update with allowedOrigins ["https://*"]', replyCell(updated), '400', updated.status === 400);

  const control = await json('PATCH', '/api/system-settings', { shareJobTimes: false }, own);
  add(attack, 'PATCH /api/system-settings from our own origin', replyCell(control));
  const forged = await json('PATCH', '/api/system-settings', { shareJobTimes: false }, { ...own, host: 'evil.example', origin: 'http://evil.example' });
  add(attack, 'same with Host: evil.example, Origin: http://evil.example', replyCell(forged), '403', forged.status === 403);

  const navigation = await rawRequest(`${server.url}/api/admin/log-accounts`, {
    headers: { cookie: own.cookie!, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
    timeoutMs: TIMEOUT_MS,
  });
  add(attack, 'admin GET log-accounts, cross-site navigation', replyCell(navigation), '403', navigation.status === 403);

  const oversize: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    try {
      const res = await fetch(`${server.url}/api/analyze-tree?businessSlug=${slug}`, {
        method: 'POST',
        headers: { 'x-forwarded-for': `192.0.2.${21 + i}` },
        body: analysisForm({ businessSlug: slug, description: 'x'.repeat(9 * 1024 * 1024) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      oversize.push(`${res.status} ${codeOf(await res.text()) ?? '(no JSON)'}`);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      oversize.push(`network error (${cause?.code ?? cause?.message ?? String(error)})`);
    }
  }
  add(attack, '9 MB description via Node fetch (loopback speed), 3 times', oversize.join(' / '), '413 each', oversize.every((cell) => cell.startsWith('413 ') && !cell.includes('no JSON')));
  // The same refusal heard by a client on a 50 Mbit/s uplink (6 MB/s) that reads once it has sent
  // everything: a 9 MB description before a 2 MB photo, more than the form holds.
  const paced: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    const upload = new FormData();
    upload.append('businessSlug', slug);
    upload.append('description', 'x'.repeat(9 * 1024 * 1024));
    upload.append('image', new Blob([new Uint8Array(Buffer.concat([photo(), Buffer.alloc(2 * 1024 * 1024)]))], { type: 'image/jpeg' }), 'tree.jpg');
    const request = new Request('http://x/', { method: 'POST', body: upload });
    const bytes = Buffer.from(await request.arrayBuffer());
    const head = [
      `POST /api/analyze-tree?businessSlug=${slug} HTTP/1.1`,
      `Host: ${new URL(server.url).host}`,
      `X-Forwarded-For: 192.0.2.${24 + i}`,
      `Content-Type: ${request.headers.get('content-type')}`,
      `Content-Length: ${bytes.length}`,
    ].join('\r\n');
    const answer = await sendPaced(server.url, head, bytes, 6_000_000);
    paced.push(answer.status === null ? `${answer.error} after ${(answer.sent / 1024 / 1024).toFixed(1)} MB sent` : `${answer.status} ${codeOf(answer.body) ?? '(no JSON)'}`);
  }
  add(attack, '9 MB description + 2 MB photo at 6 MB/s, read after sending, 3 times', paced.join(' / '), '413 each', paced.every((cell) => cell.startsWith('413 ') && !cell.includes('no JSON')));

  const named = await estimate(slug, '192.0.2.30');
  const outbox = join(dataDir, 'outbox');
  const mailsBefore = new Set(listDir(outbox));
  const name = 'Jo\u2028Bcc\u202Eevil';
  const sent = await lead(slug, { analysisId: named.id, ...(named.leadToken && { leadToken: named.leadToken }), name, email: 'jo@example.com' }, '192.0.2.30');
  add(attack, `lead named "${visible(name)}"`, replyCell(sent));
  const subject = sent.status === 201 ? await newLeadSubject(outbox, mailsBefore) : undefined;
  const reaches = subject !== undefined && /[\u2028\u202E]/.test(subject);
  add(attack, "owner's e-mail subject", subject === undefined ? 'no e-mail' : visible(subject));
  add(attack, 'U+2028 / U+202E reach the subject', reaches ? 'yes' : 'no', 'no', subject !== undefined && !reaches);

  const trickled = await trickle;
  const trickleCell = trickled.outcome === 'still open' ? `still open at ${TRICKLE_CAP_MS / 1000} s` : `${trickled.status ?? 'closed'} after ${seconds(trickled.ms)}`;
  add(attack, 'JSON lead trickled (20 of 200 bytes, then quiet)', trickleCell, '408 before the cap', trickled.status === 408);
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The subject of the lead e-mail written to the outbox after `known` (sent in the background: waits up to 10 s). */
async function newLeadSubject(outbox: string, known: Set<string>): Promise<string | undefined> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    for (const file of listDir(outbox).filter((f) => !known.has(f))) {
      const mail = await simpleParser(readFileSync(join(outbox, file)));
      if (mail.subject?.startsWith('New quote request')) return mail.subject;
    }
    await sleep(100);
  }
  return undefined;
}

const targets: { label: string; root: string }[] = [];
const before = process.env.ATTACKS_BEFORE_ROOT;
if (before) {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: before, encoding: 'utf8' }).trim();
  targets.push({ label: `before (${commit})`, root: before });
}
// ATTACKS_AFTER_ROOT measures another checkout as the "after" (this one by default).
targets.push({ label: 'this checkout', root: process.env.ATTACKS_AFTER_ROOT ?? ROOT });

const results: Row[][] = [];
for (const target of targets) {
  console.log(`${target.label}: ${target.root}`);
  results.push(await measure(target.root));
}

const after = results.at(-1)!;
const beforeRows = results.length > 1 ? results[0]! : undefined;
const cell = (text: string) => text.replace(/\|/g, '\\|');
const table = after
  .map((row, i) => {
    const was = beforeRows?.[i];
    const verdict = row.goal === undefined ? '' : `${row.goal}: ${row.met ? 'met' : '**MISSED**'}`;
    return `| ${row.attack} | ${cell(row.measure)} | ${beforeRows ? `${cell(was?.shown ?? '')} | ` : ''}${cell(row.shown)} | ${cell(verdict)} |`;
  })
  .join('\n');
const header = beforeRows ? `| Attack | Measure | ${targets[0]!.label} | ${targets[1]!.label} | Goal (this checkout) |\n| --- | --- | --- | --- | --- |` : '| Attack | Measure | This checkout | Goal |\n| --- | --- | --- | --- |';
const missed = after.filter((row) => row.goal !== undefined && !row.met);

console.log(`\n${header}\n${table}\n`);
writeSection(
  'attacks',
  'Attacks on the public estimator, before and after',
  `
Each attack on the embedded estimator as an attacker tried it, against the server in its own
process (\`--import tsx server/main.ts\`, real limits, \`TRUST_PROXY=true\` so X-Forwarded-For
names the visitor, a fresh DATA_DIR), one server after the other in one run. Times are from
the first byte sent to the whole answer; a request unanswered after ${TIMEOUT_MS / 1000} s is given up.
"x normal" divides a paid analysis's time during the attack by the median of 3 on the same
server just before it.${before ? '' : ' Set `ATTACKS_BEFORE_ROOT` to an older checkout to add its column.'}

${header}
${table}

${missed.length === 0 ? 'Every goal met by this checkout.' : `MISSED: ${missed.map((row) => `${row.attack}, ${row.measure}`).join('; ')}.`}
`,
);
console.log(`wrote bench/results/attacks.md (${missed.length === 0 ? 'every goal met' : `${missed.length} missed`})`);
if (missed.length > 0) process.exitCode = 1;
