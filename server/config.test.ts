import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_ROOT, ConfigError, loadConfig, parseEnv } from './config';
import { SERVER_NODE_ARGS } from '../testing/processes';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'treeanalyzer-config-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('configuration', () => {
  it('runs with no variables at all', () => {
    expect(parseEnv({})).toMatchObject({ PORT: 3000, DATA_DIR: './data', NODE_ENV: 'development' });
  });

  it('names the variable when a value is bad', () => {
    expect(() => parseEnv({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => parseEnv({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => parseEnv({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
    expect(() => parseEnv({ SMTP_URL: 'mail.example.com' })).toThrow(/SMTP_URL/);
    expect(() => parseEnv({ SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET: must be at least 32 characters/);
    expect(() => parseEnv({ EMBED_ANALYSES_PER_ADDRESS: '0' })).toThrow(/EMBED_ANALYSES_PER_ADDRESS/);
  });

  it('limits a visitor address to 10 embed estimates and 5 quote requests an hour unless told otherwise', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).embedAnalysesPerAddress).toBe(10);
    expect(loadConfig({ DATA_DIR: tempDir(), EMBED_ANALYSES_PER_ADDRESS: '40' }).embedAnalysesPerAddress).toBe(40);
    expect(loadConfig({ DATA_DIR: tempDir() }).leadsPerAddress).toBe(5);
    expect(loadConfig({ DATA_DIR: tempDir(), LEADS_PER_ADDRESS: '12' }).leadsPerAddress).toBe(12);
    expect(() => parseEnv({ LEADS_PER_ADDRESS: '0' })).toThrow(/LEADS_PER_ADDRESS/);
  });

  it('refuses STRIPE_API_BASE in production, naming it, and allows it elsewhere', () => {
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://trees.example.com', STRIPE_API_BASE: 'http://127.0.0.1:12111' } as const;
    expect(() => parseEnv(production)).toThrow(/^Invalid configuration:\nSTRIPE_API_BASE: not allowed when NODE_ENV=production/);
    expect(parseEnv({ ...production, NODE_ENV: 'development' }).STRIPE_API_BASE).toBe('http://127.0.0.1:12111');
  });

  it('requires PUBLIC_URL in production, naming the variable', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(/^Invalid configuration:\nPUBLIC_URL: required when NODE_ENV=production/);
    expect(parseEnv({ NODE_ENV: 'production', PUBLIC_URL: 'https://trees.example.com' }).PUBLIC_URL).toBe('https://trees.example.com');
    // A first run on a laptop needs nothing.
    expect(() => parseEnv({ NODE_ENV: 'development' })).not.toThrow();
  });

  it('takes all three Stripe keys or none, naming the missing ones', () => {
    const all = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PUBLISHABLE_KEY: 'pk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' };
    expect(() => parseEnv(all)).not.toThrow();
    expect(() => parseEnv({})).not.toThrow();
    expect(() => parseEnv({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET: missing/);
    expect(() => parseEnv({ ...all, STRIPE_WEBHOOK_SECRET: '' })).toThrow(/^Invalid configuration:\nSTRIPE_WEBHOOK_SECRET: missing/);
  });

  it('generates a session secret into DATA_DIR once and reuses it', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'session-secret'), 'utf8').trim()).toBe(first.sessionSecret);
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(first.sessionSecret);
  });

  it('uses secure cookies behind an https public address', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), PUBLIC_URL: 'https://trees.example.com/' })).toMatchObject({
      secureCookies: true,
      publicUrl: 'https://trees.example.com',
    });
  });

  it('finds migrations, dashboard and widget under the installation folder, not the working directory', () => {
    // The repository holds package.json; tests run from it, but APP_ROOT must not depend on that.
    expect(existsSync(join(APP_ROOT, 'package.json'))).toBe(true);
    expect(existsSync(join(APP_ROOT, 'db', 'migrations', 'meta', '_journal.json'))).toBe(true);
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config).toMatchObject({
      migrationsDir: join(APP_ROOT, 'db', 'migrations'),
      dashboardDir: join(APP_ROOT, 'dist', 'dashboard'),
      widgetDir: join(APP_ROOT, 'dist', 'widget'),
    });
  });

  it('takes MIGRATIONS_DIR, DASHBOARD_DIR and WIDGET_DIR, relative ones from the working directory', () => {
    const elsewhere = tempDir();
    const config = loadConfig({ DATA_DIR: tempDir(), MIGRATIONS_DIR: join(elsewhere, 'sql'), DASHBOARD_DIR: 'public/app', WIDGET_DIR: ' ' });
    expect(config.migrationsDir).toBe(join(elsewhere, 'sql'));
    expect(config.dashboardDir).toBe(resolve('public/app'));
    // Blank is unset, as for every other optional variable.
    expect(config.widgetDir).toBe(join(APP_ROOT, 'dist', 'widget'));
  });

  it('stops the server start with a message naming the variable', () => {
    const run = spawnSync(process.execPath, SERVER_NODE_ARGS, {
      env: { ...process.env, PORT: 'not-a-port', DATA_DIR: tempDir() },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toMatch(/PORT: /);
    expect(run.stdout).not.toContain('listening');
  });
});
