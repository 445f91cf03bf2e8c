import { and, eq, inArray } from 'drizzle-orm';
import type { Analysis } from '../../core/analysis';
import { diameterBandOf } from '../../core/band-ranges';
import { DomainError } from '../../core/errors';
import { measureFromPhoto } from '../../core/photo-measure';
import { noticeTreeTitle, SECTION_211_MESSAGES, trunkLine, trunkWords, type NoticeTree, type NoticeTreeEdit, type Section211, type Section211Body, type TrunkGiven } from '../../core/section-211';
import { heightText } from '../../core/units';
import type { Db } from '../../db/client';
import { jobProtection, treeAnalyses } from '../../db/schema';
import { toAnalysisView } from '../analysis/store';
import { protectionRow } from './lookup';

/**
 * The section 211 notice's trees (core/section-211.ts): each line of the job drafted from its
 * estimate, with what the surgeon corrected and saved laid over it. The caller has checked the
 * job is the account's own.
 */
export interface NoticeJob {
  id: number;
  userId: number;
  reference: string;
  customerName: string;
  siteAddress: string | null;
  items: readonly { id: number; kind: string; analysisId: number | null; description: string }[];
}

/** The trunk as the estimate was given it: typed or written, measured on the photo, a band, a reading, or none. */
export function trunkOfAnalysis(analysis: Pick<Analysis, 'diameter' | 'sources' | 'enteredSizes' | 'measurement'>): TrunkGiven {
  const source = analysis.sources?.diameter;
  const entered = analysis.enteredSizes?.diameter;
  if (entered && (source === 'user' || source === 'description' || source === undefined)) return { kind: 'typed', size: entered, by: 'estimate' };
  if (source === 'measured' && analysis.measurement) {
    const measured = measureFromPhoto(analysis.measurement);
    if ('diameterM' in measured && measured.diameterM !== null) return { kind: 'measured', cm: measured.diameterM * 100 };
  }
  const band = diameterBandOf({ dbhIn: analysis.diameter, sources: analysis.sources });
  if (band) return { kind: 'band', band };
  // An estimate made before sizes were kept as given reads from its whole inches, said as rough.
  if (analysis.diameter !== null && source !== 'assumed') return { kind: 'read', inches: analysis.diameter, from: source === 'model' ? 'photo' : 'details' };
  return { kind: 'none' };
}

/** The estimate's own words for the tree, as drafted before any correction. */
function drafted(item: NoticeJob['items'][number], analysis: Analysis | undefined) {
  return {
    species: analysis?.species ?? null,
    description: analysis?.description?.trim() ? analysis.description.trim().replace(/\s+/g, ' ').slice(0, 200) : null,
    work: item.description,
    trunk: analysis ? trunkOfAnalysis(analysis) : ({ kind: 'none' } as const),
    // Metric first: councils read metres (the typed unit still comes first when typed).
    height: analysis?.height != null ? heightText(analysis.height, 'metric', analysis.enteredSizes?.height) : null,
  };
}

/** The job's lines as the notice lists them, each with its estimate (the account's own only) and the saved correction. */
export function noticeOf(db: Db, job: NoticeJob): Section211 {
  const ids = [...new Set(job.items.map((i) => i.analysisId).filter((id): id is number => id !== null))];
  const rows = ids.length > 0 ? db.select().from(treeAnalyses).where(and(eq(treeAnalyses.userId, job.userId), inArray(treeAnalyses.id, ids))).all() : [];
  const analyses = new Map(rows.map((row) => [row.id, toAnalysisView(row)]));
  const row = protectionRow(db, job.id);
  const saved = new Map((row?.noticeTrees ?? []).map((edit) => [edit.itemId, edit]));
  let position = 0;
  const trees = job.items.map((item): NoticeTree => {
    const analysis = item.analysisId === null ? undefined : analyses.get(item.analysisId);
    const draft = drafted(item, analysis);
    const edit = saved.get(item.id);
    const species = edit ? edit.species : draft.species;
    const description = edit ? edit.description : draft.description;
    const location = edit?.location ?? null;
    const trunk: TrunkGiven = edit?.trunk ? { kind: 'typed', size: edit.trunk, by: 'surgeon' } : draft.trunk;
    // A typed line with nothing said of a tree (species, description, place, trunk) is other work (a hedge, the waste), not a tree.
    const printed = analysis !== undefined || Boolean(species || location || (edit && description) || edit?.trunk);
    if (printed) position += 1;
    return {
      itemId: item.id,
      fromEstimate: analysis !== undefined,
      printed,
      species,
      location,
      description,
      work: edit?.work ?? draft.work,
      trunk: edit?.trunk ?? null,
      estimateTrunk: trunkWords(draft.trunk),
      height: draft.height,
      title: printed ? noticeTreeTitle(position, species, description) : `Other work: ${edit?.work ?? draft.work}`,
      trunkLine: trunkLine(trunk),
    };
  });
  return { trees, savedAt: row?.noticeSavedAt?.toISOString() ?? null };
}

/**
 * Keeps the surgeon's corrections (the whole notice: a line left out is drafted again). A tree
 * that is not one of the job's lines is refused: the job changed since the editor was opened.
 */
export function saveNotice(db: Db, now: Date, job: NoticeJob, body: Section211Body): void {
  const lines = new Set(job.items.map((item) => item.id));
  if (body.trees.some((tree) => !lines.has(tree.itemId))) {
    throw new DomainError('VALIDATION_ERROR', SECTION_211_MESSAGES.unknownItem, { details: { trees: [SECTION_211_MESSAGES.unknownItem] } });
  }
  const trees: NoticeTreeEdit[] = body.trees.map(({ itemId, species, location, description, work, trunk }) => ({ itemId, species, location, description, work, trunk }));
  db.insert(jobProtection)
    .values({ jobId: job.id, noticeTrees: trees, noticeSavedAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: jobProtection.jobId, set: { noticeTrees: trees, noticeSavedAt: now, updatedAt: now } })
    .run();
}
