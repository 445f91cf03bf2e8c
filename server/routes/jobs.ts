import { cardPaymentsOpen } from '../card-payments/checkout';
import { arrivalWindowOf } from '../schedule/arrival';
import { lookUpJob } from '../protection/lookup';
import { Hono, type Context } from 'hono';
import { jobCancelSchema, jobCreateSchema, jobLineSchema, jobTreesSchema, jobUpdateSchema, type Job } from '../../core/jobs';
import type { AppEnv } from '../http/context';
import { currentPerson, currentUser, requireUser } from '../http/session';
import { readJson } from '../http/validate';
import { addLine, addTrees, createJob, findOwnJob, updateJob, type JobRow } from '../jobs/jobs';
import { searchOwnJobs } from '../jobs/job-search';
import { jobSummary } from '../jobs/summary';
import { jobListQuerySchema, type JobSummary } from '../../core/job-summary';
import { toJobView, toJobViews } from '../jobs/job-view';
import { withCrewWork } from '../crew-day/job-work-view';
import { recordJobCancellation, sendJobQuote } from '../jobs/quote-flow';
import { revokeQuote } from '../jobs/quote-links';
import { quoteSendSchema } from '../../core/quote-versions';
import { jobPricingFor } from '../jobs/pricing';
import { z } from 'zod';
import { REPORT_COPIES } from '../../core/quote';
import { validationError } from '../http/errors';
import { jobQuotePdf } from '../quotes/job-quote-source';
import { jobBookSchema, jobDoneSchema, ukToday } from '../../core/job-booking';
import { bookJob, markJobDone, moveBooking } from '../jobs/booking';
import { bookingMoveSchema } from '../../core/schedule';
import { askEarlyStart } from '../jobs/early-start';
import { invoiceCreateSchema, type Invoice } from '../../core/invoices';
import { createInvoice, invoicesOfJob } from '../invoices/invoices';
import { toInvoiceView } from '../invoices/invoice-view';

/**
 * Jobs (docs/product.md, Jobs and quotes): the signed-in account's own quotes. Another account's
 * job, lead or analysis is a 404.
 */
export const jobRoutes = new Hono<AppEnv>().use(requireUser);

function ownJob(c: Context<AppEnv>): JobRow {
  return findOwnJob(c.var.deps.db, currentUser(c).id, Number(c.req.param('id')));
}

/** Who is doing it: the signed-in person, recorded on what they make or change (the `by` columns). */
const byPerson = (c: Context<AppEnv>): number => currentPerson(c).user.id;

/** The job as the owner and the office read it, with the crew's day's parts (crew-day/job-work-view.ts). */
const jobView = (c: Context<AppEnv>, row: JobRow): Job => withCrewWork(c.var.deps.db, [toJobView(c.var.deps.db, row)], [row], c.var.deps.clock.now())[0]!;

const answer = (c: Context<AppEnv>, row: JobRow, status: 200 | 201 = 200) => c.json({ job: jobView(c, row) satisfies Job }, status);

/** The account's jobs, newest first; `?status=` one status, `?q=` customers matching every word (job-search.ts). */
jobRoutes.get('/', (c) => {
  const { db } = c.var.deps;
  const parsed = jobListQuerySchema.safeParse({ q: c.req.query('q'), status: c.req.query('status'), waiting: c.req.query('waiting') });
  if (!parsed.success) throw validationError(parsed.error);
  const rows = searchOwnJobs(db, currentUser(c).id, parsed.data, ukToday(c.var.deps.clock.now()));
  return c.json({ jobs: withCrewWork(db, toJobViews(db, rows), rows, c.var.deps.clock.now()) });
});

/** The Jobs page's figures: jobs by status, and what was quoted, accepted and done this UK month (summary.ts). */
jobRoutes.get('/summary', (c) => {
  const { db, clock } = c.var.deps;
  return c.json({ summary: jobSummary(db, currentUser(c).id, clock.now()) satisfies JobSummary });
});

jobRoutes.post('/', async (c) => {
  const { db, clock } = c.var.deps;
  const input = await readJson(c, jobCreateSchema);
  const userId = currentUser(c).id;
  return answer(c, createJob(db, clock, userId, input, jobPricingFor(db, userId), byPerson(c)), 201);
});

jobRoutes.get('/:id{[0-9]+}', (c) => answer(c, ownJob(c)));

/*
 * Every change below finds the job first (another account's job is a 404 whatever the body
 * says), then reads the body, then reads the job again and checks its lock inside the change's
 * own immediate transaction (jobs/jobs.ts rereadOwnJob): a body that arrives after the customer's
 * acceptance is refused (409), whatever the order the requests began in.
 */
jobRoutes.patch('/:id{[0-9]+}', async (c) => {
  const { db, clock } = c.var.deps;
  const job = ownJob(c);
  const input = await readJson(c, jobUpdateSchema);
  return answer(c, updateJob(db, clock, job, input, jobPricingFor(db, job.userId).roundingPence));
});

jobRoutes.post('/:id{[0-9]+}/lines', async (c) => {
  const { db, clock } = c.var.deps;
  const job = ownJob(c);
  const line = await readJson(c, jobLineSchema);
  return answer(c, addLine(db, clock, job, line), 201);
});

/** More trees from History: analyses already in the job are not added twice. */
jobRoutes.post('/:id{[0-9]+}/trees', async (c) => {
  const { db, clock } = c.var.deps;
  const job = ownJob(c);
  const { analysisIds } = await readJson(c, jobTreesSchema);
  return answer(c, addTrees(db, clock, job, analysisIds, jobPricingFor(db, job.userId)));
});

