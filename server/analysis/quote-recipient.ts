import { eq } from 'drizzle-orm';
import type { QuoteRecipientResponse } from '../../core/quote';
import type { Db } from '../../db/client';
import { leads } from '../../db/schema';

/**
 * What the quote's "Prepared for" fields start with before download: the name a website
 * visitor gave when they asked for a quote on this estimate (one lead per analysis, the
 * leads table's unique index). A lead gives no address, so the site address starts empty.
 * The caller has checked the analysis is the user's own.
 */
export function quoteRecipientFor(db: Db, analysisId: number): QuoteRecipientResponse {
  const lead = db.select({ name: leads.name }).from(leads).where(eq(leads.analysisId, analysisId)).get();
  return { customerName: lead?.name.trim() || null, siteAddress: null };
}
