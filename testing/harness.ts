import { serve, type ServerType } from '@hono/node-server';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { migrateDatabase, openDatabase, type Db } from '../db/client';
import { createApp, type App, type AppOptions } from '../server/app';
import { nodeServerOptions } from '../server/http/node-server';
import type { Clock } from '../server/clock';
import { loadConfig, type Config } from '../server/config';
import { createMailer } from '../server/mail/create-mailer';
import { createPaymentProvider } from '../server/payments/create-provider';
import { createCardPaymentsProvider } from '../server/card-payments/create-provider';
import { createVisionProvider } from '../server/analysis/vision';
import { createAssistants } from '../server/assistant/create-assistant';
import { createLogger } from '../server/log';
import type { DestinationStream } from 'pino';
import type { Mailer } from '../server/mail/mailer';
import type { PaymentProvider } from '../server/payments/types';
import { createPhotoStore } from '../server/storage/create-photo-store';
import type { PhotoStore } from '../server/storage/photo-store';

/** A clock the test moves by hand (CONVENTIONS 10). */
export class TestClock implements Clock {
  constructor(private current = new Date('2026-06-01T09:00:00Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface TestServer {
  url: string;
  /** Every log line the app wrote, parsed (the logger writes here, not to the console). */
  logs: Record<string, unknown>[];
  origin: string;
  db: Db;
  config: Config;
  clock: TestClock;
  mailer: Mailer;
  payments: PaymentProvider | null;
  dataDir: string;
  /** Where the app keeps photos and logos: DATA_DIR's folders unless the test gives PHOTO_STORE_URL. */
  photos: PhotoStore;
  /** The app itself, for tests that read its route list (app.routes). */
  app: App;
  /** The listening Node server, for tests that wait for a request to reach it ('request' event). */
  http: ServerType;
  close(): Promise<void>;
}

/**
 * The real app on a real SQLite file in a temp DATA_DIR, listening on a free loopback
 * port, with the real migrations (CONVENTIONS 5). Env overrides reach the real config
 * parser, e.g. { SMTP_URL } to send through a test's SMTP server.
 */
export async function startTestServer(
  env: Record<string, string | undefined> = {},
  options: AppOptions = {},
  /**
   * Where log lines go instead of `logs` (which parses and keeps every line): a benchmark
   * gives a file stream, as production writes to standard output, so a long run measures
   * the logger's real cost rather than a growing array.
   */
  logTo?: DestinationStream,
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-test-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '3000', ...env });
  const db = openDatabase(config.databaseFile);
  migrateDatabase(db, config.migrationsDir);
  const clock = new TestClock();
  const payments = createPaymentProvider(config, clock);
  const cardPayments = createCardPaymentsProvider(config, clock);
  // The same folders production takes from config, unless a test brings its own build.
  const logs: Record<string, unknown>[] = [];
  const logger = logTo
    ? createLogger({ destination: logTo })
    : createLogger({ level: 'debug', destination: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) } });
  const mailer = createMailer(config, logger);
  const vision = createVisionProvider(config);
  const photos = createPhotoStore(config);
  const app = createApp(
    { db, config, clock, mailer, vision, assistants: createAssistants(config, vision), payments, cardPayments, logger, photos },
    { dashboardDir: config.dashboardDir, widgetDir: config.widgetDir, ...options },
  );
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', serverOptions: nodeServerOptions }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  // E-mailed links point at this server.
  config.publicUrl = url;
  return {
    url,
    logs,
    origin: url,
    db,
    config,
    clock,
    mailer,
    payments,
    dataDir,
    photos,
    app,
    http: server,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Kept-alive connections stay open 65 s (server/http/node-server.ts): a test's server ends now.
      if ('closeAllConnections' in server) server.closeAllConnections();
      await closed;
      // What the test's requests started in the background (the outbox's worker, PDFs being made,
      // timers) ends before the database closes and the test file is torn down: nothing of it
      // runs or logs after the test (docs/testing.md).
      await app.close();
      mailer.close?.();
      db.$client.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A tiny HTTP client with a cookie jar, as a browser on our own origin would be:
 * unsafe requests carry Origin and Sec-Fetch-Site: same-origin.
 */
export class TestClient {
  cookies = new Map<string, string>();
  constructor(readonly server: Pick<TestServer, 'url' | 'origin'>) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const h: Record<string, string> = { ...headers };
    if (this.cookies.size > 0) h.cookie = this.cookieHeader();
    if (method !== 'GET' && method !== 'HEAD') {
      h.origin ??= this.server.origin;
      h['sec-fetch-site'] ??= 'same-origin';
    }
    let payload: string | undefined;
    if (body !== undefined) {
      h['content-type'] ??= 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(this.server.url + path, { method, headers: h, body: payload, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      const value = rest.join('=');
      const expired = attrs.some((a) => /max-age=0/i.test(a.trim())) || value === '';
      if (name) {
        if (expired) this.cookies.delete(name.trim());
        else this.cookies.set(name.trim(), value);
      }
    }
    return res;
  }

  get(path: string) {
    return this.request('GET', path);
  }

  /** A multipart POST as the dashboard's file upload sends it. */
  async upload(path: string, form: FormData, headers: Record<string, string> = {}): Promise<Response> {
    const h: Record<string, string> = { origin: this.server.origin, 'sec-fetch-site': 'same-origin', ...headers };
    if (this.cookies.size > 0) h.cookie = this.cookieHeader();
    return fetch(this.server.url + path, { method: 'POST', headers: h, body: form });
  }
  post(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }
}

let counter = 0;
/** A fresh valid registration body; names are unique within the run. */
export function newAccount(overrides: Partial<Record<string, string>> = {}) {
  counter += 1;
  const tag = `${process.pid}${counter}`;
  return {
    firstName: 'Ash',
    lastName: 'Grove',
    username: `user${tag}`,
    email: `user${tag}@example.com`,
    password: 'correct horse',
    confirmPassword: 'correct horse',
    ...overrides,
  };
}

export async function registerClient(server: TestServer, overrides: Partial<Record<string, string>> = {}) {
  const client = new TestClient(server);
  const account = newAccount(overrides);
  const res = await client.post('/api/auth/register', account);
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  return { client, account };
}

/** Moves the clock in 10-day steps, using the client's session on the way so it slides (30-day idle expiry). */
export async function advanceKeepingSession(server: TestServer, client: TestClient, days: number): Promise<void> {
  for (let left = days; left > 0; left -= 10) {
    server.clock.advance(Math.min(10, left) * 24 * 3600_000);
    const res = await client.get('/api/auth/me');
    if (res.status !== 200) throw new Error(`session ended while moving the clock: ${res.status}`);
  }
}
