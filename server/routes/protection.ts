import { Hono, type Context } from 'hono';
import { protectionRecordSchema, type Protection } from '../../core/protection';
import type { AppEnv } from '../http/context';
import { currentUser, requireUser } from '../http/session';
import { readJson } from '../http/validate';
import { bookedNestingCheck } from '../jobs/booking';
import { findOwnJob, type JobRow } from '../jobs/jobs';
import { lookUpJob } from '../protection/lookup';
import { protectionOf, saveProtectionRecord } from '../protection/protection';
import { section211ResponseSchema, section211BodySchema, type Section211 } from '../../core/section-211';
import { noticeOf, saveNotice, type NoticeJob } from '../protection/section-211';
import { section211Pdf } from '../protection/section-211-pdf';
import { toJobView } from '../jobs/job-view';
import { quoteCompanyFor } from '../settings/quote-company';

/**
 * A job's protected trees (core/protection.ts): the lookup of its postcode, the surgeon's record,
 * the earliest start and the nesting season. Another account's job is a 404 (jobs' own lookup).
 * GET asks the services when the lookup is due (never asked, failed an hour ago, a month old:
 * server/protection/lookup.ts); POST .../lookup asks now. Each call is bounded to a few seconds,
 * and a failure answers the job as it stands, "not checked yet".
 */
export const protectionRoutes = new Hono<AppEnv>().use(requireUser);

function ownJob(c: Context<AppEnv>): JobRow {
  return findOwnJob(c.var.deps.db, currentUser(c).id, Number(c.req.param('id')));
}

const answer = (c: Context<AppEnv>, job: JobRow) => c.json({ protection: protectionOf(c.var.deps.db, job, bookedNestingCheck(c.var.deps.db, job)) satisfies Protection });

/** What a refused lookup says (429 with Retry-After): the job's page shows the rest as it stands. */
const LOOKUP_REFUSAL = {
  message: (seconds: number) => {
    const minutes = Math.ceil(seconds / 60);
    return `You have asked for many protected-tree lookups in a short time. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
  },
};

/**
 * The job's lookup within the account's allowance (http/rate-limit.ts protectionLookupsPerAccount),
 * spent only when the services would be asked, and one lookup a postcode at a time for the app
 * (PostcodeLookups): thirty pages asking at once make one lookup.
 */
function lookUp(c: Context<AppEnv>, job: JobRow, force: boolean): Promise<void> {
  const key = String(currentUser(c).id);
  return lookUpJob(c.var.deps, job.id, { force, shared: c.var.postcodeLookups, admit: () => c.var.limits.consume('protectionLookupsPerAccount', key, LOOKUP_REFUSAL) });
}

protectionRoutes.get('/:id{[0-9]+}/protection', async (c) => {
  const job = ownJob(c);
  await lookUp(c, job, false);
  return answer(c, job);
});

protectionRoutes.post('/:id{[0-9]+}/protection/lookup', async (c) => {
  const job = ownJob(c);
  await lookUp(c, job, true);
  return answer(c, job);
});

protectionRoutes.put('/:id{[0-9]+}/protection/record', async (c) => {
  const { db, clock } = c.var.deps;
  const job = ownJob(c);
  const body = await readJson(c, protectionRecordSchema);
  saveProtectionRecord(db, clock.now(), job.id, body);
  return answer(c, job);
});

/** The job as the notice reads it: its reference, customer, site and lines. */
function noticeJob(c: Context<AppEnv>): NoticeJob {
  const row = ownJob(c);
  const job = toJobView(c.var.deps.db, row);
  return { id: row.id, userId: row.userId, reference: job.reference, customerName: job.customer.name, siteAddress: job.customer.siteAddress, items: job.items };
}

const noticeAnswer = (c: Context<AppEnv>, job: NoticeJob) => c.json(section211ResponseSchema.parse({ notice: noticeOf(c.var.deps.db, job) satisfies Section211 }));

/**
 * The section 211 notice's trees, drafted from the job's estimates with the surgeon's
 * corrections (core/section-211.ts), whatever the lookup found: the public data is incomplete
 * and the surgeon decides. PUT keeps the corrections, which the PDF then prints.
 */
protectionRoutes.get('/:id{[0-9]+}/section-211', (c) => noticeAnswer(c, noticeJob(c)));

protectionRoutes.put('/:id{[0-9]+}/section-211', async (c) => {
  const { db, clock } = c.var.deps;
  ownJob(c);
  const body = await readJson(c, section211BodySchema);
  // The job's lines read again after the body, and checked and written with no await between (CONVENTIONS 15).
  const job = noticeJob(c);
  saveNotice(db, clock.now(), job, body);
  return noticeAnswer(c, job);
});

/** The notice as a PDF (server/protection/section-211-pdf.ts). */
protectionRoutes.get('/:id{[0-9]+}/section-211.pdf', async (c) => {
  const { db, photos, clock } = c.var.deps;
  const job = noticeJob(c);
  const company = await quoteCompanyFor(db, photos, job.userId);
  const pdf = await section211Pdf(db, photos, job, company, clock.now());
  return c.body(new Uint8Array(pdf), 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="section-211-${job.reference}.pdf"`,
    'Cache-Control': 'private, no-store',
  });
});
