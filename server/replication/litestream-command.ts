import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { writeLitestreamConfig, type LitestreamFileOptions } from './litestream-config';

const run = promisify(execFile);

/** A one-off Litestream command that failed: the last lines it wrote to standard error say why. */
export class LitestreamCommandFailed extends Error {
  constructor(private readonly stderr: string | undefined, message: string) {
    super(message);
  }

  /** The last `count` lines of its standard error, or the error's own message when it wrote none. */
  lastLines(count: number): string {
    return this.stderr?.trim().split('\n').slice(-count).join('\n') ?? this.message;
  }
}

/**
 * `litestream <command> -config <file> -no-expand-env <databaseFile>` with a configuration for
 * `options` written to a temporary folder (no keys in it: Litestream reads them from the
 * environment) and removed afterwards. The shared way replica-generations.ts and
 * restore-replica.ts run Litestream's one-off commands, bounded by `timeoutMs`.
 */
export async function runLitestreamCommand(
  binary: string,
  command: 'generations' | 'restore',
  options: LitestreamFileOptions,
  limits: { timeoutMs: number; maxBuffer?: number },
): Promise<{ stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'treeanalyzer-litestream-'));
  try {
    const config = writeLitestreamConfig(join(dir, 'litestream.yml'), options);
    try {
      return await run(binary, [command, '-config', config, '-no-expand-env', options.databaseFile], {
        timeout: limits.timeoutMs,
        env: process.env,
        ...(limits.maxBuffer ? { maxBuffer: limits.maxBuffer } : {}),
      });
    } catch (err) {
      throw new LitestreamCommandFailed((err as { stderr?: string }).stderr, (err as Error).message);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
