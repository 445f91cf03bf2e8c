import { eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { feedbackSchema, type AnalyzeResponse } from '../../core/analysis';
import { businesses, treeAnalyses } from '../../db/schema';
import { runAnalysis } from '../analysis/pipeline';
import { buildReportPdf } from '../analysis/report';
import { findOwnAnalysis, listOwnAnalyses, readImage, referenceFor, toAnalysisView } from '../analysis/store';
import { analysisSlots } from '../analysis/slots';
import { readUpload, uploadBodyLimit } from '../analysis/upload';
import type { AppEnv } from '../http/context';
import { ApiError, notFound } from '../http/errors';
import { currentUser, requireUser } from '../http/session';
import { readJson } from '../http/validate';
import { getSettings } from '../settings/settings';

/** The analysis and its results (SPEC 2, 7; DECISIONS, Analysis and ownership). */
export const analysisRoutes = new Hono<AppEnv>();

analysisRoutes.post('/analyze-tree', requireUser, uploadBodyLimit, analysisSlots, async (c) => {
  const user = currentUser(c);
  const { db } = c.var.deps;
  const upload = await readUpload(c);
  const settings = getSettings(db, user.id);
  let business: typeof businesses.$inferSelect | undefined;
  if (upload.businessSlug) {
    // From the dashboard a slug previews one of the user's own businesses; the public embed has its own route.
    business = db.select().from(businesses).where(eq(businesses.slug, upload.businessSlug)).get();
    if (!business || business.ownerId !== user.id) throw notFound('Business configuration not found');
  }
  const row = await runAnalysis(c.var.deps, {
    userId: user.id,
    businessId: business?.id ?? null,
    bytes: upload.bytes,
    description: upload.description,
    siteDetails: upload.siteDetails,
    instructions: (business ? business.aiInstructions : settings.aiInstructions) || undefined,
    hourlyRatePence: business ? business.hourlyRatePence : settings.hourlyRatePence,
    signal: c.req.raw.signal,
  });
  const analysis = toAnalysisView(row, business?.name ?? null);
  const body: AnalyzeResponse = { analysis, confidence: analysis.confidence };
  if (analysis.cost) body.cost = analysis.cost;
  return c.json(body, 201);
});

analysisRoutes.get('/analyses', requireUser, (c) => {
  const rows = listOwnAnalyses(c.var.deps.db, currentUser(c).id);
  return c.json({ analyses: rows.map((r) => toAnalysisView(r.row, r.businessName ?? null)) });
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
  return c.json({ analysis: toAnalysisView(row, businessName) });
});

analysisRoutes.get('/analysis/:id/image', requireUser, async (c) => {
  const { row } = ownAnalysis(c);
  const bytes = row.imagePath ? await readImage(c.var.deps.config.dataDir, row.imagePath) : null;
  if (!bytes) throw notFound('Image not found');
  return c.body(new Uint8Array(bytes), 200, {
    'Content-Type': 'image/jpeg',
    'Cache-Control': 'private, max-age=86400',
  });
});

analysisRoutes.patch('/analysis/:id/feedback', requireUser, async (c) => {
  const { row } = ownAnalysis(c);
  const input = await readJson(c, feedbackSchema);
  if (Object.values(input).every((v) => v === undefined || v === '')) {
    throw new ApiError('VALIDATION_ERROR', 'Enter at least one actual time or a comment');
  }
  // PATCH: what is sent replaces, what is left out stays as it was.
  const changes: Partial<typeof treeAnalyses.$inferInsert> = {};
  if (input.actualCuttingTime !== undefined) changes.actualCuttingTime = input.actualCuttingTime;
  if (input.actualPrepTime !== undefined) changes.actualPrepTime = input.actualPrepTime;
  if (input.actualCleanupTime !== undefined) changes.actualCleanupTime = input.actualCleanupTime;
  if (input.feedback !== undefined) changes.feedback = input.feedback || null;
  c.var.deps.db.update(treeAnalyses).set(changes).where(eq(treeAnalyses.id, row.id)).run();
  const updated = ownAnalysis(c);
  return c.json({ analysis: toAnalysisView(updated.row, updated.businessName) });
});

analysisRoutes.get('/analysis/:id/report.pdf', requireUser, async (c) => {
  const { row, businessName } = ownAnalysis(c);
  const { dataDir } = c.var.deps.config;
  const image = row.imagePath ? await readImage(dataDir, row.imagePath) : null;
  const reference = referenceFor(row.id);
  const pdf = await buildReportPdf({
    analysis: toAnalysisView(row, businessName),
    image,
    reference,
    generatedAt: c.var.deps.clock.now(),
  });
  return c.body(new Uint8Array(pdf), 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="treeanalyzer-${reference}.pdf"`,
    'Cache-Control': 'private, no-store',
  });
});
