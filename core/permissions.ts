import type { TeamRole } from './team';

/**
 * Who may do what: the one table (CONVENTIONS 17, docs/security.md, Roles). The server checks
 * every request against ROUTE_AREAS before the handler (server/http/permissions.ts); the dashboard
 * reads PAGE_AREAS and mayUse to hide what a role cannot use; server/http/permissions.test.ts walks
 * every route the app serves as each role and checks each answer against this file.
 *
 * An area is a part of the product, with the roles that may use it and the sentence a refusal
 * says (403 ROLE_FORBIDDEN), which names who can. A record outside what a person may see (another
 * team's, or a job not booked to a crew member's crew) is a 404 from the route itself, as
 * before teams existed.
 */
const ALL: readonly TeamRole[] = ['owner', 'office', 'crew'];
const OFFICE: readonly TeamRole[] = ['owner', 'office'];
const OWNER: readonly TeamRole[] = ['owner'];

export interface Area {
  roles: readonly TeamRole[];
  /** What a refusal says: who can. */
  refusal: string;
}

export const AREAS = {
  /** Anyone signed in: who they are, signing out, the help assistant, what the install offers. */
  signedIn: { roles: ALL, refusal: 'Please sign in to continue' },
  /** The crew's days: the jobs booked to their crews (docs/product.md, Team). */
  myDays: { roles: ALL, refusal: 'Please sign in to continue' },
  /**
   * The crew's day on a job (docs/product.md, The crew's day): the job sheet, the site check, the
   * timers, the finish and the photos. Every role; a crew member only for jobs booked on a crew they
   * are in (another job is a 404, as another team's is), the owner and the office for any of the team's.
   */
  crewDay: { roles: ALL, refusal: 'Please sign in to continue' },
  analyses: { roles: OFFICE, refusal: 'Only the owner and the office can run or read tree analyses.' },
  credits: { roles: OFFICE, refusal: 'Only the owner and the office can see the credits.' },
  accuracy: { roles: OFFICE, refusal: 'Only the owner and the office can see estimate accuracy.' },
  estimators: { roles: OFFICE, refusal: 'Only the owner and the office can manage the website estimators and their leads.' },
  /** Crews and kit, and the schedule (docs/product.md, Schedule); crew members do not list crews for now. */
  schedule: { roles: OFFICE, refusal: 'Only the owner and the office can plan the crews and the schedule.' },
  /** The climbing wind limit in the schedule's settings: how windy is too windy to climb is the owner's call. */
  climbingLimit: { roles: OWNER, refusal: 'Only the owner can set the climbing wind limit.' },
  jobs: { roles: OFFICE, refusal: 'Only the owner and the office can open jobs and quotes. Your work is in My days.' },
  invoices: { roles: OFFICE, refusal: 'Only the owner and the office can see invoices and payments.' },
  settings: { roles: OFFICE, refusal: 'Only the owner and the office can change the settings.' },
  mail: { roles: OFFICE, refusal: 'Only the owner and the office can see the e-mail waiting to be sent.' },
  billing: { roles: OWNER, refusal: 'Only the owner can change the plan and billing.' },
  cardSetup: { roles: OWNER, refusal: 'Only the owner can set up card payments.' },
  bankDetails: { roles: OWNER, refusal: 'Only the owner can change the bank details.' },
  team: { roles: OWNER, refusal: 'Only the owner can manage the team.' },
  account: { roles: OWNER, refusal: "Only the owner can download or delete the business's account." },
  /** The install's admin log: the owner of an admin account (users.role admin) only. */
  adminLog: { roles: OWNER, refusal: 'Only the owner can read the admin log.' },
} as const satisfies Record<string, Area>;
export type AreaName = keyof typeof AREAS;

/** A route nobody needs to be signed in for (a page, a link that is its own key, a webhook). */
export type RouteAccess = AreaName | 'public';

/**
 * Every route the app serves, as `METHOD /path` with Hono's parameter patterns taken out
 * (routeKey): `/api/jobs/:id{[0-9]+}` is `/api/jobs/:id`. A route the app serves that is missing
 * here stops createApp (server/http/permissions.ts), so none is added without a decision.
 */
