import { or, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { quoteVersions } from '../../db/schema';
import { sha256 } from '../secrets/tokens';

/**
 * Who sent the quote behind a link that is real but opens nothing now (withdrawn, replaced or
 * expired: quote-links.ts openQuote's 410), so the customer's page can say whom to ask for a new
 * one: the business's name and phone as the version froze them, nothing else of the quote. Only
 * asked after openQuote has said the link is gone, so it tells no more than the 410 already did.
 */
export interface LinkSender {
  name: string;
  phone: string;
}

export function goneLinkSender(db: Db, token: string): LinkSender | null {
  const hash = sha256(token);
  const version = db
    .select({ content: quoteVersions.content })
    .from(quoteVersions)
    .where(or(eq(quoteVersions.tokenHash, hash), eq(quoteVersions.reminderTokenHash, hash)))
    .get();
  if (!version) return null;
  const { name, phone } = version.content.business;
  return name || phone ? { name, phone } : null;
}
