import type { SiteDetails } from '../../../core/site';
import { siteDetailsField } from './site-questions';

/** What the user has entered on the upload stage and not yet sent. */
export interface AnalysisDraft {
  file: File | null;
  description: string;
  siteDetails: SiteDetails;
}

export const EMPTY_DRAFT: AnalysisDraft = { file: null, description: '', siteDetails: {} };

/**
 * The multipart body of POST /api/analyze-tree: the image, the description only when it
 * has non-blank content (SPEC 5), the site questions only when any is answered.
 */
export function analysisForm(file: File, draft: AnalysisDraft): FormData {
  const form = new FormData();
  form.append('image', file);
  const description = draft.description.trim();
  if (description) form.append('description', description);
  const siteDetails = siteDetailsField(draft.siteDetails);
  if (siteDetails) form.append('siteDetails', siteDetails);
  return form;
}