export const ROUTE_AREAS: Record<string, RouteAccess> = {
  'GET /healthz': 'public',

  'POST /api/auth/register': 'public',
  'POST /api/auth/login': 'public',
  'POST /api/auth/logout': 'public',
  'GET /api/auth/me': 'signedIn',
  'POST /api/auth/forgot-password': 'public',
  'POST /api/auth/reset-password': 'public',
  'GET /api/account/export': 'account',
  'DELETE /api/account': 'account',

  'GET /api/team': 'team',
  'POST /api/team/invitations': 'team',
  'DELETE /api/team/invitations/:id': 'team',
  'POST /api/team/invitations/:id/resend': 'team',
  'GET /api/team/invitations/:token': 'public',
  // The team's logo on the join page, through an open link only.
  'GET /api/team/invitations/:token/logo': 'public',
  'POST /api/team/join': 'public',
  'PATCH /api/team/members/:id': 'team',
  'DELETE /api/team/members/:id': 'team',
  'POST /api/team/owner': 'team',
  'GET /api/my-days': 'myDays',

  'GET /api/crews': 'schedule',
  'POST /api/crews': 'schedule',
  'PATCH /api/crews/:id': 'schedule',
  'DELETE /api/crews/:id': 'schedule',
  'GET /api/schedule': 'schedule',
  'POST /api/schedule/postpone': 'schedule',

  'GET /api/user-tokens': 'credits',
  'GET /api/system-settings': 'settings',
  // Bank details are the owner's: a patch that changes them is refused for office (bankDetails).
  'PATCH /api/system-settings': 'settings',
  'GET /api/system-settings/logo': 'settings',
  'POST /api/system-settings/logo': 'settings',
  'DELETE /api/system-settings/logo': 'settings',
  'GET /api/mail-outbox': 'mail',
  'POST /api/mail-outbox/:id/retry': 'mail',

  // A visitor's analysis on a business's estimator (?businessSlug=) is public: PUBLIC_WHEN_QUERY.
  'POST /api/analyze-tree': 'analyses',
  'OPTIONS /api/analyze-tree': 'public',
  'GET /api/analyses': 'analyses',
  'GET /api/analysis/:id': 'analyses',
  'GET /api/analysis/:id/image': 'analyses',
  'PATCH /api/analysis/:id/feedback': 'analyses',
  'GET /api/analysis/:id/report.pdf': 'analyses',
  'GET /api/analysis/:id/quote-recipient': 'analyses',
  'GET /api/accuracy': 'accuracy',

  'GET /api/billing/config': 'billing',
  'POST /api/create-payment-intent': 'billing',
  'POST /api/create-subscription': 'billing',
  'POST /api/payment-success': 'billing',
  'POST /api/cancel-subscription': 'billing',
  'POST /api/subscription/change': 'billing',
  'POST /api/demo/confirm-payment': 'billing',
  'POST /api/stripe/webhook': 'public',

  // The estimator's own calls, made by a visitor's browser on the business's site.
  'GET /api/businesses/:slug': 'public',
  'OPTIONS /api/businesses/:slug': 'public',
  'POST /api/businesses/:slug/events': 'public',
  'OPTIONS /api/businesses/:slug/events': 'public',
  'POST /api/businesses/:slug/leads': 'public',
  'OPTIONS /api/businesses/:slug/leads': 'public',
  'GET /api/businesses/:slug/site-note': 'public',
  'OPTIONS /api/businesses/:slug/site-note': 'public',
  'GET /api/businesses': 'estimators',
  'POST /api/businesses': 'estimators',
  'PATCH /api/businesses/:id': 'estimators',
  'DELETE /api/businesses/:id': 'estimators',
  'GET /api/businesses/:id/funnel': 'estimators',
  'GET /api/businesses/:id/leads': 'estimators',
  'PATCH /api/businesses/:id/leads/:leadId': 'estimators',

  'GET /api/jobs': 'jobs',
  'GET /api/jobs/summary': 'jobs',
  'POST /api/jobs': 'jobs',
  'GET /api/jobs/:id': 'jobs',
  'PATCH /api/jobs/:id': 'jobs',
  'POST /api/jobs/:id/lines': 'jobs',
  'POST /api/jobs/:id/trees': 'jobs',
  'POST /api/jobs/:id/send': 'jobs',
  'POST /api/jobs/:id/cancel': 'jobs',
  'POST /api/jobs/:id/revoke': 'jobs',
  'GET /api/jobs/:id/quote.pdf': 'jobs',
  'POST /api/jobs/:id/book': 'jobs',
  'PATCH /api/jobs/:id/booking': 'jobs',
  'POST /api/jobs/:id/ask-early-start': 'jobs',
  'POST /api/jobs/:id/done': 'jobs',
  'POST /api/jobs/:id/invoices': 'invoices',
  'GET /api/jobs/:id/invoices': 'invoices',
  'GET /api/jobs/:id/protection': 'jobs',
  'POST /api/jobs/:id/protection/lookup': 'jobs',
  'PUT /api/jobs/:id/protection/record': 'jobs',
  'GET /api/jobs/:id/section-211': 'jobs',
  'PUT /api/jobs/:id/section-211': 'jobs',
  'GET /api/jobs/:id/section-211.pdf': 'jobs',
  // The crew's day on a job (docs/product.md, The crew's day): every role, a crew member only on a
  // job booked on their crew (the routes answer anything else 404). The sheet's notes are the office's.
  'GET /api/jobs/:id/sheet': 'crewDay',
  'GET /api/jobs/:id/sheet/photos/:itemId': 'crewDay',
  'GET /api/jobs/:id/site-check': 'crewDay',
  'PUT /api/jobs/:id/site-check': 'crewDay',
  'POST /api/jobs/:id/site-check/sign': 'crewDay',
  'GET /api/jobs/:id/site-check.pdf': 'crewDay',
  'PATCH /api/jobs/:id/site-notes': 'jobs',
  // The crew's work on a job (docs/product.md, The crew's day): the route finds the job the person may work on.
  'POST /api/jobs/:id/work': 'crewDay',
  'POST /api/jobs/:id/finish': 'crewDay',
  'POST /api/jobs/:id/photos': 'crewDay',
  'GET /api/jobs/:id/photos': 'crewDay',
  'GET /api/jobs/:id/photos/:photoId': 'crewDay',
  // Correcting a done job's actual times is the office's, as "Mark as done" is.
  'PATCH /api/jobs/:id/actuals': 'jobs',

  // The customer's quote and invoice links: the token is the key (CONVENTIONS 13).
  'GET /api/quotes/:token': 'public',
  'GET /api/quotes/:token/quote.pdf': 'public',
  'POST /api/quotes/:token/accept': 'public',
  'POST /api/quotes/:token/decline': 'public',
  'POST /api/quotes/:token/changes': 'public',
  'POST /api/quotes/:token/cancel': 'public',

  'GET /api/invoices': 'invoices',
  'GET /api/invoices/summary': 'invoices',
  'GET /api/invoices/export.csv': 'invoices',
  'GET /api/invoices/jobs': 'invoices',
  'GET /api/invoices/:id': 'invoices',
  'PATCH /api/invoices/:id': 'invoices',
  'DELETE /api/invoices/:id': 'invoices',
  'POST /api/invoices/:id/issue': 'invoices',
  'POST /api/invoices/:id/payments': 'invoices',
  'DELETE /api/invoices/:id/payments/:paymentId': 'invoices',
  'POST /api/invoices/:id/payments/:paymentId/refund': 'invoices',
  'POST /api/invoices/:id/credit-notes': 'invoices',
  'GET /api/invoices/:id/credit-notes/:creditNoteId/credit-note.pdf': 'invoices',
  'GET /api/invoices/:id/invoice.pdf': 'invoices',
  'POST /api/invoices/:id/send': 'invoices',
  'POST /api/invoices/:id/revoke': 'invoices',
  'GET /api/invoice-links/:token': 'public',
  'POST /api/invoice-links/:token/checkout': 'public',
  'GET /api/invoice-links/:token/invoice.pdf': 'public',
  'GET /api/invoice-links/:token/credit-notes/:creditNoteId/credit-note.pdf': 'public',

  'GET /api/payments-setup': 'cardSetup',
  'POST /api/payments-setup/onboarding': 'cardSetup',
  // Stripe sends the owner back here from its onboarding; the route itself checks the session.
  'GET /api/payments-setup/onboarding/refresh': 'cardSetup',
  // Problems with card payments and refunds owed are money the office chases (invoices).
  'GET /api/card-payment-problems': 'invoices',
  'POST /api/card-payment-problems/:id/resolve': 'invoices',
  'GET /api/refunds-due': 'invoices',
  'POST /api/card-payments/webhook': 'public',

  'GET /api/capabilities': 'public',
  'POST /api/chatbot': 'public',
  'GET /api/admin/log-accounts': 'adminLog',
  'GET /api/admin/accounts': 'adminLog',
  'GET /api/admin/sign-ins': 'adminLog',
  'GET /api/openapi.json': 'public',

  // Pages: the widget, the customer's quote, invoice and payment pages, the dashboard's app page.
  'GET /widget.js': 'public',
  'GET /widget/*': 'public',
  'GET /embed/:slug': 'public',
  'GET /quote/:token': 'public',
  'POST /quote/:token/:form': 'public',
  'GET /quote/:token/:form': 'public',
  'POST /quote/:token/deposit/pay': 'public',
  'POST /quote/:token/cancel': 'public',
  'GET /quote/:token/cancel': 'public',
  'POST /quote/:token/start-early': 'public',
  'GET /quote/:token/start-early': 'public',
  'GET /quote/:token/items/:itemId/photo': 'public',
  'GET /quote/:token/logo': 'public',
  'GET /quote/:token/invoices/:id': 'public',
  'POST /quote/:token/invoices/:id/pay': 'public',
  'GET /quote/:token/invoices/:id/invoice.pdf': 'public',
  'GET /quote/:token/invoices/:id/credit-notes/:creditNoteId/credit-note.pdf': 'public',
  'GET /invoice/:token': 'public',
  'POST /invoice/:token/pay': 'public',
  'GET /invoice/:token/invoice.pdf': 'public',
  'GET /invoice/:token/credit-notes/:creditNoteId/credit-note.pdf': 'public',
  'GET /pay/demo/:session': 'public',
  'POST /pay/demo/:session': 'public',
  'GET /help/quote-fingerprint': 'public',
  // The dashboard's built files (served only when the dashboard is built) and its app page.
  'GET /assets/*': 'public',
  'GET /*': 'public',
};

