import type { ContactMethod, ContactTime } from '../core/contact-preference';
import { EMBED_STATUSES, type WidgetEvent } from '../core/embed';
import type { EmbedAnalyzeOutcome } from '../core/embed-api';
import type { PublicBusiness } from '../core/business';
import { ApiError, apiErrorFromAnswer, NO_ANSWER_STATUS } from '../core/error-body';
import { isRecord } from '../core/is-record';

/**
 * The estimator's calls to our server, from whatever site it is embedded in. Never a
 * cookie (the business is named by its slug and everything the widget needs is
 * public: docs/embedding.md, The public API), so every request is `credentials: 'omit'`. No zod: the
 * bundle is budgeted, and the answers come from our own server.
 */

/**
 * The one error the estimator's calls throw, the dashboard's too (core/error-body.ts). A 429's
 * Retry-After is readable from another site because the server's CORS exposes it.
 */
export { ApiError };

export const CONNECTION_MESSAGE = 'Could not reach the estimator. Please check your connection and try again.';
const UNEXPECTED_ANSWER = 'The estimator sent an unexpected answer. Please try again.';

/** The ApiError for a non-OK response. */
export async function readApiError(response: Response): Promise<ApiError> {
  const raw = await response.text().catch(() => '');
  return apiErrorFromAnswer(raw, response.status, response.statusText, response.headers.get('retry-after'));
}

async function send(url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, credentials: 'omit', mode: 'cors' });
  } catch (error) {
    // An abort is the caller's own doing (the element left the page): pass it on as it is.
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(CONNECTION_MESSAGE, NO_ANSWER_STATUS);
  }
  if (!response.ok) throw await readApiError(response);
  return response;
}

async function json(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw new ApiError(UNEXPECTED_ANSWER, response.status);
  }
}

/*
 * The answers' shapes, checked field by field without zod (the bundle is budgeted): the fields
 * the estimator reads must be there with their types, or the answer is "unexpected" rather than
 * a screen that breaks halfway. The server's own schemas for them are core/business.ts
 * publicBusinessSchema and core/embed-api.ts; fields added there later pass through unchecked.
 */
const isText = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isTextOrNull = (value: unknown) => value === null || isText(value);
const isNumberOrNull = (value: unknown) => value === null || isNumber(value);
const isTexts = (value: unknown) => Array.isArray(value) && value.every(isText);
const isCostRange = (value: unknown) => isRecord(value) && isText(value.min) && isText(value.max);

function isPublicBusiness(value: unknown): value is PublicBusiness {
  return (
    isRecord(value) &&
    isText(value.name) &&
    isText(value.slug) &&
    isText(value.hourlyRate) &&
    isTextOrNull(value.accentColor) &&
    (EMBED_STATUSES as readonly unknown[]).includes(value.status) &&
    typeof value.sizesFromPhoto === 'boolean'
  );
}

const TIME_FIELDS = ['cuttingTimeMin', 'cuttingTimeMax', 'prepTimeMin', 'prepTimeMax', 'cleanupTimeMin', 'cleanupTimeMax'] as const;

/** The estimate's analysis: everything the result cards, the lead form and the host page's event read. */
function isEmbedAnalysis(value: unknown): boolean {
  return (
    isRecord(value) &&
    isNumber(value.id) &&
    isTextOrNull(value.species) &&
    isNumberOrNull(value.diameter) &&
    isNumberOrNull(value.height) &&
    isTextOrNull(value.woodDensity) &&
    TIME_FIELDS.every((field) => isNumber(value[field])) &&
    isTexts(value.factors) &&
    isTexts(value.safetyWarnings) &&
    isNumber(value.confidence) &&
    isTextOrNull(value.siteVisitReason) &&
    isText(value.hourlyRate) &&
    (value.cost === null || isCostRange(value.cost)) &&
    Array.isArray(value.included) &&
    value.included.every((item) => isRecord(item) && isText(item.text) && typeof item.included === 'boolean') &&
    isTexts(value.sizeWarnings) &&
    isGuide(value.guide)
  );
}

/** The guide price in the visitor's words: what the results show (core/homeowner-guide.ts). */
function isGuide(value: unknown): boolean {
  if (!isRecord(value) || !isRecord(value.nextStep) || !Array.isArray(value.madeUp)) return false;
  const price = value.price;
  return (
    (price === null || (isRecord(price) && isNumber(price.minPence) && isNumber(price.maxPence) && isText(price.vatMode))) &&
    isText(value.nextStep.heading) &&
    isTexts(value.nextStep.reasons) &&
    value.madeUp.every((row) => isRecord(row) && isText(row.label) && isText(row.value)) &&
    isTexts(value.goodToKnow)
  );
}

