import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { analysisListQuerySchema, feedbackSchema, type AnalysisList, type AnalyzeResponse } from '../../core/analysis';
import type { EmbedAnalyzeResponse, EmbedNeedsDetails } from '../../core/embed-api';
import type { NeedsDetails } from '../../core/tree-details';
import { analyseForAccount, analyseForVisitor } from '../businesses/analyse';
import { refuseIfUnpayable } from '../analysis/payment';
import type { BusinessRow } from '../businesses/businesses';
import { isPublicCrossOrigin, publicBusiness, publicCors } from '../http/public-access';
import { giveBackOnRefusal, isShapeRefusal, lookBeforeUpload, spendOnUpload, visitorGuard } from '../http/visitor-limits';
import { buildReportPdf } from '../quotes/report';
import { saveFeedback } from '../analysis/feedback';
import { decodeHistoryCursor, listHistoryPage } from '../analysis/history';
import { analysisPageView, findOwnAnalysis, readImage, referenceFor, toAnalysisView, toEmbedAnalysis } from '../analysis/store';
import { readAnalysisUpload, uploadBodyLimit } from '../http/upload-limit';
import type { AppEnv } from '../http/context';
import type { UploadInput } from '../analysis/upload';
import { ApiError, notFound, validationError } from '../http/errors';
import { currentPerson, currentUser, requireUser } from '../http/session';
import { readJson } from '../http/validate';
import { quoteCompanyFor } from '../settings/quote-company';
import { getSettings } from '../settings/settings';
import { reportQuerySchema, type QuoteRecipientResponse } from '../../core/quote';
import { quoteRecipientFor } from '../analysis/quote-recipient';

/** The analysis and its results (docs/product.md, Analysis and API). */
export const analysisRoutes = new Hono<AppEnv>();

/**
 * A visitor's business, looked at: it exists and lists this site (else 404 / 403), and the
 * visitor's network, the business's rate and its daily cap have room and its owner can pay.
 * Nothing is spent here (visitor-limits.ts): the points are spent once the upload is read, and
 * runAnalysis reserves the credits, atomically.
 */
async function lookAtVisitor(c: Context<AppEnv>, slug: string): Promise<BusinessRow> {
  const business = publicBusiness(c, slug);
  c.set('embedBusiness', business);
  await lookBeforeUpload(c, business);
  return business;
}

/**
 * A visitor's analysis on a business's site names the business in the query string
 * (`?businessSlug=`), so everything that can refuse it (unknown business, a site not on its
 * list, rate limits, the daily cap, an owner who cannot pay) does so before the upload is
 * read. No session is needed or used: the owner pays, at the business's rate. A call from
 * another site that names its business in the form only (as the original API had it) passes here and is
 * looked at, by the same checks, once the form is read (the form is small and bounded).
 */
const embedGate: MiddlewareHandler<AppEnv> = async (c, next) => {
  const slug = c.req.query('businessSlug');
  if (slug === undefined) {
    if (isPublicCrossOrigin(c)) return next();
    if (!c.var.user) throw new ApiError('UNAUTHORIZED', 'Please sign in to continue');
    // A signed-in user who cannot pay is refused before the upload is read or decoded;
    // the reservation still decides, atomically, once the upload is in.
    refuseIfUnpayable(c.var.deps, { userId: c.var.user.id });
    return next();
  }
  await lookAtVisitor(c, slug);
  return next();
};

/** A visitor's calls get the malformed limit and the turned-away notice (visitor-limits.ts); an account's do not. */
const guardVisitors: MiddlewareHandler<AppEnv> = (c, next) => (isPublicCrossOrigin(c) ? visitorGuard(c, next) : next());

/** A visitor's call that names no business, in the address or the form. */
const noBusinessNamed = () =>
  new ApiError(
    'VALIDATION_ERROR',
    'Name the business whose estimator this is: add ?businessSlug=<slug> to the address (or a businessSlug field to the form).',
    { details: { businessSlug: ['Required for an estimator on another website'] } },
  );

/**
 * A full line is answered before the upload is read: it would most likely find the line full
 * again once read. The line itself is only joined once the upload is in (pipeline.ts).
 */
const refuseWhenBusy: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { slots } = c.var.analysisLoad;
  if (slots.full) throw slots.busy();
  await next();
};

/**
 * Nothing is held while the upload arrives, however slowly (it is given up after the idle
 * timeout): an image slot is taken only for the image work, inside runAnalysis.
 */
analysisRoutes.on(['POST', 'OPTIONS'], '/analyze-tree', publicCors, guardVisitors, uploadBodyLimit, refuseWhenBusy, embedGate, async (c) => {
  const { slots, uploadIdleMs } = c.var.analysisLoad;
  const embedBusiness = c.var.embedBusiness;
  if (embedBusiness) return visitorAnswer(c, embedBusiness, await readAnalysisUpload(c.req.raw, uploadIdleMs));
  if (isPublicCrossOrigin(c)) {
    // Another site's call with the business in the form only: looked at once the form is read.
    const upload = await readAnalysisUpload(c.req.raw, uploadIdleMs);
    if (!upload.businessSlug) throw noBusinessNamed();
    return visitorAnswer(c, await lookAtVisitor(c, upload.businessSlug), upload);
  }
  const upload = await readAnalysisUpload(c.req.raw, uploadIdleMs);
  const { outcome, businessName } = await analyseForAccount(c.var.deps, slots, { userId: currentUser(c).id, by: currentPerson(c).user.id }, upload, c.req.raw.signal);
  // Not enough to quote: what is missing, 200, and nothing charged.
  if (outcome.outcome === 'needs_details') return c.json(outcome satisfies NeedsDetails, 200);
  const analysis = analysisPageView(c.var.deps.db, outcome.row, businessName);
  const body: AnalyzeResponse = { outcome: 'estimate', analysis, confidence: analysis.confidence };
  if (analysis.cost) body.cost = analysis.cost;
  return c.json(body, 201);
});

