import type { ContactMethod, ContactTime } from '../core/contact-preference';
import type { EmbedAnalyzeResponse } from '../core/embed-api';
import type { LeadFields } from './lead-validation';

/**
 * The quote request as the visitor types it, kept by the estimator (use-estimator.ts) while
 * they price another tree, so nothing is typed twice; and the trees of the visit it carries.
 */
export interface LeadDraft {
  fields: LeadFields;
  contactMethod?: ContactMethod;
  contactTime?: ContactTime;
  honeypot: string;
  /** The district the business may not cover, once a request from outside its list was sent. */
  outside: string | null;
  /** The sent request's reference (core/embed.ts requestReference), shown with the thanks; null until sent. */
  reference?: string | null;
}

export const EMPTY_LEAD_DRAFT: LeadDraft = {
  fields: { name: '', email: '', phone: '', note: '', postcode: '', address: '' },
  honeypot: '',
  outside: null,
};

/** A tree priced in this visit: its estimate answer (with the token that proves it). */
export type PricedTree = EmbedAnalyzeResponse;