/** An estimate, or what is missing for one (nothing was charged). */
function isAnalyzeOutcome(value: unknown): value is EmbedAnalyzeOutcome {
  if (!isRecord(value)) return false;
  if (value.outcome === 'needs_details') return isText(value.message) && isTexts(value.missing) && isTexts(value.reasons);
  return value.outcome === 'estimate' && isEmbedAnalysis(value.analysis) && isNumber(value.confidence) && isText(value.leadToken);
}

/** One estimate of the visit in a quote request: its id and the answer's leadToken, the proof this visitor saw it. Kept in memory only. */
export interface LeadTree {
  analysisId: number;
  leadToken: string;
}

export interface LeadRequest {
  /** Every tree the visitor priced in this visit, in order: one request carries them all. */
  trees: LeadTree[];
  name: string;
  email?: string;
  phone?: string;
  note?: string;
  /** Where the job is: a UK postcode (core/postcode.ts), and the address if they give it. */
  postcode: string;
  address?: string;
  /** How and when the visitor would like to hear back (core/contact-preference.ts); left out when not tapped. */
  contactMethod?: ContactMethod;
  contactTime?: ContactTime;
  /** The honeypot (LEAD_HONEYPOT_FIELD): sent as typed, empty for people. */
  website?: string;
}

/** What goes with the photo: the visitor's notes, and their answers as JSON text (widget/questions/answers.ts). */
/** The request's answer: the thanks, whether the postcode is outside the districts the business lists, and the request's reference (R-000123). */
export interface LeadAnswer {
  message: string;
  outsideArea: boolean;
  reference: string | null;
}

export interface AnalyzeFields {
  description: string;
  treeDetails?: string;
  siteDetails?: string;
}

export interface EstimatorApi {
  business(slug: string, signal?: AbortSignal): Promise<PublicBusiness>;
  analyze(slug: string, image: File, fields: AnalyzeFields, signal?: AbortSignal): Promise<EmbedAnalyzeOutcome>;
  requestQuote(slug: string, lead: LeadRequest): Promise<LeadAnswer>;
  /** Tells the business's funnel a photo was chosen; never fails the visitor (the count is the owner's, not theirs). */
  reportPhoto(slug: string): void;
  /** The note under a typed postcode (a conservation area or TPO found there), or null; never fails the visitor. */
  siteNote(slug: string, postcode: string, signal?: AbortSignal): Promise<string | null>;
}

/** The calls, against `origin` (the server the estimator's own script came from). */
export function estimatorApi(origin: string): EstimatorApi {
  const url = (path: string) => `${origin}${path}`;
  const accept = { Accept: 'application/json' };
  return {
    async business(slug, signal) {
      const response = await send(url(`/api/businesses/${encodeURIComponent(slug)}`), { headers: accept, signal });
      const body = await json(response);
      if (!isPublicBusiness(body)) throw new ApiError(UNEXPECTED_ANSWER, response.status);
      return body;
    },

    async analyze(slug, image, { description, treeDetails, siteDetails }, signal) {
      const form = new FormData();
      form.append('image', image);
      // The description is sent only when it has non-blank content.
      if (description.trim() !== '') form.append('description', description.trim());
      if (treeDetails) form.append('treeDetails', treeDetails);
      if (siteDetails) form.append('siteDetails', siteDetails);
      form.append('businessSlug', slug);
      const response = await send(url(`/api/analyze-tree?businessSlug=${encodeURIComponent(slug)}`), {
        method: 'POST',
        headers: accept,
        body: form,
        signal,
      });
      const body = await json(response);
      if (!isAnalyzeOutcome(body)) throw new ApiError(UNEXPECTED_ANSWER, response.status);
      return body;
    },

    async requestQuote(slug, lead) {
      const response = await send(url(`/api/businesses/${encodeURIComponent(slug)}/leads`), {
        method: 'POST',
        headers: { ...accept, 'Content-Type': 'application/json' },
        body: JSON.stringify(lead),
      });
      const body = await json(response);
      if (!isRecord(body)) return { message: '', outsideArea: false, reference: null };
      return {
        message: typeof body.message === 'string' ? body.message : '',
        outsideArea: body.outsideArea === true,
        reference: typeof body.reference === 'string' ? body.reference : null,
      };
    },

    async siteNote(slug, postcode, signal) {
      try {
        const response = await send(url(`/api/businesses/${encodeURIComponent(slug)}/site-note?postcode=${encodeURIComponent(postcode)}`), { headers: accept, signal });
        const body = await json(response);
        return isRecord(body) && typeof body.note === 'string' ? body.note : null;
      } catch {
        // A courtesy: a failed lookup says nothing.
        return null;
      }
    },

    reportPhoto(slug) {
      const event: { event: WidgetEvent } = { event: 'photo' };
      void send(url(`/api/businesses/${encodeURIComponent(slug)}/events`), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(event),
        keepalive: true,
      }).catch(() => undefined);
    },
  };
}
