import type { Db } from '../../db/client';
import type { QuoteCompany } from '../quotes/report';
import type { PhotoStore } from '../storage/photo-store';
import { readLogo } from './logo';
import { getCompanyProfile } from './settings';

/** The user's company profile as a quote prints it, with the logo's bytes (null when there is none). */
export async function quoteCompanyFor(db: Db, photos: PhotoStore, userId: number): Promise<QuoteCompany> {
  const { logoPath, ...profile } = getCompanyProfile(db, userId);
  return { ...profile, logo: await readLogo(photos, logoPath) };
}
