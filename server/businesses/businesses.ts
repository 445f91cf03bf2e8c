import { and, desc, eq } from 'drizzle-orm';
import { SLUG_TAKEN_MESSAGE, type Business, type BusinessCreate, type BusinessUpdate } from '../../core/business';
import { BUSINESS_NOT_FOUND_MESSAGE, type EmbedStatus } from '../../core/embed';
import type { PublicBusiness } from '../../core/business';
import { penceToDecimal } from '../../core/money';
import type { PricingRules } from '../../core/price';
import { pricingRulesResponse, storedPricingRules } from '../../core/pricing';
import { hourlyRatePence } from '../settings/hourly-rate';
import { getSettings } from '../settings/settings';
import type { Db } from '../../db/client';
import { businesses } from '../../db/schema';
import type { Clock } from '../clock';
import { paymentStatus, visitorPayer } from '../analysis/payment';
import { DomainError } from '../../core/errors';
import { embedAnalysesToday } from '../analysis/embed-usage';

/**
 * Businesses (docs/product.md, Embed widget): each belongs to the user
 * who made it, slugs are unique across the server, and the public sees only what the
 * estimator needs (name, rate, accent, whether it can serve).
 */
export type BusinessRow = typeof businesses.$inferSelect;

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** `ownerId`: the team's account; `by`: the person making it (businesses.created_by). */
export function createBusiness(db: Db, clock: Clock, ownerId: number, parsed: BusinessCreate, by: number | null = null): BusinessRow {
  try {
    return db
      .insert(businesses)
      .values({
        ownerId,
        name: parsed.name,
        slug: parsed.slug,
        hourlyRatePence: hourlyRatePence(parsed.hourlyRate),
        aiInstructions: parsed.aiInstructions,
        allowedOrigins: parsed.allowedOrigins,
        dailyCap: parsed.dailyCap,
        accentColor: parsed.accentColor,
        units: parsed.units,
        pricing: parsed.pricing,
        serviceDistricts: parsed.serviceDistricts,
        createdBy: by,
        createdAt: clock.now(),
      })
      .returning()
      .get();
  } catch (err) {
    // The unique index decides, so two owners racing for one slug cannot both win.
    if (isUniqueViolation(err)) {
      throw new DomainError('CONFLICT', SLUG_TAKEN_MESSAGE, { details: { slug: [SLUG_TAKEN_MESSAGE] } });
    }
    throw err;
  }
}

export function listOwnBusinesses(db: Db, ownerId: number): BusinessRow[] {
  return db
    .select()
    .from(businesses)
    .where(eq(businesses.ownerId, ownerId))
    .orderBy(desc(businesses.createdAt), desc(businesses.id))
    .all();
}

/** The owner's business, or a 404 that looks the same as a missing one (docs/product.md, API). */
export function findOwnBusiness(db: Db, ownerId: number, id: number): BusinessRow {
  const row = Number.isSafeInteger(id) && id > 0
    ? db.select().from(businesses).where(and(eq(businesses.id, id), eq(businesses.ownerId, ownerId))).get()
    : undefined;
  if (!row) throw new DomainError('NOT_FOUND', 'Business configuration not found');
  return row;
}

export function findBusinessBySlug(db: Db, slug: string): BusinessRow | undefined {
  return db.select().from(businesses).where(eq(businesses.slug, slug)).get();
}

/**
 * The business a request names by its slug: a public request's (any business), or the owner's
 * own when `ownerId` is given (the dashboard previewing one of its estimators). Anything else is
 * the same 404 as a slug nobody has.
 */
export function findBusinessNamed(db: Db, slug: string, ownerId?: number): BusinessRow {
  const row = findBusinessBySlug(db, slug);
  if (!row || (ownerId !== undefined && row.ownerId !== ownerId)) throw new DomainError('NOT_FOUND', BUSINESS_NOT_FOUND_MESSAGE);
  return row;
}

/** Changes the owner's business (found by findOwnBusiness); what is left out stays as it was. */
export function updateBusiness(db: Db, business: BusinessRow, parsed: BusinessUpdate): BusinessRow {
  const changes: Partial<typeof businesses.$inferInsert> = {};
  if (parsed.hourlyRate !== undefined) changes.hourlyRatePence = hourlyRatePence(parsed.hourlyRate);
  if (parsed.aiInstructions !== undefined) changes.aiInstructions = parsed.aiInstructions;
  if (parsed.allowedOrigins !== undefined) changes.allowedOrigins = parsed.allowedOrigins;
  if (parsed.dailyCap !== undefined) changes.dailyCap = parsed.dailyCap;
  if (parsed.accentColor !== undefined) changes.accentColor = parsed.accentColor;
  if (parsed.units !== undefined) changes.units = parsed.units;
  if (parsed.pricing !== undefined) changes.pricing = parsed.pricing;
  if (parsed.serviceDistricts !== undefined) changes.serviceDistricts = parsed.serviceDistricts;
  if (Object.keys(changes).length === 0) return business;
  return db.update(businesses).set(changes).where(eq(businesses.id, business.id)).returning().get()!;
}

/** Deletes the owner's business (found by findOwnBusiness) and its leads; its analyses stay in the owner's history. */
export function deleteBusiness(db: Db, business: BusinessRow): void {
  db.delete(businesses).where(eq(businesses.id, business.id)).run();
}

export function toBusinessView(db: Db, clock: Clock, row: BusinessRow): Business {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    hourlyRate: penceToDecimal(row.hourlyRatePence),
    aiInstructions: row.aiInstructions,
    allowedOrigins: row.allowedOrigins,
    dailyCap: row.dailyCap,
    accentColor: row.accentColor,
    units: row.units,
    pricing: row.pricing ? pricingRulesResponse(storedPricingRules(row.pricing)) : null,
    serviceDistricts: row.serviceDistricts,
    analysesToday: embedAnalysesToday(db, clock, row.id),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The rules a business's estimates are priced by: its own, or else its owner's Settings. */
export function pricingFor(db: Db, business: BusinessRow): PricingRules {
  return business.pricing ? storedPricingRules(business.pricing) : getSettings(db, business.ownerId).pricing;
}

/**
 * Whether the estimator can take a visitor now. "unavailable" says only that the owner
 * cannot pay for one more analysis, never their balance (docs/product.md, Embed widget).
 */
export function embedStatus(db: Db, clock: Clock, row: BusinessRow, passDailyCap: number): EmbedStatus {
  return paymentStatus(db, clock, visitorPayer(row), passDailyCap);
}

export function toPublicBusiness(row: BusinessRow, status: EmbedStatus, sizesFromPhoto: boolean): PublicBusiness {
  return {
    name: row.name,
    slug: row.slug,
    hourlyRate: penceToDecimal(row.hourlyRatePence),
    accentColor: row.accentColor,
    status,
    units: row.units,
    sizesFromPhoto,
  };
}
