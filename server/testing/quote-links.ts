import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jobResponseSchema, type Job } from '../../core/jobs';
import type { TestClient, TestServer } from './harness';
import { decodeQuotedPrintable, mailSettled } from './mail';

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
    const token = mail.includes(`To: ${to}`) ? mail.match(/\/quote\/([A-Za-z0-9_-]{43})/)?.[1] : undefined;
    if (token) return { job, token };
  }
  throw new Error(`no quote link e-mailed to ${to}`);
}

/** The customer accepts by their link, choosing `optionalItemIds`. */
export async function acceptQuote(server: TestServer, token: string, optionalItemIds: number[] = []): Promise<Response> {
  return fetch(`${server.url}/api/quotes/${token}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify({ name: 'Alex Customer', acceptTerms: true, optionalItemIds, startWithinCancellationPeriod: false }),
  });
}
