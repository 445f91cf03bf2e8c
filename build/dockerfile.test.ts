import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase } from '../db/client';
import { loadConfig } from '../server/config';
import { SERVER_ENTRIES } from './server-bundle';

/**
 * The Dockerfile is not built on this box (no Docker daemon), so these checks keep it in
 * step with what the build and the server really use: the bundle it runs is the one
 * `npm run build` writes, the migrations it copies are where the server looks, the data
 * directory is a volume the unprivileged user owns, and /healthz is what it probes.
 */
const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

describe('Dockerfile', () => {
  it('runs the bundled server that npm run build writes and npm run serve starts', () => {
    expect(SERVER_ENTRIES).toContain('server/main.ts');
    expect(pkg.scripts.build).toContain('build/server-bundle.ts');
    expect(pkg.scripts.serve).toContain('dist/server/main.js');
    expect(finalStage).toMatch(/^CMD \["node", "--enable-source-maps", "dist\/server\/main\.js"\]$/m);
    expect(finalStage).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
  });

  it('copies the migrations to where the server looks for them by default', () => {
    // With no MIGRATIONS_DIR, the server looks in db/migrations beside the package.json it was
    // installed with, and finds migrations it can run there.
    const dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-docker-'));
    try {
      const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
      const installRoot = fileURLToPath(new URL('..', import.meta.url));
      expect(relative(installRoot, config.migrationsDir)).toBe(join('db', 'migrations'));
      const db = openDatabase(config.databaseFile);
      migrateDatabase(db, config.migrationsDir);
      expect(db.$client.prepare("select count(*) as n from sqlite_master where name = 'users'").get()).toEqual({ n: 1 });
      db.$client.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    // The image puts both in its working folder, the same way round.
    expect(finalStage).toMatch(/^COPY db\/migrations \.\/db\/migrations$/m);
    expect(finalStage).toMatch(/^COPY package\.json \.\/$/m);
  });

  it('keeps data on a volume owned by an unprivileged user, with a health check on /healthz', () => {
    expect(finalStage).toMatch(/^ENV NODE_ENV=production/m);
    expect(finalStage).toMatch(/DATA_DIR=\/data/);
    expect(finalStage).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(finalStage).toMatch(/^USER node$/m);
    expect(finalStage).toMatch(/^HEALTHCHECK [\s\S]*\/healthz/m);
    // Production installs leave the dev tools out; the build stage has them.
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
  });
});
