import type { VatMode } from './price';

/**
 * The embeddable estimator's contract (docs/product.md, Embed
 * widget), shared by the server, the dashboard's Business Admin and the widget. No zod
 * here: the widget imports this file and its bundle is budgeted (core/business.ts holds
 * the schemas).
 */

/** docs/product.md, Embed widget: what the widget says when it cannot serve a visitor. */
export const BUSINESS_NOT_FOUND_MESSAGE = 'Business configuration not found';
export const EMBED_UNAVAILABLE_MESSAGE = 'This estimator is temporarily unavailable.';
/** The daily cap or a rate limit was reached (a public endpoint that spends credits must not be open to abuse). */
export const EMBED_BUSY_MESSAGE = 'The estimator is busy, please try again later';
/**
 * The visitor's own limit (server/http/rate-limit.ts embedAnalysesPerAddress):
 * unlike "busy", it is theirs, so it says so and how long to wait, in whole minutes rounded up
 * ("1 minute" down to the last second). The server writes it into the 429 and the widget counts
 * it down from Retry-After.
 */
export function visitorLimitMessage(waitSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(waitSeconds / 60));
  return `You have made several estimates; please try again in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}
/** The widget's words while the visitor waits out their limit, and once the wait is over. */
export const VISITOR_LIMIT_KEPT = 'Your photo and answers are kept, so you can send them again then.';
export const VISITOR_LIMIT_OVER = 'You can send your estimate again now';
export const VISITOR_LIMIT_STILL_HERE = 'Your photo and answers are still here.';
/** A visitor's analysis that failed on our side: what they can do, and nothing of how the server is set up. */
export const EMBED_RETRY_MESSAGE = "We couldn't work out an estimate just now. Please try again in a minute.";

/**
 * Words a business's visitor must never read in the estimator (docs/product.md, Embed widget): how the operator set
 * the server up (models, providers, configuration) or what the owner pays with (credits).
 * Server tests hold every text an embed answer carries against it. The electricity "network
 * operator" of the power-lines safety warning (server/analysis/safety.ts) is the visitor's to
 * call, not ours, and stays.
 */
export const OPERATOR_WORDS = /\b(?:AI|models?|vision|credits?|providers?|configur\w*|(?<!network )operator|OpenAI|API keys?)\b/i;

/**
 * A factor as a visitor reads it: where the owner's copy says what the photo's model read, the
 * visitor's says what the photo suggested (the same figure, no word of how it was read).
 */
export function factorForVisitor(factor: string): string {
  return factor.replace(/\bthe AI model (?:read|thought)\b/g, 'the photo suggested');
}
export const EMBED_ANALYSIS_FAILED = 'Analysis failed';

/** Default analyses a business's estimator may run per UTC day; its owner can change it. */
export const DEFAULT_DAILY_CAP = 50;
/**
 * The most a business may allow a day. At most 1,000 (10,000 credits), so the daily cap is always
 * reached before the per-business rate (30 in any 10 minutes, 4,320 a day) could charge more: the
 * worst day an owner can be charged is the cap they chose (docs/security.md, Abuse of the public
 * estimator). 1,000 is ten times the largest plan's monthly analyses.
 */
export const MAX_DAILY_CAP = 1_000;

/** docs/product.md, Embed widget: the four processing steps, a bar of (step+1)*25 %, a tick each second. */
export const EMBED_PROCESSING_STEPS = [
  'Processing image...',
  'Analyzing tree characteristics...',
  'Calculating time estimates...',
  'Finalizing results...',
] as const;
/** The same four steps in the visitor's UK English, as the estimator on a business's site shows them. */
export const VISITOR_PROCESSING_STEPS = [
  'Processing your photo...',
  'Analysing the tree...',
  'Working out the time...',
  'Working out your price...',
] as const satisfies readonly string[] & { length: (typeof EMBED_PROCESSING_STEPS)['length'] };
export const EMBED_TICK_MS = 1000;

/** docs/product.md, Embed widget: an iframe 100% wide and 600 px high; the fixed height stays as the no-script fallback. */
export const EMBED_IFRAME_HEIGHT = 600;

/** The custom element's tag, and the DOM events it dispatches for the host page's own analytics. */
export const ELEMENT_TAG = 'tree-estimator';
export const RESULT_EVENT = 'tree-estimator:result';
export const LEAD_EVENT = 'tree-estimator:lead';

/**
 * postMessage from /embed/{slug} to the page framing it. The host side (widget.js)
 * accepts them only from our origin and only for one of its own iframes.
 */
export const RESIZE_MESSAGE = 'tree-estimator:resize';
export type EmbedFrameMessage =
  | { type: typeof RESIZE_MESSAGE; height: number }
  | { type: typeof RESULT_EVENT; detail: EstimateEventDetail }
  | { type: typeof LEAD_EVENT; detail: LeadEventDetail };

/** `event.detail` of tree-estimator:result: the totals and cost a business may want in its analytics. */
export interface EstimateEventDetail {
  slug: string;
  analysisId: number;
  species: string | null;
  totalMinutes: { min: number; max: number };
  /** The price the visitor was shown, decimal text in GBP, e.g. "120.00"; null when the business's rate is 0. */
  cost: { min: string; max: string } | null;
  /** Whether that price includes VAT ('inc'), excludes it ('ex') or has none ('none'); null with no price. */
  vat: VatMode | null;
  currency: 'GBP';
}

/** `event.detail` of tree-estimator:lead. No contact details: they are the visitor's, sent only to the business. */
export interface LeadEventDetail {
  slug: string;
  /** The first tree of the request. */
  analysisId: number;
  /** How many trees the request carried (several trees, one request). */
  trees: number;
}

/** What GET /api/businesses/{slug} tells anyone: never owner data or a balance. */
export const EMBED_STATUSES = ['available', 'unavailable', 'busy'] as const;
export type EmbedStatus = (typeof EMBED_STATUSES)[number];

/**
 * The business's estimator funnel (docs/embedding.md, The funnel): what is counted per UTC day. Loads, estimates,
 * needs-details answers and leads are counted by the server as it answers them; a chosen photo
 * is the one step only the widget sees, and it tells the server (POST /api/businesses/{slug}/events).
 * `trees` counts the trees in the day's leads (a request carries up to LEAD_MAX_TREES).
 */
export const FUNNEL_STEPS = ['loads', 'photos', 'estimates', 'needsDetails', 'leads', 'trees'] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];
/** The events the widget may report: only what the server cannot see itself. */
export const WIDGET_EVENTS = ['photo'] as const;
export type WidgetEvent = (typeof WIDGET_EVENTS)[number];
/** A day of the funnel, with the visitors turned away that day by the business's daily cap or rate. */
export type FunnelDay = { date: string; turnedAway: number } & Record<FunnelStep, number>;
/** Days a funnel request may ask for (`?days=`), and the default. */
export const FUNNEL_DAYS = { default: 30, max: 90 } as const;

/** Lead form limits, shared by the widget's inputs and the server's schema. */
export const LEAD_LIMITS = { name: 100, email: 254, phone: 30, note: 1000, postcode: 10, address: 300 } as const;
/** The most trees (estimates of one visit) one quote request carries: `trees` of POST /api/businesses/{slug}/leads. */
export const LEAD_MAX_TREES = 10;
/** The honeypot: a field people never see or fill; bots that fill every input do. */
export const LEAD_HONEYPOT_FIELD = 'website';
export const LEAD_THANKS = 'Thank you! Your request has been sent.';

/**
 * A quote request's reference as the visitor and the business read it: R-000123, from the
 * lead's id (as core/jobs.ts jobReference makes a quote's Q-000012). The widget's thanks, the
 * visitor's acknowledgement and the owner's e-mail all print the same one.
 */
export function requestReference(leadId: number): string {
  return `R-${String(leadId).padStart(6, '0')}`;
}
/** A quote request without the estimate's token, or with one too long to be ours. */
export const LEAD_TOKEN_REQUIRED = 'leadToken is required: send the leadToken of the estimate answer';
/** Our tokens are 43 characters (256 bits, base64url); anything far longer is refused unread. */
export const LEAD_TOKEN_MAX = 200;
/** One answer for a wrong or expired token, another business's estimate and an id nobody has. */
export const ESTIMATE_NOT_FOUND = 'Estimate not found. Please price the tree again.';

/**
 * docs/product.md, Embed widget: lowercase, drop every character but letters, digits, spaces and hyphens,
 * spaces to hyphens, repeated hyphens collapsed. Leading and trailing hyphens are
 * trimmed too, so the result is a valid slug (or empty).
 */
export function slugFromName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .trim()
    .replace(/ /g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX = 60;

/**
 * The text of an exact origin: http or https, `://`, a host of letters, digits, dots, hyphens
 * (a name, or an IPv4 address) or an [IPv6] address, an optional port, an optional final slash.
 * Nothing else: no `*`, path, query, fragment, user, quote, semicolon or space. The URL parser
 * alone is not enough: it takes `https://*.example.com` and `https://a.com;script-src` as
 * hosts, and either would be a wildcard or a new directive in the embed page's frame-ancestors.
 * A name in another script is written as the browser sends it, in punycode (xn--...).
 */
