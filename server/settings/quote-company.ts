import type { Db } from '../../db/client';
import type { PhotoStore } from '../storage/photo-store';
import { readLogo } from './logo';
import { getCompanyProfile } from './settings';

/** The quote's sender: the user's company profile (settings.ts), with the logo's PNG bytes. */
export interface QuoteCompany {
  tradingName: string;
  phone: string;
  email: string;
  address: string;
  /** Normalised ("GB123456789") or "" when not VAT-registered. */
  vatNumber: string;
  quoteValidityDays: number;
  logo: Buffer | null;
}

/** The user's company profile as a quote prints it, with the logo's bytes (null when there is none). */
export async function quoteCompanyFor(db: Db, photos: PhotoStore, userId: number): Promise<QuoteCompany> {
  const { logoPath, ...profile } = getCompanyProfile(db, userId);
  return { ...profile, logo: await readLogo(photos, logoPath) };
}
