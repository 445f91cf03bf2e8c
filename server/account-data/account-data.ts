import { and, asc, eq, ne } from 'drizzle-orm';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { immediate } from '../../db/client';
import { businesses, creditLedger, jobPhotos, teamMembers, treeAnalyses, userTokens, users } from '../../db/schema';
import { listLeads } from '../businesses/leads';
import { listOwnBusinesses, toBusinessView } from '../businesses/businesses';
import type { AppDeps } from '../deps';
import { readImage, toAnalysisView } from '../analysis/store';
import { tokensView } from '../credits/tokens-view';
import { isSubscriptionActive } from '../payments/billing';
import { readLogo } from '../settings/logo';
import { deleteLeftovers, isLogoName, isPhotoName, logoKey, photoKey } from '../storage/photo-store';
import { getCompanyProfile, settingsResponseFor } from '../settings/settings';
import { findUserById, toPublicUser } from '../accounts/users';
import { listOwnInvoices } from '../invoices/invoices';
import { toInvoiceView } from '../invoices/invoice-view';

/**
 * The user's rights over their data (UK GDPR articles 15, 17 and 20; docs/product.md, Accounts): a copy of
 * everything kept about them in a portable form, and erasure.
 *
 * The export is a ZIP: JSON files a person or another program can read (the account, its
 * settings and businesses with their leads, every analysis, the credit ledger, the invoices) and the
 * photos and logo as the files they are. It is built as it is sent, one photo at a time when
 * the client asks for more, so a long history never sits in memory whole.
 */
const README = `TreeAnalyzer Pro: your data

account.json   your account, credits and plan, settings and company profile,
               your website estimators and the quote requests they received
analyses.json  every tree analysis, newest first; "photo" names its file in photos/
ledger.json    every change to your credit balance
invoices.json  every invoice you made, with its lines, payments and credit notes
photos/        the photos you analysed (as stored: resized, without location data)
logo.png       your company logo, if you uploaded one
`;

const json = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);

export function exportFileName(username: string, now: Date): string {
  return `treeanalyzer-data-${username.replace(/[^A-Za-z0-9_-]/g, '_')}-${now.toISOString().slice(0, 10)}.zip`;
}

/** The export's files in order: small JSON first, then one entry per photo, read when its turn comes. */
function exportEntries(deps: AppDeps, userId: number): { name: string; data: () => Promise<Uint8Array | null>; compress: boolean }[] {
  const { db, clock, photos } = deps;
  const user = findUserById(db, userId)!;
  const ownBusinesses = listOwnBusinesses(db, userId);
  const rows = db
    .select({ row: treeAnalyses, businessName: businesses.name })
    .from(treeAnalyses)
    .leftJoin(businesses, eq(businesses.id, treeAnalyses.businessId))
    .where(eq(treeAnalyses.userId, userId))
    .orderBy(asc(treeAnalyses.id))
    .all();
  const ledger = db
    .select({ delta: creditLedger.delta, reason: creditLedger.reason, reference: creditLedger.reference, createdAt: creditLedger.createdAt })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .orderBy(asc(creditLedger.id))
    .all();
  const { logoPath } = getCompanyProfile(db, userId);
  const photoName = (id: number) => `photos/analysis-${id}.jpg`;

  const account = {
    exportedAt: clock.now().toISOString(),
    user: { ...toPublicUser(user), createdAt: user.createdAt.toISOString() },
    credits: tokensView(db, clock, userId),
    settings: settingsResponseFor(db, userId),
    businesses: ownBusinesses.map((row) => ({ ...toBusinessView(db, clock, row), leads: listLeads(db, row) })),
  };
  const analyses = rows.map(({ row, businessName }) => ({ ...toAnalysisView(row, businessName), photo: row.imagePath ? photoName(row.id) : null }));

  return [
    { name: 'README.txt', data: async () => new TextEncoder().encode(README), compress: true },
    { name: 'account.json', data: async () => json(account), compress: true },
    { name: 'analyses.json', data: async () => json(analyses), compress: true },
    { name: 'ledger.json', data: async () => json(ledger), compress: true },
    { name: 'invoices.json', data: async () => json(listOwnInvoices(db, userId).map((row) => toInvoiceView(db, row, clock.now()))), compress: true },
    // JPEG and PNG are compressed already: stored as they are.
    ...rows
      .filter(({ row }) => row.imagePath)
      .map(({ row }) => ({ name: photoName(row.id), data: () => readImage(photos, row.imagePath!), compress: false })),
    ...(logoPath ? [{ name: 'logo.png', data: () => readLogo(photos, logoPath), compress: false }] : []),
  ];
}

