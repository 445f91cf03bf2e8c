import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { batchedDestination, createLogger } from './log';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'treeanalyzer-log-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const linesIn = (file: string) => {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

describe('batched log output', () => {
  it('writes lines in batches, and a quiet moment\'s lines within about a second', async () => {
    const file = join(dir, 'out.log');
    const logger = createLogger({ destination: batchedDestination(file, 200) });
    logger.info({ n: 1 }, 'first');
    logger.info({ n: 2 }, 'second');
    // Not one write per line: both are still gathering.
    expect(linesIn(file)).toHaveLength(0);
    for (let i = 0; i < 40 && linesIn(file).length < 2; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(linesIn(file).map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['first', 'second']);
  });

  it('loses nothing when the process exits right after logging', () => {
    const file = join(dir, 'exit.log');
    const script = `
      import { batchedDestination, createLogger } from ${JSON.stringify(new URL('./log.ts', import.meta.url).pathname)};
      const logger = createLogger({ destination: batchedDestination(${JSON.stringify(file)}, 60000) });
      for (let i = 0; i < 5; i += 1) logger.info({ i }, 'line');
      logger.info('stopped');
      setTimeout(() => process.exit(0), 50);
    `;
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: new URL('..', import.meta.url).pathname });
    const lines = linesIn(file);
    expect(lines).toHaveLength(6);
    expect((JSON.parse(lines[5]!) as { msg: string }).msg).toBe('stopped');
  });
});
