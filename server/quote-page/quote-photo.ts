import { DomainError } from '../../core/errors';
import { findOwnAnalysis, readImage } from '../analysis/store';
import type { AppDeps } from '../deps';
import { openQuote } from '../jobs/quote-links';

/**
 * A tree's photo on the customer's quote page: only for an item of the version this link opens,
 * only a tree, and only its own account's analysis. Any other item id (a line, another job's
 * item, one added after sending) is the same 404 as a missing photo; a link that opens nothing
 * answers as the page does (openQuote: 404, or 410 for one withdrawn, replaced or expired).
 */
export async function quoteItemPhoto(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>, token: string, itemId: number): Promise<Buffer> {
  const { version, job } = openQuote(deps.db, deps.clock, token);
  const item = version.content.items.find((candidate) => candidate.id === itemId);
  const analysis = item?.kind === 'tree' && item.analysisId !== null ? findOwnAnalysis(deps.db, job.userId, item.analysisId) : undefined;
  const bytes = analysis?.row.imagePath ? await readImage(deps.config.dataDir, analysis.row.imagePath) : null;
  if (!bytes) throw new DomainError('NOT_FOUND', 'Photo not found');
  return bytes;
}
