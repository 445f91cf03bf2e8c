import { and, eq } from 'drizzle-orm';
import type { Analysis } from '../../core/analysis';
import { chosenBands } from '../../core/band-ranges';
import { describeMethod } from '../../core/quote';
import { requestTreeTitle } from '../../core/request-tree';
import { DEFAULT_UNIT_SYSTEM } from '../../core/units';
import type { Db } from '../../db/client';
import { jobItems } from '../../db/schema';
import { toAnalysisView, type AnalysisRow } from '../analysis/store';

/**
 * What the visitor asked for besides the felling, from their answers: the stump ground out, the
 * wood taken away or left. Only what they said: an unanswered question adds nothing (the
 * estimate's "What we assumed" already priced it, and the surgeon confirms it).
 */
function extrasAsked(site: Analysis['siteDetails']): string[] {
  const extras: string[] = [];
  if (site?.stumpGrinding === true) extras.push('Grind out the stump.');
  if (site?.stumpGrinding === false) extras.push('Leave the stump.');
  if (site?.wasteRemoval === true) extras.push('Take the wood and waste away.');
  if (site?.wasteRemoval === false) extras.push('Leave the wood on site.');
  return extras;
}

/**
 * A tree of a quote request as its job's item reads: the same name the visitor's acknowledgement
 * gave it (core/request-tree.ts: its kind, or "Tree 2 (kind not sure)", with the band they
 * chose, never the band's middle), the work, and the extras they asked for. The surgeon can
 * rewrite it before sending.
 */
export function leadTreeWords(analysis: Pick<Analysis, 'species' | 'height' | 'diameter' | 'sources' | 'units' | 'method' | 'siteDetails'>, position: number): string {
  const bands = chosenBands({ heightFt: analysis.height, dbhIn: analysis.diameter, sources: analysis.sources }, analysis.units ?? DEFAULT_UNIT_SYSTEM);
  const method = describeMethod(analysis.method);
  return [`${requestTreeTitle(position, analysis.species, bands)}: remove the tree.`, ...(method ? [method.sentence] : []), ...extrasAsked(analysis.siteDetails)].join(' ');
}

/**
 * Words the trees of a job just made from a quote request with their request's names and extras
 * (jobs.ts createJob). `trees` are in the request's order, the job's first items.
 */
export function describeLeadTrees(tx: Db, jobId: number, trees: readonly AnalysisRow[]): void {
  trees.forEach((tree, index) => {
    tx.update(jobItems)
      .set({ description: leadTreeWords(toAnalysisView(tree), index + 1) })
      .where(and(eq(jobItems.jobId, jobId), eq(jobItems.analysisId, tree.id)))
      .run();
  });
}
