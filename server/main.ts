import { serve } from '@hono/node-server';
import { migrateDatabase, openDatabase } from '../db/client';
import { createApp } from './app';
import { nodeServerOptions } from './http/node-server';
import { runHousekeeping } from './ops/housekeeping';
import { sendDueReminders } from './jobs/reminders';
import { sendDueInvoiceReminders } from './invoices/reminders';
import { expireQuotes } from './jobs/quote-links';
import { sendHeldLeadUpdates } from './businesses/lead-mail';
import { retryFailedLookups } from './protection/lookup';
import { PostcodeLookups } from './protection/postcode-lookups';
import { recoverReservations } from './analysis/reservations';
import { systemClock } from './clock';
import { ConfigError, loadConfig, type Config } from './config';
import { createMailer } from './mail/create-mailer';
import { createPaymentProvider } from './payments/create-provider';
import { cardPaymentsOffReason, createCardPaymentsProvider } from './card-payments/create-provider';
import { cardPaymentsOpen } from './card-payments/checkout';
import { createVisionProvider } from './analysis/vision';
import { createAssistants } from './assistant/create-assistant';
import { batchedDestination, createLogger } from './log';
import { watchEventLoop } from './ops/event-loop';
import { RateLimits } from './http/rate-limit';
import { replicateDatabase } from './replication/replicate-database';
import { createPhotoStore } from './storage/create-photo-store';
import { keepNewFilesPrivate, tightenDataDir } from './ops/data-permissions';

/** The thin entry (CONVENTIONS 1): read config, open and migrate the database, listen, shut down cleanly. */
async function start(): Promise<void> {
  // Before DATA_DIR, the secret or the database is made: what this process creates is its user's alone.
  keepNewFilesPrivate();
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const logOut = batchedDestination();
  const logger = createLogger({ level: config.logLevel, destination: logOut });
  // An install from before the rule (0644 files in a 0755 DATA_DIR) is closed now (server/ops/data-permissions.ts).
  const tightened = tightenDataDir(config.dataDir);
  if (tightened > 0) logger.info({ dataDir: config.dataDir, tightened }, 'took group and other permissions off files in DATA_DIR');
  // REPLICA_URL: Litestream streams the database off the box, unless the start is refused
  // (an empty DATA_DIR over a replica that holds data). Without it nothing of this runs.
  const replication = config.replica && (await replicateDatabase(config.databaseFile, config.dataDir, config.replica, logger));
  if (typeof replication === 'string') {
    console.error(replication);
    process.exit(1);
  }
  const db = openDatabase(config.databaseFile);
  migrateDatabase(db, config.migrationsDir);
  const clock = systemClock;
  const mailer = createMailer(config, logger);
  const payments = createPaymentProvider(config, clock);
  const cardPayments = createCardPaymentsProvider(config, clock);
  const photos = createPhotoStore(config);
  // Analyses a previous process paid for and never finished (killed, crashed) are refunded
  // before this one takes a request (server/analysis/reservations.ts).
  const recovered = await recoverReservations(db, clock, photos, logger);
  if (recovered > 0) logger.warn({ recovered }, 'refunded analyses left unfinished by the previous process');
  // Aborted on SIGTERM: model calls in flight stop at once and their credits are refunded.
  const stopping = new AbortController();
  // A warning line for each second the event loop waited over 200 ms: one request is holding it.
  const eventLoop = watchEventLoop({ onDelayed: (delayMs) => logger.warn({ delayMs }, 'event loop delayed') });
  const vision = createVisionProvider(config);
  // One set of postcode lookups in flight for the app and the housekeeping: a postcode is asked once at a time.
  const postcodeLookups = new PostcodeLookups();
  const app = createApp(
    { db, config, clock, mailer, vision, assistants: createAssistants(config, vision), payments, cardPayments, logger, photos, eventLoop, stopping: stopping.signal },
    {
      dashboardDir: config.dashboardDir,
      widgetDir: config.widgetDir,
      warmFirstView: true,
      rateLimits: new RateLimits({
        embedAnalysesPerAddress: { points: config.embedAnalysesPerAddress, windowSeconds: 60 * 60 },
        leadsPerAddress: { points: config.leadsPerAddress, windowSeconds: 60 * 60 },
      }),
      replica: replication,
      postcodeLookups,
    },
  );

  // At start and hourly: expired sessions, old reset tokens and event ids, demo refills, quotes
  // past their validity marked expired, the one reminder to customers who have not answered, and
  // the overdue invoices' reminders (at most two each).
  const housekeeping = () => {
    const done = runHousekeeping(db, clock);
    const quotesExpired = expireQuotes(db, clock.now());
    const quoteReminders = sendDueReminders({ db, clock, mailer, config, logger, photos });
    const invoiceReminders = sendDueInvoiceReminders({ db, clock, mailer, config, logger, photos }, (userId) => cardPaymentsOpen({ db, cardPayments }, userId));
    logger.info({ ...done, quotesExpired, quoteReminders, invoiceReminders }, 'housekeeping');
    // Protected trees' lookups that failed (a service down) are asked again, in the background.
    void app.background
      .track(retryFailedLookups({ db, clock, config, logger }, postcodeLookups))
      .then((protectionLookups) => protectionLookups > 0 && logger.info({ protectionLookups }, 'protected trees lookups asked again'))
      .catch((err: unknown) => logger.error({ err }, 'protected trees lookups failed to run'));
  };
  housekeeping();
  app.background.every(60 * 60 * 1000, housekeeping);
  // Every minute: a quote request's updates held back so its owner gets one e-mail in ten
  // minutes (server/businesses/lead-mail.ts) go out once that window has passed.
  const heldLeadUpdates = () => {
    const sent = sendHeldLeadUpdates({ db, clock, config });
    if (sent > 0) logger.info({ leadUpdates: sent }, 'held quote request updates sent');
  };
  heldLeadUpdates();
  app.background.every(60 * 1000, heldLeadUpdates);

  const server = serve({ fetch: app.fetch, port: config.port, serverOptions: nodeServerOptions }, (info) => {
    // "listening on" stays in the message: scripts and benches wait for it.
    logger.info(
      { port: info.port, publicUrl: config.publicUrl, dataDir: config.dataDir, mail: mailer.kind, payments: payments?.kind ?? 'not configured', cardPayments: cardPayments?.kind ?? cardPaymentsOffReason(config) ?? 'off', photos: photos.location },
      `TreeAnalyzer Pro listening on http://localhost:${info.port}`,
    );
    // Scripts and operators watch for this line: out now, not with the next batch.
    logOut.flush();
  });

  const shutdown = (signal: string) => {
    if (stopping.signal.aborted) return;
    logger.info({ signal }, 'stopping: finishing open requests, refunding analyses still waiting for the model');
    stopping.abort();
    // Give in-flight requests up to 10 s, then close the database and exit.
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close(async () => {
      // Every e-mail is a row of the outbox (server/mail/outbox.ts): nothing needs draining. The
      // worker sends what is due for up to 5 s, lets a conversation in flight finish (bounded by
      // the 10 s above) and stops; what is left, or cut short, is sent by the next start. The
      // other background work (ops/background.ts: timers, lookups asked again) stops with it.
      await app.close();
      mailer.close?.();
      db.$client.close();
      // Litestream after the database: its final sync ships the last writes.
      void (replication ? replication.stop() : Promise.resolve()).then(() => {
        logger.info('stopped');
        process.exit(0);
      });
    });
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

await start();
