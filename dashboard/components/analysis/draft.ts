import type { SiteDetails } from '../../../core/site';
import { siteDetailsField } from '../../../core/questions';
import { EMPTY_TREE_DETAILS, treeDetailsField, type TreeDetailsDraft } from './tree-details-draft';

/** What the user has entered on the upload stage and not yet sent. */
export interface AnalysisDraft {
  file: File | null;
  description: string;
  siteDetails: SiteDetails;
  treeDetails: TreeDetailsDraft;
}

export const EMPTY_DRAFT: AnalysisDraft = { file: null, description: '', siteDetails: {}, treeDetails: EMPTY_TREE_DETAILS };

/**
 * The multipart body of POST /api/analyze-tree: the image, the description only when it
 * has non-blank content, the site questions only when any is answered, the tree
 * details (core/tree-details.ts) only with what was given. `sizesConfirmed`: the user has seen
 * the size checks' warnings and says the sizes are right.
 */
export function analysisForm(file: File, draft: AnalysisDraft, { sizesConfirmed = false } = {}): FormData {
  const form = new FormData();
  form.append('image', file);
  const description = draft.description.trim();
  if (description) form.append('description', description);
  const siteDetails = siteDetailsField(draft.siteDetails);
  if (siteDetails) form.append('siteDetails', siteDetails);
  const treeDetails = treeDetailsField(draft.treeDetails);
  if (sizesConfirmed) form.append('treeDetails', JSON.stringify({ ...(treeDetails ? JSON.parse(treeDetails) : {}), sizesConfirmed: true }));
  else if (treeDetails) form.append('treeDetails', treeDetails);
  return form;
}
