import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DATABASE_FILE } from './ops/backup';
import { readReplicaSettings, type ReplicaSettings } from './replication/replica-settings';
import { z } from 'zod';
import { readPhotoStoreSettings, type PhotoStoreSettings } from './storage/store-url';

/** An unset or blank variable reads as unset; a set one is trimmed. */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const optionalUrl = optionalString.pipe(z.url({ message: 'must be a URL such as http://localhost:3000' }).optional());

/**
 * The environment, validated once at start (the README's Configuration table). Every value is
 * optional for a first run; a bad value stops the start with a message naming the variable.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: optionalUrl,
  SESSION_SECRET: optionalString.pipe(
    z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  ),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl,
  OPENAI_MODEL: optionalString,
  /** How long one vision request may take before the analysis fails and is refunded. */
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_BASE: optionalUrl,
  /**
   * Customers' card payments (docs/payments.md, Customers' card payments): with Stripe keys,
   * `connect` (the default: each business connects its own Stripe account) or `own` (the install's
   * account takes every business's customers' payments: an install run by one firm); `off` turns
   * them off. Without keys the demo takes them outside production.
   */
  CARD_PAYMENTS: z.enum(['connect', 'own', 'off']).optional(),
  /** The signing secret of the webhook endpoint for customers' card payments (a Connect endpoint, or the account's own for `own`). */
  STRIPE_CONNECT_WEBHOOK_SECRET: optionalString,
  /** The install's share of each Connect card payment, 0 to 20 percent with at most two decimals (default 0). */
  CARD_APPLICATION_FEE_PERCENT: z.coerce
    .number()
    .min(0)
    .max(20, { message: 'must be at most 20 (percent)' })
    .refine((v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-9, { message: 'at most two decimals' })
    .default(0),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\/.+/, { message: 'must look like smtp://user:pass@host:587 or smtps://host:465' })
      .optional(),
  ),
  MAIL_FROM: optionalString.pipe(z.string().min(3).optional()),
  /**
   * The outbox's timing (server/mail/outbox-worker.ts): the wait before a refused message's first
   * retry (default one minute, doubling to four hours; given up after 48 hours), and how long one
   * SMTP conversation may wait on the server (default 60 s; a message claimed by a process that
   * stopped mid-send is tried again after five times that). Lower only to test.
   */
  MAIL_RETRY_FIRST_MS: z.coerce.number().int().min(10).max(3_600_000).default(60_000),
  MAIL_SEND_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  /** Fair-use cap of analyses a day during an Unlimited pass (docs/product.md, Credits and payments). */
  PASS_DAILY_CAP: z.coerce.number().int().min(1).max(10_000).default(25),
  /**
   * Estimates one visitor address may ask of the embedded estimators in an hour (default 10). Raise
   * it where many homeowners share one address (a library, an office behind one NAT).
   */
  EMBED_ANALYSES_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000).default(10),
  /** Quote requests one visitor address may send through the embedded estimators in an hour (default 5). */
  LEADS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000).default(5),
  /** Set to true behind one reverse proxy (nginx, Caddy) so rate limits see the client's address. */
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  /** Where the committed SQL migrations, the built dashboard and the built widget live; default under APP_ROOT. */
  /** pino's levels: fatal, error, warn, info (default), debug, trace, silent. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MIGRATIONS_DIR: optionalString,
  /** s3://bucket/prefix for photos and logos in object storage; read with the S3 variables (server/storage/store-url.ts). */
  PHOTO_STORE_URL: optionalString,
  DASHBOARD_DIR: optionalString,
  WIDGET_DIR: optionalString,
  /** s3://bucket/path or file:///folder: the database streamed there by Litestream (server/replication/replica-settings.ts reads these). */
  REPLICA_URL: optionalString,
  REPLICA_MAX_LAG_SECONDS: optionalString,
  REPLICA_SYNC_INTERVAL_MS: optionalString,
  REPLICA_START_EMPTY: optionalString,
  /**
   * Protected trees (server/protection/): a job's postcode is sent to the postcode service for its
   * centre, and that point to the planning data for conservation areas and Tree Preservation
   * Orders (a postcode and a point, never a name). `off` turns the lookups off.
   */
  POSTCODE_LOOKUP_URL: optionalUrl,
  PLANNING_DATA_URL: optionalUrl,
  PROTECTION_LOOKUPS: z.enum(['on', 'off']).optional(),
  /**
   * The schedule's weather (server/weather/): MET Norway's Locationforecast 2.0 at the sites'
   * postcode centres (looked up at POSTCODE_LOOKUP_URL). `off` turns it off. WEATHER_CONTACT is
   * the e-mail address or web address MET Norway's terms ask each request to carry in its
   * User-Agent (default: PUBLIC_URL).
   */
  WEATHER_URL: optionalUrl,
  WEATHER: z.enum(['on', 'off']).optional(),
  /** How long one ask of the forecast (and the schedule's wait for them) may take; lower only to test. */
  WEATHER_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(5_000),
  WEATHER_CONTACT: optionalString.pipe(z.string().max(200, { message: 'at most 200 characters' }).regex(/^[\x21-\x7e]+$/, { message: 'an e-mail address or web address, without spaces' }).optional()),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  dataDir: string;
  databaseFile: string;
  /** The address users reach the product at, used in e-mailed links and the same-origin check. */
  publicUrl: string;
  /**
   * Whether PUBLIC_URL was given. When not (a first run, development), publicUrl is
   * http://localhost:PORT and the same-origin check also takes 127.0.0.1 and [::1] on that port
   * (server/http/public-access.ts ownOrigins).
   */
  publicUrlSet: boolean;
  sessionSecret: string;
  /** Secure cookies when the public address is https. */
  secureCookies: boolean;
  smtpUrl?: string;
  mailFrom: string;
  /** MAIL_RETRY_FIRST_MS and MAIL_SEND_TIMEOUT_MS. */
  mail: { retryFirstMs: number; sendTimeoutMs: number };
  trustProxy: boolean;
  logLevel: Env['LOG_LEVEL'];
  passDailyCap: number;
  /** server/http/rate-limit.ts embedAnalysesPerAddress, per hour. */
  embedAnalysesPerAddress: number;
  /** server/http/rate-limit.ts leadsPerAddress, per hour. */
  leadsPerAddress: number;
  /** drizzle-kit's SQL migrations, applied at start (db/migrations). */
  migrationsDir: string;
  /** The built dashboard (`npm run build` writes dist/dashboard). */
  dashboardDir: string;
  /** The built widget: widget.js, the estimator bundle and its manifest (dist/widget). */
  widgetDir: string;
  /** Litestream replication of the database, when REPLICA_URL is set (server/replication/). */
  replica?: ReplicaSettings;
  openai: { apiKey?: string; baseUrl?: string; model?: string; timeoutMs: number };
  stripe: { secretKey?: string; publishableKey?: string; webhookSecret?: string; apiBase?: string };
  /** Customers' card payments: the mode asked (unset: connect with keys), the Connect webhook's secret, the install's fee. */
  cardPayments: { mode?: 'connect' | 'own' | 'off'; webhookSecret?: string; applicationFeePercent: number };
  /** Where photos and logos live: DATA_DIR's folders, or the bucket PHOTO_STORE_URL names (server/storage/). */
  photoStore: PhotoStoreSettings;
  /**
   * Protected trees' lookups (server/protection/): on unless PROTECTION_LOOKUPS=off; under
   * NODE_ENV=test only when the test gives POSTCODE_LOOKUP_URL (its fake), so no test asks the
   * real services.
   */
  protection: { lookups: boolean; postcodeUrl: string; planningUrl: string };
  /**
   * The schedule's weather (server/weather/): on unless WEATHER=off; under NODE_ENV=test only when
   * the test gives both WEATHER_URL and POSTCODE_LOOKUP_URL (its fakes), so no test asks the real
   * services. `userAgent` names the product and the install's contact, as MET Norway's terms ask.
   */
  weather: { on: boolean; url: string; userAgent: string; timeoutMs: number };
}

