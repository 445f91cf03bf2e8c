import { immediate } from '../../db/client';
import { and, eq, isNull, lte, or } from 'drizzle-orm';
import { chosenBands } from '../../core/band-ranges';
import { requestReference } from '../../core/embed';
import type { ContactMethod, ContactTime } from '../../core/contact-preference';
import { guidePriceText, roundedGuide, sumGuides } from '../../core/homeowner-guide';
import { requestTreeTitle } from '../../core/request-tree';
import { DEFAULT_UNIT_SYSTEM } from '../../core/units';
import { businesses, leads } from '../../db/schema';
import { findUserById } from '../accounts/users';
import { toAnalysisView } from '../analysis/store';
import type { AppDeps } from '../deps';
import { acknowledgementEmail } from '../mail/acknowledgement-email';
import { queueMail } from '../mail/outbox';
import { leadEmail } from '../mail/lead-email';
import { getCompanyProfile, getSettings } from '../settings/settings';
import type { BusinessRow } from './businesses';
import { leadView, toLeadView, type LeadRow, type SavedLead } from './leads';

/**
 * At most one e-mail to the owner about one request in this window, and one acknowledgement to
 * the visitor. A lead's token lets its visitor send it again for a day (server/analysis/estimate-tokens.ts), and
 * per-address limits do not stop one visitor on several addresses: one estimate's token sent
 * from four addresses of one /56 once gave its owner 20 "Updated quote request" e-mails.
 * Ten minutes is long enough for someone correcting a typo or adding a tree to be told once, and
 * short enough that the owner reads the latest before they would ring back.
 */
export const LEAD_MAIL_WINDOW_MS = 10 * 60 * 1000;

type LeadMailDeps = Pick<AppDeps, 'db' | 'clock' | 'config'>;

/**
 * Tells the owner and the visitor of a request just stored (saveLead). The owner gets "New" or
 * "Updated quote request" at once unless they were e-mailed about this lead within the window;
 * then the update is marked pending and folded into one e-mail, sent by the next update after
 * the window or by sendHeldLeadUpdates, whichever comes first, and always with the lead as it
 * is by then, so the last update is the one the owner reads. The visitor, when they gave an
 * e-mail, is acknowledged from the business, at most once in the window likewise (an update
 * after it is acknowledged again, as the latest). Each claim is one conditional update, so two
 * requests at once send one e-mail.
 */
export function tellOfRequest(deps: LeadMailDeps, business: BusinessRow, saved: SavedLead): void {
  // Each claim and its e-mail's outbox row in one transaction: both or neither.
  immediate(deps.db, () => claimAndTell(deps, business, saved));
}

function claimAndTell(deps: LeadMailDeps, business: BusinessRow, saved: SavedLead): void {
  const { db, clock } = deps;
  const now = clock.now();
  const cutoff = new Date(now.getTime() - LEAD_MAIL_WINDOW_MS);
  const id = saved.lead.id;
  const ownerClaimed =
    db
      .update(leads)
      .set({ ownerMailedAt: now, ownerMailPending: false })
      .where(and(eq(leads.id, id), or(isNull(leads.ownerMailedAt), lte(leads.ownerMailedAt, cutoff))))
      .run().changes > 0;
  if (ownerClaimed) mailOwner(deps, business, saved.lead, () => toLeadView(saved.lead, saved.trees), saved.updated);
  else db.update(leads).set({ ownerMailPending: true }).where(eq(leads.id, id)).run();

  const email = saved.lead.email;
  if (!email) return;
  const acknowledged =
    db
      .update(leads)
      .set({ acknowledgedAt: now })
      .where(and(eq(leads.id, id), or(isNull(leads.acknowledgedAt), lte(leads.acknowledgedAt, cutoff))))
      .run().changes > 0;
  if (acknowledged) acknowledge(deps, business, saved, email);
}

/**
 * The updates held back by the window whose window has passed: each sent now as one "Updated
 * quote request" with the lead as it is. Run every minute and at start (server/main.ts), so the
 * last update of a burst reaches the owner about ten minutes after the first e-mail.
 */
