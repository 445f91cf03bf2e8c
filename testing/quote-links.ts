import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jobResponseSchema, type Job } from '../core/jobs';
import { registerClient, type TestClient, type TestServer } from './harness';
import { addressedTo, decodeQuotedPrintable, mailSettled } from './mail';

/** Quotes sent and answered over HTTP, as a customer would (docs/product.md, Jobs and quotes). */

function outboxFiles(server: TestServer): string[] {
  try {
    return readdirSync(join(server.dataDir, 'outbox')).sort();
  } catch {
    return [];
  }
}

/**
 * Sends the job's quote to `to` and reads the link's token from the e-mail the customer got:
 * the token is only ever in that e-mail.
 */
export async function sendQuoteTo(server: TestServer, owner: TestClient, jobId: number, to: string): Promise<{ job: Job; token: string }> {
  const before = new Set(outboxFiles(server));
  const res = await owner.post(`/api/jobs/${jobId}/send`, { email: to });
  if (res.status !== 200) throw new Error(`send: ${res.status} ${await res.text()}`);
  const job = jobResponseSchema.parse(await res.json()).job;
  await mailSettled(server);
  for (const file of outboxFiles(server).filter((f) => !before.has(f))) {
    const mail = Buffer.from(decodeQuotedPrintable(readFileSync(join(server.dataDir, 'outbox', file), 'utf8')), 'latin1').toString('utf8');
    // This job's quote e-mail: not another message to the same customer (an earlier acceptance's, whose PDF came late).
    const token = addressedTo(mail, to) && mail.includes(job.reference) ? mail.match(/\/quote\/([A-Za-z0-9_-]{43})/)?.[1] : undefined;
    if (token) return { job, token };
  }
  throw new Error(`no quote link e-mailed to ${to}`);
}

/**
 * The customer accepts by their link, choosing `optionalItemIds`; with `startEarly`, they also ask
 * for the work to start within their 14-day cancellation period (so it may be booked inside it).
 */
export async function acceptQuote(server: TestServer, token: string, optionalItemIds: number[] = [], startEarly = false): Promise<Response> {
  return fetch(`${server.url}/api/quotes/${token}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify({ name: 'Alex Customer', acceptTerms: true, optionalItemIds, startWithinCancellationPeriod: startEarly }),
  });
}

/** The company profile the quote tests send under: replies go to its e-mail. */
export const BIRCH_PROFILE = { tradingName: 'Birch Brothers', phone: '01632 960000', email: 'office@birch.example', address: '1 Yard Lane\nLeeds', vatNumber: '', quoteValidityDays: 30 };

/** A new account with `profile` as its company profile, signed in. */
export async function ownerWithProfile(server: TestServer, profile: Record<string, unknown> = BIRCH_PROFILE) {
  const registered = await registerClient(server);
  const res = await registered.client.request('PATCH', '/api/system-settings', { companyProfile: profile });
  if (res.status !== 200) throw new Error(`profile: ${res.status} ${await res.text()}`);
  return registered;
}

/** A job of typed lines for `customer`, sent to their e-mail; the link's token from that e-mail. */
export async function sentLinesJob(
  server: TestServer,
  owner: TestClient,
  customer: { name: string; email: string; siteAddress?: string },
  lines: { description: string; price: string; optional?: boolean }[],
): Promise<{ job: Job; token: string }> {
  const made = await owner.post('/api/jobs', { customer });
  if (made.status !== 201) throw new Error(`job: ${made.status} ${await made.text()}`);
  const { id } = jobResponseSchema.parse(await made.json()).job;
  for (const line of lines) {
    const added = await owner.post(`/api/jobs/${id}/lines`, line);
    if (added.status !== 201) throw new Error(`line: ${added.status} ${await added.text()}`);
  }
  return sendQuoteTo(server, owner, id, customer.email);
}
