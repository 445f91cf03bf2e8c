import { DomainError } from '../../core/errors';
import type { Db } from '../../db/client';
import { findOwnAnalysis, readImage } from '../analysis/store';
import type { AppDeps } from '../deps';
import { openQuote } from '../jobs/quote-links';
import { readLogo } from '../settings/logo';
import { getCompanyProfile } from '../settings/settings';

/**
 * The images on the customer's quote page, each only through a link that opens a quote; a link
 * that opens nothing answers as the page does (openQuote: 404, or 410 for one withdrawn, replaced
 * or expired), and an image that is not there is the same 404 whatever the reason.
 */
type ImageDeps = Pick<AppDeps, 'db' | 'clock' | 'photos'>;

/**
 * A tree's photo: only for an item of the version this link opens, only a tree, and only its own
 * account's analysis. Any other item id (a line, another job's item, one added after sending) is
 * the same 404 as a missing photo.
 */
export async function quoteItemPhoto(deps: ImageDeps, token: string, itemId: number): Promise<Buffer> {
  const { version, job } = openQuote(deps.db, deps.clock, token);
  const item = version.content.items.find((candidate) => candidate.id === itemId);
  const analysis = item?.kind === 'tree' && item.analysisId !== null ? findOwnAnalysis(deps.db, job.userId, item.analysisId) : undefined;
  const bytes = analysis?.row.imagePath ? await readImage(deps.photos, analysis.row.imagePath) : null;
  if (!bytes) throw new DomainError('NOT_FOUND', 'Photo not found');
  return bytes;
}

/**
 * Whether the account that sent a quote has a logo to head its page: its company profile's, the
 * one its quote PDFs print (a business of the account has no logo of its own).
 */
export function hasQuoteLogo(db: Db, userId: number): boolean {
  return getCompanyProfile(db, userId).logoPath !== null;
}

/** That logo, as stored (a PNG we wrote: server/settings/logo.ts); nothing else of the account. */
export async function quoteLogo(deps: ImageDeps, token: string): Promise<Buffer> {
  const { job } = openQuote(deps.db, deps.clock, token);
  const bytes = await readLogo(deps.photos, getCompanyProfile(deps.db, job.userId).logoPath);
  if (!bytes) throw new DomainError('NOT_FOUND', 'Logo not found');
  return bytes;
}