export function sendHeldLeadUpdates(deps: LeadMailDeps): number {
  const { db, clock } = deps;
  const now = clock.now();
  const cutoff = new Date(now.getTime() - LEAD_MAIL_WINDOW_MS);
  const due = db
    .select({ lead: leads, business: businesses })
    .from(leads)
    .innerJoin(businesses, eq(businesses.id, leads.businessId))
    .where(and(eq(leads.ownerMailPending, true), lte(leads.ownerMailedAt, cutoff)))
    .all();
  let sent = 0;
  for (const { lead, business } of due) {
    const claimed = immediate(db, () => {
      const changes = db
        .update(leads)
        .set({ ownerMailedAt: now, ownerMailPending: false })
        .where(and(eq(leads.id, lead.id), eq(leads.ownerMailPending, true), lte(leads.ownerMailedAt, cutoff)))
        .run().changes;
      if (changes > 0) mailOwner(deps, business, lead, () => leadView(db, business.ownerId, lead.id), true);
      return changes > 0;
    });
    if (claimed) sent += 1;
  }
  return sent;
}

function mailOwner(deps: LeadMailDeps, business: BusinessRow, lead: LeadRow, view: () => ReturnType<typeof toLeadView> | undefined, updated: boolean): void {
  const owner = findUserById(deps.db, business.ownerId);
  if (!owner) return;
  // Made now, in the claim's transaction: the lead as it is (the answer waits for no mail server).
  const current = view();
  if (!current) return;
  const message = leadEmail({
    to: owner.email,
    ownerName: owner.firstName,
    businessName: business.name,
    lead: current,
    serviceDistricts: business.serviceDistricts,
    publicUrl: deps.config.publicUrl,
    updated,
  });
  // About a customer: the owner's Reply reaches the visitor, when they gave an e-mail.
  queueMail(deps, current.email ? { ...message, replyTo: current.email } : message, { label: `lead ${lead.id}`, userId: business.ownerId });
}

const CONTACT_WAYS: Record<ContactMethod, string> = { phone: 'by phone', email: 'by e-mail', either: 'by phone or e-mail' };
const CONTACT_WHEN: Record<ContactTime, string> = { morning: 'in the morning', afternoon: 'in the afternoon', evening: 'in the evening', any: '' };

/** "by phone, in the evening" from the visitor's taps; null when they made none. */
function contactWords(lead: LeadRow): string | null {
  const words = [lead.contactMethod ? CONTACT_WAYS[lead.contactMethod] : '', lead.contactTime ? CONTACT_WHEN[lead.contactTime] : ''].filter(Boolean);
  return words.length > 0 ? words.join(', ') : null;
}

/** The visitor's acknowledgement, from the business: replies go to its profile's e-mail, else its owner's. */
function acknowledge(deps: LeadMailDeps, business: BusinessRow, saved: SavedLead, to: string): void {
  const { db } = deps;
  const owner = findUserById(db, business.ownerId);
  if (!owner) return;
  const replyTo = getCompanyProfile(db, owner.id).email || owner.email;
  const rounding = getSettings(db, owner.id).quoteRoundingPence;
  const trees = saved.trees.flatMap(({ analysis }, i) => {
    if (!analysis) return [];
    const view = toAnalysisView(analysis);
    const bands = chosenBands({ heightFt: view.height, dbhIn: view.diameter, sources: view.sources }, view.units ?? DEFAULT_UNIT_SYSTEM);
    return [{ title: requestTreeTitle(i + 1, view.species, bands), guide: view.price ? roundedGuide(view.price, rounding) : null }];
  });
  const total = trees.length > 1 ? sumGuides(trees.map((tree) => tree.guide)) : null;
  const message = acknowledgementEmail({
    to,
    visitorName: saved.lead.name,
    businessName: business.name,
    businessEmail: replyTo,
    reference: requestReference(saved.lead.id),
    postcode: saved.lead.postcode,
    trees: trees.map((tree) => ({ title: tree.title, guide: tree.guide ? guidePriceText(tree.guide) : null })),
    total: total ? guidePriceText(total) : null,
    contactWords: contactWords(saved.lead),
    updated: saved.updated,
  });
  queueMail(deps, message, { label: `lead ${saved.lead.id} acknowledgement`, userId: business.ownerId });
}

