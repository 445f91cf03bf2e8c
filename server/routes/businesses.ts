import { randomInt } from 'node:crypto';
import { readsPhotos } from '../analysis/types';
import { Hono, type Context } from 'hono';
import { businessCreateSchema, businessUpdateSchema, funnelQuerySchema, leadInputSchema, leadUpdateSchema, widgetEventSchema, type FunnelResponse, type LeadThanks } from '../../core/business';
import { LEAD_THANKS, requestReference, type FunnelStep } from '../../core/embed';
import {
  createBusiness,
  deleteBusiness,
  embedStatus,
  findOwnBusiness,
  listOwnBusinesses,
  toBusinessView,
  toPublicBusiness,
  updateBusiness,
  type BusinessRow,
} from '../businesses/businesses';
import { countFunnelStep, funnelDays } from '../businesses/funnel';
import { siteNote } from '../protection/site-note';
import { siteNoteQuerySchema, type SiteNote } from '../../core/protection';
import { funnelQuotes } from '../jobs/summary';
import { isOutsideArea, listLeads, markContacted, saveLead } from '../businesses/leads';
import { tellOfRequest } from '../businesses/lead-mail';
import type { AppEnv } from '../http/context';
import { validationError } from '../http/errors';
import { publicBusiness, publicCors } from '../http/public-access';
import { clientNetwork } from '../http/rate-limit';
import { businessRateSpent, visitorGuard } from '../http/visitor-limits';
import { currentPerson, currentUser, requireUser } from '../http/session';
import { readJson } from '../http/validate';

/**
 * Businesses (docs/product.md, Embed widget). Owners
 * manage their own by id; the public reads one by slug and sends it leads, with CORS and
 * no cookie. Another user's business is a 404.
 */
export const businessRoutes = new Hono<AppEnv>();

function idParam(c: Context<AppEnv>, name = 'id'): number {
  const id = Number(c.req.param(name));
  return Number.isSafeInteger(id) && id > 0 ? id : 0;
}

function ownBusiness(c: Context<AppEnv>): BusinessRow {
  return findOwnBusiness(c.var.deps.db, currentUser(c).id, idParam(c));
}

/**
 * Adds one to a business's funnel step for this day, at most as often per address as a person
 * could by hand (funnelCountsPerAddress); past that the request is served but not counted.
 */
export async function countVisitorStep(c: Context<AppEnv>, business: BusinessRow, step: FunnelStep): Promise<void> {
  if (await c.var.limits.spend('funnelCountsPerAddress', `${clientNetwork(c)}|${business.id}|${step}`)) {
    countFunnelStep(c.var.deps.db, c.var.deps.clock, business.id, step);
  }
}

// Public: the widget's view of a business (name, rate, accent, whether it can serve); one estimator load.
businessRoutes.on(['GET', 'OPTIONS'], '/:slug{[a-z0-9-]+}', publicCors, async (c) => {
  const { db, clock, config } = c.var.deps;
  await c.var.limits.consume('embedLookupsPerAddress', clientNetwork(c));
  const business = publicBusiness(c, c.req.param('slug'));
  await countVisitorStep(c, business, 'loads');
  const sizesFromPhoto = readsPhotos(c.var.deps.vision);
  // "busy" as much for the business's rate as for its daily cap: the widget then says so at once.
  const status = (await businessRateSpent(c, business)) ? 'busy' : embedStatus(db, clock, business, config.passDailyCap);
  return c.json(toPublicBusiness(business, status, sizesFromPhoto));
});

// Public: a step of the funnel only the widget sees (a photo chosen).
businessRoutes.on(['POST', 'OPTIONS'], '/:slug{[a-z0-9-]+}/events', publicCors, visitorGuard, async (c) => {
  const business = publicBusiness(c, c.req.param('slug'));
  const { event } = await readJson(c, widgetEventSchema);
  await c.var.limits.consume('embedEventsPerAddress', clientNetwork(c));
  if (event === 'photo') await countVisitorStep(c, business, 'photos');
  return c.body(null, 204);
});

