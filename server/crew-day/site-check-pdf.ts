import { SITE_HAZARD_LABELS, type SiteCheck } from '../../core/crew-day';
import { formatBookingDate } from '../../core/job-booking';
import { formatQuoteDate } from '../../core/quote';
import { useQuoteFonts } from '../quotes/job-quote-font';
import { heading, paragraph, quoteTheme } from '../quotes/job-quote-layout';
import { BOTTOM_MARGIN, MARGIN, loadPdfkit, pdfBytes } from '../quotes/report-layout';
import type { QuoteCompany } from '../settings/quote-company';


const UK_MOMENT = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
/** "2 June 2026 at 07:55", UK time. */
export const ukMoment = (iso: string) => UK_MOMENT.format(new Date(iso)).replace(', ', ' at ');


export interface SiteCheckPdfJob {
  reference: string;
  siteAddress: string;
  customerName: string;
}

/**
 * The day's site check as a record (docs/product.md, The crew's day, The site check): the business,
 * the site, the date, the findings, the emergency plan with the nearest A&E and what to tell 999,
 * who signed and when, and whether it was complete. Laid out as the house's other PDFs
 * (server/protection/section-211-pdf.ts).
 */
export async function siteCheckPdf(job: SiteCheckPdfJob, check: SiteCheck, company: QuoteCompany, now: Date): Promise<Buffer> {
  const theme = quoteTheme(null);
  const PDFDocument = await loadPdfkit();
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM_MARGIN },
    displayTitle: true,
    info: { Title: `Site check, ${job.reference}, ${check.date}`, Author: company.tradingName || 'TreeAnalyzer Pro', Creator: 'TreeAnalyzer Pro', CreationDate: now, ModDate: now },
  });
  const finished = pdfBytes(doc);
  await useQuoteFonts(doc);

  paragraph(doc, 'Site risk assessment and emergency plan', { bold: true, size: 15, gap: 2 });
  paragraph(doc, `${company.tradingName || 'Tree work'}. Job ${job.reference}. For ${formatBookingDate(check.date, 'long')}.`, { gap: 2 });
  paragraph(doc, check.complete ? 'Complete: every hazard answered, the plan given, signed by the people on site.' : `Not complete: ${check.missing.join(' ')}`, { bold: true, gap: 10 });

  doc.y = heading(doc, theme, 'The site');
  paragraph(doc, job.siteAddress || 'No site address on the job', { gap: 1 });
  paragraph(doc, `Customer: ${job.customerName}`, { gap: 1 });
  const plan = check.emergency;
  if (plan) {
    const position = plan.latitude !== null && plan.longitude !== null ? `, latitude ${plan.latitude.toFixed(5)}, longitude ${plan.longitude.toFixed(5)}` : ', position not found';
    paragraph(doc, `Postcode: ${plan.postcode ?? 'not known'}${position}`, { gap: 1 });
    if (plan.what3words) paragraph(doc, `what3words: ${plan.what3words}`, { gap: 1 });
  }
  doc.y += 8;

  doc.y = heading(doc, theme, 'The hazards and their controls');
  if (check.hazards.length === 0) paragraph(doc, 'Not answered yet.');
  for (const hazard of check.hazards) {
    paragraph(doc, `${SITE_HAZARD_LABELS[hazard.key]}: ${hazard.present ? 'present' : 'not present'}`, { bold: true, gap: 1 });
    if (hazard.controls) paragraph(doc, hazard.present ? `Controls: ${hazard.controls}` : hazard.controls, { gap: 4 });
    else doc.y += 3;
  }
  doc.y += 6;

  doc.y = heading(doc, theme, 'The emergency plan');
  if (!plan) paragraph(doc, 'Not given yet.');
  else {
    paragraph(doc, 'In an emergency call 999 (or 112). Give the postcode, the what3words if there is one, and the meeting point; send someone to meet the ambulance.', { bold: true, gap: 6 });
    paragraph(doc, `Meeting point: ${plan.meetingPoint}`, { gap: 2 });
    paragraph(doc, `Vehicle access: ${plan.vehicleAccess}`, { gap: 2 });
    paragraph(doc, `Aerial rescuer: ${plan.aerialRescuer.name}`, { gap: 2 });
    paragraph(
      doc,
      plan.nearestHospital
        ? `Nearest A&E: ${plan.nearestHospital.name}, ${plan.nearestHospital.postcode} (${plan.nearestHospital.distanceKm} km in a straight line)`
        : "Nearest A&E: not worked out (no hospital on the team's list, or the site's position not found)",
      { gap: 2 },
    );
    paragraph(doc, `Phone signal: ${plan.signalNote ?? 'on site'}`, { gap: 8 });
  }

  doc.y = heading(doc, theme, 'Signed by the people on site');
  if (check.signatures.length === 0) paragraph(doc, 'No one has signed yet.');
  for (const signature of check.signatures) paragraph(doc, `${signature.name}, ${ukMoment(signature.signedAt)}`, { gap: 2 });
  doc.y += 8;
  const updated = check.updatedAt ? `Last changed ${ukMoment(check.updatedAt)}${check.updatedBy ? ` by ${check.updatedBy}` : ''}. ` : '';
  paragraph(doc, `${updated}Printed ${formatQuoteDate(now)}.`, { size: 8 });
  doc.end();
  return finished;
}