/** The ZIP as a stream: each pull adds the next file, so memory holds about one photo at a time. */
export function exportAccountZip(deps: AppDeps, userId: number): ReadableStream<Uint8Array> {
  const entries = exportEntries(deps, userId);
  let next = 0;
  let zip: Zip;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((err, chunk, final) => {
        if (err) return controller.error(err);
        controller.enqueue(chunk);
        if (final) controller.close();
      });
    },
    async pull() {
      const entry = entries[next];
      next += 1;
      if (!entry) return zip.end();
      const data = await entry.data();
      // A photo missing on disk (removed by hand) is left out rather than failing the whole export.
      if (!data) return;
      const file = entry.compress ? new ZipDeflate(entry.name, { level: 6 }) : new ZipPassThrough(entry.name);
      zip.add(file);
      file.push(data, true);
    },
  });
}

/** What the user must have done before erasure: nothing owed to the provider keeps running. */
export function activeSubscriptionOf(deps: AppDeps, userId: number): string | null {
  const row = deps.db.select().from(userTokens).where(eq(userTokens.userId, userId)).get();
  return row?.stripeSubscriptionId && isSubscriptionActive(row) ? row.stripeSubscriptionId : null;
}

/**
 * Erases the account: the subscription is ended at the provider first (a failure there stops
 * the deletion, so nobody is charged for an account that no longer exists), then the user's
 * row goes in one transaction and every row that hangs off it with it (foreign keys cascade:
 * sessions, reset tokens, credits and ledger, analyses, settings, businesses, leads, usage),
 * and the users rows of the team's other members, then the photos and logo from the photo store (one that cannot be reached then leaves them, named in
 * the log for the operator: the erasure itself has happened). Payment events keep their id with the user set to null, so
 * a late webhook is still recognised as handled.
 */
export async function deleteAccount(deps: AppDeps, userId: number): Promise<{ photos: number }> {
  const { db, payments, photos: store, logger } = deps;
  const subscriptionId = activeSubscriptionOf(deps, userId);
  if (subscriptionId && payments) await payments.cancelNow(subscriptionId);
  const { logoPath } = getCompanyProfile(db, userId);
  const photos = immediate(db, (tx) => {
    const names = tx
      .select({ imagePath: treeAnalyses.imagePath })
      .from(treeAnalyses)
      .where(eq(treeAnalyses.userId, userId))
      .all()
      .flatMap((r) => (r.imagePath ? [r.imagePath] : []));
    // The crews' before and after photos of the account's jobs go too.
    names.push(...tx.select({ name: jobPhotos.imageName }).from(jobPhotos).where(eq(jobPhotos.accountId, userId)).all().map((r) => r.name));
    // The team goes with its account (docs/product.md, Team): each member's own sign-in too, or a
    // users row left without its team_members row would sign in as the owner of an empty team of
    // one. Read before the account's row, whose deletion cascades to the team_members rows.
    const members = tx
      .select({ userId: teamMembers.userId })
      .from(teamMembers)
      .where(and(eq(teamMembers.accountId, userId), ne(teamMembers.userId, userId)))
      .all();
    for (const member of members) tx.delete(users).where(eq(users.id, member.userId)).run();
    tx.delete(users).where(eq(users.id, userId)).run();
    return names;
  });
  // Files after the commit: a failed transaction leaves everything, a crash here leaves only unnamed files.
  const logo = logoPath && isLogoName(logoPath) ? [logoKey(logoPath)] : [];
  await deleteLeftovers(store, [...photos.filter(isPhotoName).map(photoKey), ...logo], logger);
  return { photos: photos.length };
}