/**
 * A visitor's analysis (made and counted by analyseForVisitor), in the visitor's view, with the
 * token that proves it in a quote request. The upload is read and whole, so the visitor's and the
 * business's points are spent now; an image the analysis then refuses gives them back.
 */
async function visitorAnswer(c: Context<AppEnv>, business: BusinessRow, upload: UploadInput) {
  await spendOnUpload(c, business);
  const outcome = await analyseForVisitor(c.var.deps, c.var.analysisLoad.slots, business, upload, c.req.raw.signal).catch(async (error: unknown) => {
    if (isShapeRefusal(error)) await giveBackOnRefusal(c, business);
    throw error;
  });
  if (outcome.outcome === 'needs_details') return c.json(outcome satisfies EmbedNeedsDetails, 200);
  // Rounded by the owner's own rule (Settings, Pricing), as their quotes are.
  const analysis = toEmbedAnalysis(outcome.row, getSettings(c.var.deps.db, business.ownerId).quoteRoundingPence);
  if (outcome.leadToken === undefined) throw new Error('a visitor estimate was stored without its lead token');
  const body: EmbedAnalyzeResponse = { outcome: 'estimate', analysis, confidence: analysis.confidence, leadToken: outcome.leadToken };
  if (analysis.cost) body.cost = analysis.cost;
  return c.json(body, 201);
}

/** History, a page at a time: `?limit=` (1-100, default 20) and `?cursor=` (the page before's `nextCursor`). */
analysisRoutes.get('/analyses', requireUser, (c) => {
  const parsed = analysisListQuerySchema.safeParse({ limit: c.req.query('limit'), cursor: c.req.query('cursor') });
  if (!parsed.success) throw validationError(parsed.error);
  const { limit, cursor } = parsed.data;
  const after = cursor === undefined ? null : decodeHistoryCursor(cursor);
  if (cursor !== undefined && !after) {
    throw new ApiError('VALIDATION_ERROR', 'cursor is not one this list gave', { details: { cursor: ['Use the nextCursor of the page before'] } });
  }
  return c.json(listHistoryPage(c.var.deps.db, currentUser(c).id, limit, after) satisfies AnalysisList);
});

/** The signed-in user's analysis named in the path; anything else is a 404. */
function ownAnalysis(c: Context<AppEnv>) {
  const id = Number(c.req.param('id'));
  const found = Number.isSafeInteger(id) && id > 0 ? findOwnAnalysis(c.var.deps.db, currentUser(c).id, id) : undefined;
  if (!found) throw notFound('Analysis not found');
  return found;
}

analysisRoutes.get('/analysis/:id', requireUser, (c) => {
  const { row, businessName } = ownAnalysis(c);
  return c.json({ analysis: analysisPageView(c.var.deps.db, row, businessName) });
});

analysisRoutes.get('/analysis/:id/image', requireUser, async (c) => {
  const { row } = ownAnalysis(c);
  const bytes = row.imagePath ? await readImage(c.var.deps.photos, row.imagePath) : null;
  if (!bytes) throw notFound('Image not found');
  return c.body(new Uint8Array(bytes), 200, {
    'Content-Type': 'image/jpeg',
    'Cache-Control': 'private, max-age=86400',
  });
});

analysisRoutes.patch('/analysis/:id/feedback', requireUser, async (c) => {
  const { row } = ownAnalysis(c);
  const input = await readJson(c, feedbackSchema);
  // The actual times and the user's calibration totals change together (analysis/feedback.ts).
  if (!saveFeedback(c.var.deps.db, currentUser(c).id, row.id, input)) throw notFound('Analysis not found');
  const updated = ownAnalysis(c);
  return c.json({ analysis: analysisPageView(c.var.deps.db, updated.row, updated.businessName) });
});

/**
 * The customer's quote, or with `?copy=internal` the contractor's copy with its notes page;
 * `?customerName=` and `?siteAddress=` (optional, bounded) are printed under "Prepared for".
 * A GET, so the download stays a plain link; nothing is stored.
 */
analysisRoutes.get('/analysis/:id/report.pdf', requireUser, async (c) => {
  const { row, businessName } = ownAnalysis(c);
  const parsed = reportQuerySchema.safeParse({
    copy: c.req.query('copy'),
    customerName: c.req.query('customerName'),
    siteAddress: c.req.query('siteAddress'),
  });
  if (!parsed.success) throw validationError(parsed.error);
  const { copy, ...recipient } = parsed.data;
  const { db, clock, photos } = c.var.deps;
  const image = row.imagePath ? await readImage(photos, row.imagePath) : null;
  const reference = referenceFor(row.id);
  const pdf = await buildReportPdf({
    analysis: toAnalysisView(row, businessName),
    image,
    reference,
    generatedAt: clock.now(),
    company: await quoteCompanyFor(db, photos, currentUser(c).id),
    copy,
    recipient,
  });
  const filename = copy === 'internal' ? `quote-${reference}-internal.pdf` : `quote-${reference}.pdf`;
  return c.body(new Uint8Array(pdf), 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="${filename}"`,
    'Cache-Control': 'private, no-store',
  });
});

/** What the download's "Prepared for" fields start with: a website lead's name, when there is one. */
analysisRoutes.get('/analysis/:id/quote-recipient', requireUser, (c) => {
  const { row } = ownAnalysis(c);
  const body: QuoteRecipientResponse = quoteRecipientFor(c.var.deps.db, row.id);
  return c.json(body);
});
