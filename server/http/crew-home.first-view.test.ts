import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { firstViewRenderer } from './crew-home';

/*
 * My days' first view as the server loads it (server/http/crew-home.ts). `npm test` builds it beside
 * the vitest suite, whose test servers serve dist/: a server may start while the build is half
 * written. That is the same as no build, never a rejection nobody awaits (which fails the run).
 */

const WHOLE = 'export function renderMyDays(answers) { return "<p>" + answers.myDays.days.length + " days</p>"; }';
const answers = { me: {}, myDays: { days: [{ date: '2026-12-03', bookings: [] }] }, asOf: 0 } as never;

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'treeanalyzer-first-view-'));
  file = join(dir, 'first-view.js');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('is undefined without a build, and draws with one', async () => {
  expect(await firstViewRenderer(file)()).toBeUndefined();
  writeFileSync(file, WHOLE);
  const render = await firstViewRenderer(file)();
  expect(render?.(answers)).toBe('<p>1 days</p>');
});

it('a build cut off mid-write is told once and goes without; the finished build is used at the next ask', async () => {
  writeFileSync(file, WHOLE.slice(0, 40));
  const errors: unknown[] = [];
  const firstView = firstViewRenderer(file, (err) => errors.push(err));
  // As the server does at its start: asked, and nobody waits for the answer.
  void firstView();
  expect(await firstView()).toBeUndefined();
  expect(await firstView()).toBeUndefined();
  expect(errors).toHaveLength(1);
  writeFileSync(file, WHOLE);
  expect((await firstView())?.(answers)).toBe('<p>1 days</p>');
  expect(errors).toHaveLength(1);
});

it('a module without renderMyDays is told, not called', async () => {
  writeFileSync(file, 'export const other = 1;');
  const errors: unknown[] = [];
  expect(await firstViewRenderer(file, (err) => errors.push(err))()).toBeUndefined();
  expect(String(errors[0])).toContain('renderMyDays');
});