const EXACT_ORIGIN = /^https?:\/\/(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?\/?$/i;

/**
 * A site origin as a browser sends it in `Origin`: scheme, host and port only
 * (https://example.com, http://localhost:8080). Returns the canonical form, or null when
 * the text is not one exact origin (a wildcard, a path, a query, another scheme, a keyword
 * such as 'self'). The one rule for allowedOrigins, the Business Admin form and the embed
 * page's frame-ancestors.
 */
export function canonicalOrigin(text: string): string | null {
  const trimmed = text.trim();
  if (!EXACT_ORIGIN.test(trimmed)) return null;
  try {
    const url = new URL(trimmed);
    // The parser's own answer must still be one origin (it refuses port 65536, a bad IPv6).
    return url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password ? url.origin : null;
  } catch {
    return null;
  }
}

/** What the API and the Business Admin form say of an entry that is not an exact origin. */
export function notAnOriginMessage(entry: string): string {
  const shown = entry.length > 80 ? `${entry.slice(0, 80)}…` : entry;
  return `${JSON.stringify(shown)} is not a website origin: use the exact address, e.g. https://www.example.com`;
}

/** The textarea's lines (one origin per line) as a list; blank lines dropped. */
export function originLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * "Copy Embed" (docs/product.md, Embed widget): an iframe of width 100%, height 600 pointing at /embed/{slug};
 * the optional second line loads widget.js, which resizes the frame to its content.
 */
export function iframeSnippet(publicUrl: string, slug: string): string {
  const base = publicUrl.replace(/\/$/, '');
  return [
    `<iframe src="${escapeAttribute(`${base}/embed/${slug}`)}" width="100%" height="${EMBED_IFRAME_HEIGHT}" style="border:0;width:100%;max-width:100%" title="Tree work estimator" loading="lazy"></iframe>`,
    `<script src="${escapeAttribute(`${base}/widget.js`)}" async></script>`,
  ].join('\n');
}

/** The script-tag form: the element where the estimator should appear, and the loader. */
export function scriptSnippet(publicUrl: string, slug: string): string {
  const base = publicUrl.replace(/\/$/, '');
  return [
    `<${ELEMENT_TAG} slug="${escapeAttribute(slug)}"></${ELEMENT_TAG}>`,
    `<script src="${escapeAttribute(`${base}/widget.js`)}" async></script>`,
  ].join('\n');
}