/** Sends the job to its customer (or a typed address) as a new version with a new link; the link before it stops working. */
jobRoutes.post('/:id{[0-9]+}/send', async (c) => {
  const job = ownJob(c);
  const { email } = await readJson(c, quoteSendSchema);
  // The customer's copy carries the protected trees' line (core/protection.ts): the site is looked
  // up first when due (a few seconds at most; a failure sends the quote without the line).
  await lookUpJob(c.var.deps, job.id);
  return answer(c, sendJobQuote(c.var.deps, job, email, cardPaymentsOpen(c.var.deps, job.userId), byPerson(c)));
});

/**
 * Records a cancellation the customer sent by e-mail, letter, phone or in person (the customer's
 * own page cancels online): the day the surgeon was told and how. Both sides are e-mailed.
 */
jobRoutes.post('/:id{[0-9]+}/cancel', async (c) => {
  const job = ownJob(c);
  const input = await readJson(c, jobCancelSchema);
  return answer(c, recordJobCancellation(c.var.deps, job, input, byPerson(c)));
});

/** Withdraws the current link: the customer's page then says so. */
jobRoutes.post('/:id{[0-9]+}/revoke', (c) => {
  const { db, clock } = c.var.deps;
  return answer(c, revokeQuote(db, clock, ownJob(c)));
});

const quotePdfQuerySchema = z.object({ copy: z.enum(REPORT_COPIES, { error: 'copy must be customer or internal' }).default('customer') });

/**
 * The quote as a PDF: the customer's copy, or with `?copy=internal` the surgeon's, with each
 * tree's working. A job not yet accepted is issued now ("Valid until" counts the profile's days
 * from it); an accepted one is the accepted version, with the options chosen and who accepted.
 */
jobRoutes.get('/:id{[0-9]+}/quote.pdf', async (c) => {
  const { db, photos, clock } = c.var.deps;
  const row = ownJob(c);
  const parsed = quotePdfQuerySchema.safeParse({ copy: c.req.query('copy') });
  if (!parsed.success) throw validationError(parsed.error);
  const { copy } = parsed.data;
  const job = toJobView(db, row);
  const pdf = await jobQuotePdf(db, photos, { userId: row.userId, job, copy, now: clock.now() });
  const filename = copy === 'internal' ? `quote-${job.reference}-internal.pdf` : `quote-${job.reference}.pdf`;
  return c.body(new Uint8Array(pdf), 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="${filename}"`,
    'Cache-Control': 'private, no-store',
  });
});

/**
 * Books an accepted job (or changes its date): the customer is e-mailed the booking with a
 * calendar file; `emailed` is false when the job has no address to send it to.
 */
jobRoutes.post('/:id{[0-9]+}/book', async (c) => {
  const job = ownJob(c);
  const booking = await readJson(c, jobBookSchema);
  const booked = bookJob({ ...c.var.deps, arrivalWindow: arrivalWindowOf }, job, booking, byPerson(c));
  return c.json({ job: jobView(c, booked.job) satisfies Job, emailed: booked.emailed, nestingCheck: booked.nestingCheck });
});

/**
 * Moves a booked job as one block (date, start, days, crew; each left out stays): the refusals of
 * booking, and unless `notifyCustomer: false` the customer is e-mailed the old and new dates with
 * the calendar file (jobs/booking.ts moveBooking). Answers as booking does.
 */
jobRoutes.patch('/:id{[0-9]+}/booking', async (c) => {
  const job = ownJob(c);
  const move = await readJson(c, bookingMoveSchema);
  const moved = moveBooking({ ...c.var.deps, arrivalWindow: arrivalWindowOf }, job, move, byPerson(c));
  return c.json({ job: jobView(c, moved.job) satisfies Job, emailed: moved.emailed, nestingCheck: moved.nestingCheck });
});

/**
 * Asks the customer whether they want the work to start within their 14-day cancellation period:
 * they are e-mailed a link to their quote page, which offers the request (jobs/early-start.ts).
 * 409 when there is nothing to ask (not a live consumer agreement, the period over, already asked
 * for by the customer); 400 without the customer's address.
 */
jobRoutes.post('/:id{[0-9]+}/ask-early-start', (c) => {
  const job = ownJob(c);
  return answer(c, askEarlyStart(c.var.deps, job, byPerson(c)));
});

/** The work is done: each tree's actual times go into its analysis's feedback and the calibration. */
jobRoutes.post('/:id{[0-9]+}/done', async (c) => {
  const { db, clock } = c.var.deps;
  const job = ownJob(c);
  const { actuals } = await readJson(c, jobDoneSchema);
  return answer(c, markJobDone(db, clock.now(), job, actuals, byPerson(c)));
});

/**
 * Invoices of the job's accepted quote (docs/product.md, Getting paid): a draft deposit or final
 * invoice, made from the accepted version (409 before acceptance, after a cancellation, or for a
 * second final invoice while one is not credited in full).
 */
jobRoutes.post('/:id{[0-9]+}/invoices', async (c) => {
  const { db, clock } = c.var.deps;
  const job = ownJob(c);
  const input = await readJson(c, invoiceCreateSchema);
  const row = createInvoice(db, clock, job, input, byPerson(c));
  return c.json({ invoice: toInvoiceView(db, row, clock.now()) satisfies Invoice }, 201);
});

/** The job's invoices, oldest first, for its Invoices panel. */
jobRoutes.get('/:id{[0-9]+}/invoices', (c) => {
  const { db, clock } = c.var.deps;
  const job = ownJob(c);
  const now = clock.now();
  return c.json({ invoices: invoicesOfJob(db, job.id).map((row) => toInvoiceView(db, row, now)) satisfies Invoice[] });
});
