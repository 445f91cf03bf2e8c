import { and, eq, inArray } from 'drizzle-orm';
import { formatQuoteDate } from '../../core/quote';
import { SECTION_211_NOTICE_DAYS } from '../../core/protection';
import type { NoticeTree } from '../../core/section-211';
import type { Db } from '../../db/client';
import { treeAnalyses } from '../../db/schema';
import { readImage } from '../analysis/store';
import { thumbnail, type Thumbnail } from '../quotes/job-quote-items';
import { fitInBox } from '../quotes/report-photo';
import type { PhotoStore } from '../storage/photo-store';
import { useQuoteFonts } from '../quotes/job-quote-font';
import { ensureRoom, heading, paragraph, quoteTheme } from '../quotes/job-quote-layout';
import { BOTTOM_MARGIN, MARGIN, loadPdfkit, pdfBytes, type Doc } from '../quotes/report-layout';
import type { QuoteCompany } from '../settings/quote-company';
import { protectionRow } from './lookup';
import { noticeOf, type NoticeJob } from './section-211';



/**
 * The section 211 notice (Town and Country Planning Act 1990 s.211: six weeks' notice to the
 * council before cutting or felling a tree in a conservation area), drafted from the job's
 * estimate and corrected by the surgeon in the job's Protected trees panel
 * (server/protection/section-211.ts): the council and the area from the lookup, the site, each
 * tree's species (or that it is not identified, and how to know it), where it stands on the
 * site, its height and its trunk as given (set against the 7.5 cm threshold), the work, its photo, the
 * surgeon's details and the date. Councils take any written notice that describes the work
 * clearly enough to identify the trees; many also offer the national form, which this notice's
 * content fills in.
 */
/**
 * Each printed tree's photo from its estimate (the homeowner's, for a quote request's tree),
 * shrunk, by the job's line: the account's own analyses only. A photo that cannot be read leaves
 * its tree without one; the words still say which tree.
 */
async function treePhotos(db: Db, store: PhotoStore, job: NoticeJob, trees: readonly NoticeTree[]): Promise<Map<number, Thumbnail>> {
  const analysisOf = new Map(job.items.map((item) => [item.id, item.analysisId]));
  const ids = [...new Set(trees.map((tree) => analysisOf.get(tree.itemId)).filter((id): id is number => id != null))];
  if (ids.length === 0) return new Map();
  const rows = db.select({ id: treeAnalyses.id, imagePath: treeAnalyses.imagePath }).from(treeAnalyses).where(and(eq(treeAnalyses.userId, job.userId), inArray(treeAnalyses.id, ids))).all();
  const byAnalysis = new Map<number, Thumbnail>();
  for (const row of rows) {
    const image = row.imagePath ? await readImage(store, row.imagePath).catch(() => null) : null;
    const small = image ? await thumbnail(image) : null;
    if (small) byAnalysis.set(row.id, small);
  }
  const photos = new Map<number, Thumbnail>();
  for (const tree of trees) {
    const photo = byAnalysis.get(analysisOf.get(tree.itemId) ?? -1);
    if (photo) photos.set(tree.itemId, photo);
  }
  return photos;
}

/** The photo box beside a tree's words: 4:3, small enough for three trees a page. */
const PHOTO_BOX = { width: 160, height: 120 };

function drawPhoto(doc: Doc, photo: Thumbnail, caption: string): void {
  ensureRoom(doc, PHOTO_BOX.height + 16);
  const box = { x: MARGIN, y: doc.y, ...PHOTO_BOX };
  const drawn = fitInBox(photo, box);
  doc.image(photo.image, drawn.x, drawn.y, { width: drawn.width, height: drawn.height });
  doc.y = box.y + PHOTO_BOX.height + 2;
  paragraph(doc, caption, { size: 8, gap: 10 });
}

export async function section211Pdf(db: Db, store: PhotoStore, job: NoticeJob, company: QuoteCompany, now: Date): Promise<Buffer> {
  const row = protectionRow(db, job.id);
  const council = row?.findings?.council?.name ?? null;
  const area = row?.findings?.conservationAreas[0]?.name ?? null;
  const notice = noticeOf(db, job);
  const trees = notice.trees.filter((tree) => tree.printed);
  const otherWork = notice.trees.filter((tree) => !tree.printed).map((tree) => tree.work);
  const photos = await treePhotos(db, store, job, trees);
  const theme = quoteTheme(null);
  const PDFDocument = await loadPdfkit();
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM_MARGIN },
    displayTitle: true,
    info: { Title: `Section 211 notice, ${job.reference}`, Author: company.tradingName || 'TreeAnalyzer Pro', Creator: 'TreeAnalyzer Pro', CreationDate: now, ModDate: now },
  });
  const finished = pdfBytes(doc);
  await useQuoteFonts(doc);

  paragraph(doc, 'Notice of intent to carry out works to trees in a conservation area', { bold: true, size: 15, gap: 2 });
  paragraph(doc, 'Town and Country Planning Act 1990, section 211', { size: 10, gap: 12 });
  paragraph(doc, `To: ${council ?? 'The local planning authority'}`, { bold: true });
  paragraph(doc, `Conservation area: ${area ?? 'to be confirmed with the council'}`);
  paragraph(doc, `Date of this notice: ${formatQuoteDate(now)}`, { gap: 10 });

  doc.y = heading(doc, theme, 'The site');
  paragraph(doc, job.siteAddress ?? 'Site address: to be added before sending');
  paragraph(doc, `Owner: ${job.customerName}`, { gap: 10 });

  doc.y = heading(doc, theme, 'The trees and the work');
  if (trees.length === 0) paragraph(doc, 'No tree is on this notice yet: add each tree (species, where it stands, trunk at 1.5 m) in the job\'s Protected trees panel before sending.');
  for (const tree of trees) {
    paragraph(doc, tree.title, { bold: true, gap: 1 });
    paragraph(doc, `Where it stands: ${tree.location ?? 'to be added before sending'}`, { gap: 1 });
    paragraph(doc, [tree.height ? `Height about ${tree.height}` : 'Height not measured', tree.trunkLine].join('. ') + '.', { gap: 1 });
    const photo = photos.get(tree.itemId);
    paragraph(doc, `Work: ${tree.work}`, { gap: photo ? 4 : 8 });
    if (photo) drawPhoto(doc, photo, `${tree.title.split(':')[0]}, as photographed for the estimate`);
  }
  if (otherWork.length > 0) paragraph(doc, `Other work on the job: ${otherWork.join('; ')}`, { gap: 8 });

  doc.y = heading(doc, theme, 'Given by');
  const details = [company.tradingName, company.address.replace(/\n+/g, ', '), company.phone, company.email].filter((part) => part.trim() !== '');
  paragraph(doc, details.length > 0 ? details.join('\n') : 'Your name, address, phone and e-mail: fill them in under Settings, Company profile', { gap: 10 });
  paragraph(
    doc,
    `We will not start the work until ${SECTION_211_NOTICE_DAYS / 7} weeks after the council receives this notice, unless the council tells us sooner that it will not make a Tree Preservation Order.`,
    { gap: 18 },
  );
  paragraph(doc, 'Signed: ______________________________    Date: ________________');
  doc.end();
  return finished;
}
