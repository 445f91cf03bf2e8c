import { Hono, type MiddlewareHandler } from 'hono';
import { accessLog } from './http/access-log';
import { ApiError, renderError } from './http/errors';
import type { AppEnv } from './http/context';
import { dashboardRoutes } from './http/dashboard';
import { declaresMoreThan } from './http/body';
import { lingerAfterRefusal, LINGER_BOUNDS, type LingerBounds } from './http/linger';
import { sameOriginOnly } from './http/origin';
import { inOneLayer } from './http/one-layer';
import { isPublicCrossOrigin } from './http/public-access';
import { RateLimits } from './http/rate-limit';
import { apiHeaders, transportHeaders } from './http/security-headers';
import { loadSession } from './http/session';
import { assertEveryRouteHasAnArea, enforceRoles } from './http/permissions';
import { JSON_BODY_LIMIT, jsonTooLarge } from './http/validate';
import { widgetRoutes } from './http/widget';
import type { AppDeps } from './deps';
import { processEventLoop } from './ops/event-loop';
import { createBackgroundWork } from './ops/background';
import type { ReplicaStatus } from './replication/replicator';
import { ImageSlots, type AnalysisLoad } from './analysis/slots';
import { UPLOAD_IDLE_MS } from './http/multipart';
import { accountRoutes } from './routes/account';
import { accuracyRoutes } from './routes/accuracy';
import { adminRoutes } from './routes/admin';
import { authRoutes } from './routes/auth';
import { analysisRoutes } from './routes/analysis';
import { billingRoutes } from './routes/billing';
import { businessRoutes } from './routes/businesses';
import { capabilityRoutes } from './routes/capabilities';
import { chatbotRoutes } from './routes/chatbot';
import { creditRoutes } from './routes/credits';
import { jobRoutes } from './routes/jobs';
import { crewDayRoutes } from './routes/crew-day';
import { protectionRoutes } from './routes/protection';
import { quoteRoutes } from './routes/quotes';
import { invoiceRoutes } from './routes/invoices';
import { invoiceLinkRoutes } from './routes/invoice-links';
import { cardPaymentRoutes, CARD_WEBHOOK_PATH } from './routes/card-payments';
import { invoicePageRoutes } from './quote-page/invoice-routes';
import { quotePageRoutes } from './quote-page/routes';
import { fingerprintHelpRoutes } from './quote-page/fingerprint-help';
import { demoCheckoutRoutes } from './quote-page/demo-checkout';
import { openApiRoutes } from './routes/openapi';
import { settingsRoutes } from './routes/settings';
import { teamRoutes } from './routes/team';
import { myDaysRoutes } from './routes/my-days';
import { crewRoutes } from './routes/crews';
import { crewWorkRoutes } from './routes/crew-work';
import { scheduleRoutes } from './routes/schedule';
import { schedulePostponeRoutes } from './routes/schedule-postpone';
import { PostcodeLookups } from './protection/postcode-lookups';
import { mailOutboxRoutes } from './routes/mail-outbox';
import { startMailWorker } from './mail/outbox-worker';

export interface AppOptions {
  /** Where the built dashboard lives; tests that only speak to the API may leave it unbuilt. */
  dashboardDir?: string;
  /** Where the built widget lives (widget.js, the estimator bundle and its manifest). */
  widgetDir?: string;
  rateLimits?: RateLimits;
  /** The analysis route's image slots and upload idle timeout; tests give tiny ones. */
  analysis?: Partial<AnalysisLoad>;
  /** How long and how much of a refused body is read and discarded (http/linger.ts); tests give tiny ones. */
  linger?: Partial<LingerBounds>;
  /** The postcode lookups in flight and the site notes kept; main.ts shares its own with the hourly housekeeping. */
  postcodeLookups?: PostcodeLookups;
  /** Load My days' first view at the start (main.ts), not when a phone first asks (http/dashboard.ts). */
  warmFirstView?: boolean;
  /** Litestream replication (server/replication/), when REPLICA_URL is set: /healthz reports its lag. */
  replica?: { status(): ReplicaStatus };
}

/**
 * Builds the whole HTTP app from injected parts (CONVENTIONS 1): the same function
 * serves production (server/main.ts) and every integration test.
 */