// Public: "Request a quote" under one or more embedded estimates (`trees`), each proven by its
// token; a request naming an estimate already sent updates that lead (201 made, 200 updated).
businessRoutes.on(['POST', 'OPTIONS'], '/:slug{[a-z0-9-]+}/leads', publicCors, visitorGuard, async (c) => {
  const { db, clock, config } = c.var.deps;
  const business = publicBusiness(c, c.req.param('slug'));
  const input = await readJson(c, leadInputSchema);
  // Counted once the form is valid, so a visitor correcting a typo is not locked out; nothing is stored before this.
  await c.var.limits.consume('leadsPerAddress', clientNetwork(c), 'Too many quote requests from this connection. Please try again later.');
  const saved = saveLead(db, clock, business, input);
  // The bot of the honeypot is answered as a person would be, outsideArea and a reference included.
  const thanks: LeadThanks = {
    message: LEAD_THANKS,
    outsideArea: saved?.lead.outsideArea ?? isOutsideArea(business, input.postcode),
    reference: requestReference(saved?.lead.id ?? randomInt(1, 1_000_000)),
  };
  if (!saved) return c.json(thanks, 201);
  if (!saved.updated) countFunnelStep(db, clock, business.id, 'leads');
  if (saved.addedTrees > 0) countFunnelStep(db, clock, business.id, 'trees', saved.addedTrees);
  // The lead is stored whatever the mail does; a failed send is retried, then the operator's to see, not the visitor's.
  tellOfRequest({ db, clock, config }, business, saved);
  return c.json(thanks, saved.updated ? 200 : 201);
});

// Public: the request screen's note under the postcode, once typed (docs/product.md, Protected
// trees): a conservation area or Tree Preservation Order found there, else null. Only the postcode
// is asked of the public data, once a day a postcode, and once at a time however many ask
// (server/protection/site-note.ts).
businessRoutes.on(['GET', 'OPTIONS'], '/:slug{[a-z0-9-]+}/site-note', publicCors, async (c) => {
  await c.var.limits.consume('embedLookupsPerAddress', clientNetwork(c));
  publicBusiness(c, c.req.param('slug'));
  const parsed = siteNoteQuerySchema.safeParse({ postcode: c.req.query('postcode') });
  if (!parsed.success) throw validationError(parsed.error);
  return c.json({ note: await siteNote(c.var.deps, c.var.postcodeLookups, parsed.data.postcode) } satisfies SiteNote);
});

// The owner's own businesses.
businessRoutes.get('/', requireUser, (c) => {
  const { db, clock } = c.var.deps;
  return c.json({ businesses: listOwnBusinesses(db, currentUser(c).id).map((row) => toBusinessView(db, clock, row)) });
});

businessRoutes.post('/', requireUser, async (c) => {
  const { db, clock } = c.var.deps;
  const input = await readJson(c, businessCreateSchema);
  const row = createBusiness(db, clock, currentUser(c).id, input, currentPerson(c).user.id);
  return c.json({ business: toBusinessView(db, clock, row) }, 201);
});

businessRoutes.patch('/:id{[0-9]+}', requireUser, async (c) => {
  const { db, clock } = c.var.deps;
  // Ownership first: another user's business is a 404 whatever the body says.
  const business = ownBusiness(c);
  const input = await readJson(c, businessUpdateSchema);
  const row = updateBusiness(db, business, input);
  return c.json({ business: toBusinessView(db, clock, row) });
});

businessRoutes.delete('/:id{[0-9]+}', requireUser, (c) => {
  deleteBusiness(c.var.deps.db, ownBusiness(c));
  return c.json({ message: 'Business configuration deleted successfully' });
});

/** The owner's funnel for one business: every UTC day of the last `days` (default 30), oldest first, and its leads' quotes over them. */
businessRoutes.get('/:id{[0-9]+}/funnel', requireUser, (c) => {
  const business = ownBusiness(c);
  const parsed = funnelQuerySchema.safeParse({ days: c.req.query('days') });
  if (!parsed.success) throw validationError(parsed.error);
  const { db, clock } = c.var.deps;
  const { days } = parsed.data;
  const body: FunnelResponse = { days: funnelDays(db, clock, business.id, days), quotes: funnelQuotes(db, clock, business.id, days) };
  return c.json(body);
});

businessRoutes.get('/:id{[0-9]+}/leads', requireUser, (c) => {
  const business = ownBusiness(c);
  return c.json({ leads: listLeads(c.var.deps.db, business) });
});

businessRoutes.patch('/:id{[0-9]+}/leads/:leadId{[0-9]+}', requireUser, async (c) => {
  const business = ownBusiness(c);
  const { contacted } = await readJson(c, leadUpdateSchema);
  const lead = markContacted(c.var.deps.db, c.var.deps.clock, business, idParam(c, 'leadId'), contacted, currentPerson(c).user.id);
  return c.json({ lead });
});