/**
 * A route visitors use too: the analysis a visitor runs on a business's estimator (named by this
 * query parameter, or, from another site, in the form) is paid by the business and needs no
 * sign-in, so without a session the route's own checks decide; a signed-in person asking without
 * the parameter is checked against the area as everywhere else.
 */
export const PUBLIC_WHEN_QUERY: Record<string, string> = { 'POST /api/analyze-tree': 'businessSlug' };

/**
 * Parts of a route's body that belong to a narrower area than the route: PATCH /api/system-settings
 * is the office's, but its bank details are the owner's (a payee changed by someone else is how
 * invoice fraud starts), so a patch that carries them needs the bankDetails area; and the
 * climbing wind limit is the owner's (who is sent up a tree in what wind is the employer's duty).
 */
export const SETTINGS_FIELD_AREAS: Record<string, AreaName> = { bankDetails: 'bankDetails', climbingWindLimitMs: 'climbingLimit' };

/** The first area among a body's fields that the role may not use, if any. */
export function fieldAreaRefused(role: TeamRole, body: Record<string, unknown>, fields: Record<string, AreaName>): AreaName | undefined {
  return Object.entries(fields).find(([field, area]) => body[field] !== undefined && !mayUse(role, area))?.[1];
}

/** The table's key for a route as Hono holds it: parameter patterns (`{[0-9]+}`) taken out. */
export function routeKey(method: string, path: string): string {
  return `${method} ${path.replace(/(:\w+)\{(?:[^{}]|\{[^{}]*\})*\}/g, '$1')}`;
}

export function mayUse(role: TeamRole, area: AreaName): boolean {
  return (AREAS[area].roles as readonly TeamRole[]).includes(role);
}

/**
 * The dashboard's screens and the area each belongs to: the header shows a link only to a role
 * that may use it, and a page a role may not use says the area's refusal instead of loading.
 */
export const PAGE_AREAS: Record<string, AreaName> = {
  '/': 'analyses',
  '/my-days': 'myDays',
  '/my-days/jobs/:id': 'crewDay',
  '/settings': 'settings',
  '/admin/businesses': 'estimators',
  '/admin/log': 'adminLog',
  '/checkout': 'billing',
  '/subscribe': 'billing',
  '/history': 'analyses',
  '/history/:id': 'analyses',
  '/jobs': 'jobs',
  '/jobs/:id': 'jobs',
  '/invoices': 'invoices',
  '/accuracy': 'accuracy',
  '/schedule': 'schedule',
};

/** Where a person lands after signing in: a crew member's work is in My days. */
export function homePathFor(role: TeamRole): string {
  return mayUse(role, 'analyses') ? '/' : '/my-days';
}