export function createApp(deps: AppDeps, options: AppOptions = {}) {
  const limits = options.rateLimits ?? new RateLimits();
  // Per app, not per module: two apps in one process (tests) never share a line.
  const analysisLoad: AnalysisLoad = {
    slots: options.analysis?.slots ?? new ImageSlots(),
    uploadIdleMs: options.analysis?.uploadIdleMs ?? UPLOAD_IDLE_MS,
  };
  const postcodeLookups = options.postcodeLookups ?? new PostcodeLookups();
  const app = new Hono<AppEnv>();
  // What the app does beside its answers (ops/background.ts): mail after the answer, and whatever
  // else is added (a worker, timers). app.close() stops it all and waits; the caller closes the
  // database after that (server/main.ts, testing/harness.ts).
  const background = createBackgroundWork();

  const transport = transportHeaders({ https: deps.config.secureCookies });
  // What every request needs, as one layer (one-layer.ts says why).
  const context: MiddlewareHandler<AppEnv> = (c, next) => {
    c.set('deps', deps);
    c.set('limits', limits);
    c.set('analysisLoad', analysisLoad);
    c.set('postcodeLookups', postcodeLookups);
    c.set('user', null);
    c.set('person', null);
    return next();
  };
  const linger = lingerAfterRefusal({ ...LINGER_BOUNDS, ...options.linger });
  app.use('*', inOneLayer(context, accessLog, transport, linger));
  app.onError(renderError);

  const ping = deps.db.$client.prepare('select 1');
  // The database answers, and how long the event loop has waited lately (ops/event-loop.ts):
  // 503 while it has stalled for over a second in the last ten, so a load balancer can tell.
  const eventLoop = deps.eventLoop ?? processEventLoop();
  app.get('/healthz', (c) => {
    ping.get();
    const { status, delayMs, windowSeconds } = eventLoop.report();
    if (!options.replica) return c.json({ status, eventLoop: { delayMs, windowSeconds } }, status === 'ok' ? 200 : 503);
    // With replication: 503 too while writes older than REPLICA_MAX_LAG_SECONDS are not on the replica.
    const { maxLagSeconds, ...replica } = options.replica.status();
    const overall = status === 'ok' && replica.lagSeconds > maxLagSeconds ? 'replica lagging' : status;
    return c.json({ status: overall, eventLoop: { delayMs, windowSeconds }, replica }, overall === 'ok' ? 200 : 503);
  });

  const api = new Hono<AppEnv>();
  // A body that declares more than JSON bodies hold is refused before the route runs. One without
  // a length (chunked) is counted as it streams by readJson, with the idle timeout (http/body.ts):
  // Hono's bodyLimit read such a body whole first, with no timeout.
  const jsonBodyLimit: MiddlewareHandler<AppEnv> = (c, next) => {
    if (declaresMoreThan(c.req.raw, JSON_BODY_LIMIT)) throw jsonTooLarge();
    return next();
  };
  // The photo upload, the company logo and the Stripe webhooks have their own, larger limits.
  const ownLimits = new Set(['/api/analyze-tree', '/api/stripe/webhook', CARD_WEBHOOK_PATH, '/api/system-settings/logo']);
  // A GET or HEAD has no body to limit; asking for one makes the node adapter build a full
  // Request on every read.
  const bodiless = new Set(['GET', 'HEAD']);
  // A job's photos from the crew (routes/crew-work.ts) have their own limit too.
  const JOB_PHOTOS_PATH = /^\/api\/jobs\/[0-9]+\/photos$/;
  const limitBody: MiddlewareHandler<AppEnv> = (c, next) =>
    bodiless.has(c.req.method) || ownLimits.has(c.req.path) || JOB_PHOTOS_PATH.test(c.req.path) ? next() : jsonBodyLimit(c, next);
  // Requests other sites may send carry no session in or out (public-access.ts).
  const session: MiddlewareHandler<AppEnv> = (c, next) => (isPublicCrossOrigin(c) ? next() : loadSession(c, next));
  // Every API request, in this order, as one layer: JSON headers, the body limit, the
  // same-origin check, the session, then the role's permission for the route (core/permissions.ts).
  api.use('*', inOneLayer(apiHeaders, limitBody, sameOriginOnly, session, enforceRoles));
  api.route('/auth', authRoutes);
  api.route('/account', accountRoutes);
  api.route('/team', teamRoutes);
  api.route('/my-days', myDaysRoutes);
  api.route('/crews', crewRoutes);
  api.route('/schedule', scheduleRoutes);
  api.route('/schedule', schedulePostponeRoutes);
  api.route('/', creditRoutes);
  api.route('/system-settings', settingsRoutes);
  api.route('/mail-outbox', mailOutboxRoutes);
  api.route('/', analysisRoutes);
  api.route('/accuracy', accuracyRoutes);
  api.route('/', billingRoutes);
  api.route('/businesses', businessRoutes);
  api.route('/jobs', jobRoutes);
  api.route('/jobs', protectionRoutes);
  api.route('/jobs', crewDayRoutes);
  api.route('/jobs', crewWorkRoutes);
  api.route('/quotes', quoteRoutes);
  api.route('/invoices', invoiceRoutes);
  api.route('/invoice-links', invoiceLinkRoutes);
  api.route('/', cardPaymentRoutes);
  api.route('/capabilities', capabilityRoutes);
  api.route('/chatbot', chatbotRoutes(deps));
  api.route('/admin', adminRoutes);
  api.route('/openapi.json', openApiRoutes);
  api.all('*', (c) => {
    throw new ApiError('NOT_FOUND', `No API route for ${c.req.method} ${c.req.path}`);
  });
  app.route('/api', api);

  app.route('/', widgetRoutes(options.widgetDir));
  // The customer's quote page (/quote/<token>): before the dashboard, whose app page answers every other path.
  app.route('/', quotePageRoutes);
  app.route('/', invoicePageRoutes);
  app.route('/', demoCheckoutRoutes);
  app.route('/', fingerprintHelpRoutes);
  app.route(
    '/',
    dashboardRoutes(options.dashboardDir, {
      stripe: deps.payments?.kind === 'stripe',
      warmFirstView: options.warmFirstView,
      onFirstViewError: (err) => deps.logger.error({ err }, "My days' first view could not be loaded: the crew's page goes without it"),
    }),
  );

  // Who may use each route is decided in one table; a route without a place in it stops the start.
  assertEveryRouteHasAnArea(app.routes);

  // The outbox's worker (server/mail/outbox-worker.ts): messages left by a previous process are
  // looked at now; it is a part of the background work, so app.close() stops it.
  const mail = startMailWorker(deps);
  background.add({ idle: () => mail.settled(), close: () => mail.stop() });
  return Object.assign(app, {
    background,
    /** Resolves once the outbox has nothing due by the clock and nothing being made (tests). */
    mailSettled: () => mail.settled(),
    /** Resolves once no background work is in hand (the outbox settled, tracked work ended). */
    idle: () => background.idle(),
    /** Stops the background work (the outbox's worker among it) and waits for what it was doing; then the database may close. */
    close: () => background.close(),
  });
}

export type App = ReturnType<typeof createApp>;
