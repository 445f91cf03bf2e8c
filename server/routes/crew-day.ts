import { Hono, type Context } from 'hono';
import { siteCheckPutSchema, siteNotesSchema, type JobSheet, type SiteCheck } from '../../core/crew-day';
import { ukToday } from '../../core/job-booking';
import { jobReference } from '../../core/jobs';
import { personName } from '../../core/team';
import { readImage } from '../analysis/store';
import { saveSiteNotes } from '../crew-day/site-notes';
import { checkDate, saveSiteCheck, signSiteCheck, siteCheckView } from '../crew-day/site-check';
import { siteCheckPdf } from '../crew-day/site-check-pdf';
import { agreedItems, jobSheet, sheetPhotoPath } from '../crew-day/sheet';
import type { AppEnv } from '../http/context';
import { notFound } from '../http/errors';
import { currentPerson, currentUser, requireUser } from '../http/session';
import { readJson } from '../http/validate';
import { findOwnJob } from '../jobs/jobs';
import { quoteCompanyFor } from '../settings/quote-company';
import { crewJobOf } from './crew-job';

/**
 * The crew's day on a job (docs/product.md, The crew's day): the job sheet and its tree photos, the
 * day's site check (read, filled in, signed, printed), and the office's site notes. Who may call
 * each is core/permissions.ts (crewDay: every role; site-notes: jobs); which job is crewJobOf's
 * (a crew member only one booked on their crew, anything else 404 as another team's job), found
 * before any body is read.
 */
const ID = '{[0-9]+}';

/** The check's day: `?date=` when given (one of the booked days), else today's or the next booked day. */
const dayOf = (c: Context<AppEnv>, job: ReturnType<typeof crewJobOf>) => checkDate(job, c.req.query('date'), ukToday(c.var.deps.clock.now()));

export const crewDayRoutes = new Hono<AppEnv>()
  .use(requireUser)

  .get(`/:id${ID}/sheet`, async (c) => {
    const sheet: JobSheet = await jobSheet(c.var.deps, crewJobOf(c));
    return c.json({ sheet });
  })

  .get(`/:id${ID}/sheet/photos/:itemId${ID}`, async (c) => {
    const job = crewJobOf(c);
    const path = sheetPhotoPath(c.var.deps.db, job, Number(c.req.param('itemId')));
    const bytes = path ? await readImage(c.var.deps.photos, path) : null;
    if (!bytes) throw notFound('Image not found');
    return c.body(new Uint8Array(bytes), 200, { 'Content-Type': 'image/jpeg', 'Cache-Control': 'private, max-age=86400' });
  })

  .get(`/:id${ID}/site-check`, (c) => {
    const job = crewJobOf(c);
    const siteCheck: SiteCheck = siteCheckView(c.var.deps.db, job, dayOf(c, job));
    return c.json({ siteCheck });
  })

  .put(`/:id${ID}/site-check`, async (c) => {
    const job = crewJobOf(c);
    const date = dayOf(c, job);
    const input = await readJson(c, siteCheckPutSchema);
    return c.json({ siteCheck: await saveSiteCheck(c.var.deps, job, currentPerson(c).user.id, date, input) });
  })

  .post(`/:id${ID}/site-check/sign`, (c) => {
    const job = crewJobOf(c);
    const person = currentPerson(c);
    const { db, clock } = c.var.deps;
    return c.json({ siteCheck: signSiteCheck(db, clock.now(), job, { memberId: person.memberId, name: personName(person.user) }, dayOf(c, job)) });
  })

  .get(`/:id${ID}/site-check.pdf`, async (c) => {
    const job = crewJobOf(c);
    const { db, photos, clock } = c.var.deps;
    const check = siteCheckView(db, job, dayOf(c, job));
    const customer = agreedItems(db, job).customer;
    const reference = jobReference(job.id);
    const pdf = await siteCheckPdf(
      { reference, siteAddress: (customer ? customer.siteAddress : job.siteAddress) ?? '', customerName: customer?.name ?? job.customerName },
      check,
      await quoteCompanyFor(db, photos, job.userId),
      clock.now(),
    );
    return c.body(new Uint8Array(pdf), 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="site-check-${reference}-${check.date}.pdf"`,
      'Cache-Control': 'private, no-store',
    });
  })

  // The office's notes for the sheet (the jobs area: the owner and the office).
  .patch(`/:id${ID}/site-notes`, async (c) => {
    const { db, clock } = c.var.deps;
    const job = findOwnJob(db, currentUser(c).id, Number(c.req.param('id')));
    const input = await readJson(c, siteNotesSchema);
    return c.json({ siteNotes: saveSiteNotes(db, clock, job, input) });
  });
