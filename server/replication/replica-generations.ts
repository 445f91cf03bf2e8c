import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LitestreamCommandFailed, runLitestreamCommand } from './litestream-command';
import type { ReplicaTarget } from './replica-settings';

/** One generation on the replica: a history that started from one snapshot (Litestream's word). */
export interface Generation {
  id: string;
  /** The first and last replicated moment, from Litestream's `generations` table. */
  start: string;
  end: string;
}

export class ReplicaUnreachable extends Error {}

/**
 * The generations the replica holds, from `litestream generations`. That command looks at the
 * local database file before it lists the replica (v0.3.13 refuses a missing one), so it is
 * pointed at an empty stand-in file in a temporary folder, configured with the same replica:
 * the answer is the replica's whatever DATA_DIR holds. A replica that cannot be reached (wrong
 * keys, no network) is an error, never an empty list.
 */
export async function replicaGenerations(binary: string, target: ReplicaTarget, syncIntervalMs: number): Promise<Generation[]> {
  const dir = mkdtempSync(join(tmpdir(), 'treeanalyzer-replica-'));
  try {
    const standIn = join(dir, 'stand-in.sqlite');
    writeFileSync(standIn, '');
    let stdout: string;
    try {
      ({ stdout } = await runLitestreamCommand(binary, 'generations', { databaseFile: standIn, target, syncIntervalMs }, { timeoutMs: 60_000 }));
    } catch (err) {
      if (!(err instanceof LitestreamCommandFailed)) throw err;
      throw new ReplicaUnreachable(`Could not read the replica: ${err.lastLines(1)}`);
    }
    return parseGenerations(stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `name generation lag start end`, columns padded with spaces; newest end last. */
export function parseGenerations(text: string): Generation[] {
  const rows = text
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length >= 5 && /^[0-9a-f]{16}$/.test(cols[1]!));
  return rows.map((cols) => ({ id: cols[1]!, start: cols[3]!, end: cols[4]! })).sort((a, b) => a.end.localeCompare(b.end));
}