export class ConfigError extends Error {}

/**
 * The installation's folder: the nearest one above this module that holds package.json.
 * The same answer from server/config.ts under tsx and from dist/server/main.js in the
 * bundle (where `import.meta.url` is the bundle's), and whatever the working directory
 * is, so `node /opt/treeanalyzer/dist/server/main.js` from a service manager still finds
 * its migrations and dashboard.
 */
function findAppRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}

export const APP_ROOT = findAppRoot(dirname(fileURLToPath(import.meta.url)));

/** A configured folder (relative to the working directory, like DATA_DIR), or the default under APP_ROOT. */
const folder = (configured: string | undefined, underRoot: string) => (configured ? resolve(configured) : join(APP_ROOT, underRoot));

/** Turns zod issues into one line per variable: "PORT: Invalid input: expected number". */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`).join('\n');
}

const STRIPE_KEYS = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;

/**
 * Settings that are each valid alone but not together. In production the public
 * address is required: behind a TLS proxy without it every cookie POST fails the same-origin
 * check and reset links point at localhost. STRIPE_API_BASE is refused there: it would send the
 * secret key to whatever host it names. Stripe needs all three keys: without the webhook
 * secret renewals would never arrive, without the publishable key no card form shows.
 */
function combinationProblems(env: Env): string[] {
  const problems: string[] = [];
  if (env.NODE_ENV === 'production' && !env.PUBLIC_URL) {
    problems.push(
      'PUBLIC_URL: required when NODE_ENV=production; set it to the address users open, e.g. https://trees.example.com (cookies, e-mailed links and the same-origin check use it)',
    );
  }
  if (env.NODE_ENV === 'production' && env.STRIPE_API_BASE) {
    problems.push(
      'STRIPE_API_BASE: not allowed when NODE_ENV=production; it points the Stripe client (and its secret key) at another host, for tests and stripe-mock only. Remove it to reach api.stripe.com',
    );
  }
  const missing = STRIPE_KEYS.filter((key) => !env[key]);
  if (missing.length > 0 && missing.length < STRIPE_KEYS.length) {
    problems.push(`${missing.join(', ')}: missing; Stripe needs all three of ${STRIPE_KEYS.join(', ')}, or none for the demo provider`);
  }
  return problems;
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(`Invalid configuration:\n${describeIssues(parsed.error)}`);
  }
  const problems = combinationProblems(parsed.data);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return parsed.data;
}

/**
 * The session secret: SESSION_SECRET when set, else one generated on first run and kept
 * in DATA_DIR (mode 600) so sessions survive restarts and no secret lives in the repo.
 */
function loadSessionSecret(dataDir: string, fromEnv?: string): string {
  if (fromEnv) return fromEnv;
  const file = join(dataDir, 'session-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  }
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** PHOTO_STORE_URL and the S3 variables, or a ConfigError naming what is wrong. */
function photoStoreFrom(source: Record<string, string | undefined>): PhotoStoreSettings {
  const { settings, problems } = readPhotoStoreSettings(source);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return settings;
}

/** REPLICA_URL and the S3 variables, or a ConfigError naming what is wrong. */
function replicaFrom(source: Record<string, string | undefined>): ReplicaSettings | undefined {
  const { settings, problems } = readReplicaSettings(source);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return settings;
}

/** The product's version, for the User-Agent of outside calls; "0" when package.json cannot be read. */
function productVersion(): string {
  try {
    const parsed = JSON.parse(readFileSync(join(APP_ROOT, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof parsed.version === 'string' && /^[\w.+-]{1,40}$/.test(parsed.version) ? parsed.version : '0';
  } catch {
    return '0';
  }
}

/**
 * "TreeAnalyzerPro/0.1.0 https://trees.example.com ops@example.com": the product and its version,
 * the install's address, and a contact (WEATHER_CONTACT) when given (MET Norway's Terms of Service,
 * Identification: the application or domain name, and an e-mail address or website to reach us).
 */
function weatherUserAgent(publicUrl: string, contact: string | undefined): string {
  return [`TreeAnalyzerPro/${productVersion()}`, publicUrl, contact].filter(Boolean).join(' ');
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const env = parseEnv(source);
  const photoStore = photoStoreFrom(source);
  const replica = replicaFrom(source);
  const dataDir = resolve(env.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    dataDir,
    databaseFile: join(dataDir, DATABASE_FILE),
    publicUrl,
    publicUrlSet: env.PUBLIC_URL !== undefined,
    sessionSecret: loadSessionSecret(dataDir, env.SESSION_SECRET),
    secureCookies: publicUrl.startsWith('https://'),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? 'TreeAnalyzer Pro <no-reply@treeanalyzer.local>',
    mail: { retryFirstMs: env.MAIL_RETRY_FIRST_MS, sendTimeoutMs: env.MAIL_SEND_TIMEOUT_MS },
    trustProxy: env.TRUST_PROXY === 'true',
    logLevel: env.LOG_LEVEL,
    passDailyCap: env.PASS_DAILY_CAP,
    embedAnalysesPerAddress: env.EMBED_ANALYSES_PER_ADDRESS,
    leadsPerAddress: env.LEADS_PER_ADDRESS,
    migrationsDir: folder(env.MIGRATIONS_DIR, 'db/migrations'),
    dashboardDir: folder(env.DASHBOARD_DIR, 'dist/dashboard'),
    widgetDir: folder(env.WIDGET_DIR, 'dist/widget'),
    replica,
    openai: { apiKey: env.OPENAI_API_KEY, baseUrl: env.OPENAI_BASE_URL, model: env.OPENAI_MODEL, timeoutMs: env.OPENAI_TIMEOUT_MS },
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      apiBase: env.STRIPE_API_BASE,
    },
    cardPayments: { mode: env.CARD_PAYMENTS, webhookSecret: env.STRIPE_CONNECT_WEBHOOK_SECRET, applicationFeePercent: env.CARD_APPLICATION_FEE_PERCENT },
    photoStore,
    protection: {
      lookups: env.PROTECTION_LOOKUPS !== 'off' && (env.NODE_ENV !== 'test' || env.POSTCODE_LOOKUP_URL !== undefined),
      postcodeUrl: (env.POSTCODE_LOOKUP_URL ?? 'https://api.postcodes.io').replace(/\/+$/, ''),
      planningUrl: (env.PLANNING_DATA_URL ?? 'https://www.planning.data.gov.uk').replace(/\/+$/, ''),
    },
    weather: {
      on: env.WEATHER !== 'off' && (env.NODE_ENV !== 'test' || (env.WEATHER_URL !== undefined && env.POSTCODE_LOOKUP_URL !== undefined)),
      url: (env.WEATHER_URL ?? 'https://api.met.no/weatherapi/locationforecast/2.0').replace(/\/+$/, ''),
      userAgent: weatherUserAgent(publicUrl, env.WEATHER_CONTACT),
      timeoutMs: env.WEATHER_TIMEOUT_MS,
    },
  };
}
