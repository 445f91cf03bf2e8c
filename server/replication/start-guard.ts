import { existsSync } from 'node:fs';
import type { Logger } from '../log';
import { litestreamBinary } from './litestream-binary';
import { replicaGenerations } from './replica-generations';
import type { ReplicaSettings } from './replica-settings';

/**
 * Before the server creates a database: an empty DATA_DIR over a replica that already holds data
 * is almost always a new box meant to be restored. Started as it is, the server would create an
 * empty database and Litestream would replicate it as a new generation over the live history.
 * So the start stops and says what to do, unless REPLICA_START_EMPTY=1 says a new empty database
 * is wanted. Returns the refusal's message, or null to go on.
 */
export async function refusalToStartEmpty(databaseFile: string, dataDir: string, settings: ReplicaSettings, logger: Logger): Promise<string | null> {
  if (existsSync(databaseFile)) return null;
  let generations;
  try {
    generations = await replicaGenerations(litestreamBinary(), settings.target, settings.syncIntervalMs);
  } catch (err) {
    return `${(err as Error).message}\nThe server did not start: with REPLICA_URL set and no database in ${dataDir}, it checks the replica first. Fix the replica's settings, or unset REPLICA_URL.`;
  }
  const latest = generations.at(-1);
  if (!latest) return null;
  if (settings.startEmpty) {
    logger.warn({ replica: settings.displayUrl, latestGeneration: latest.id }, 'REPLICA_START_EMPTY=1: starting a new empty database although the replica holds data');
    return null;
  }
  return [
    `The replica ${settings.displayUrl} holds a database (generation ${latest.id}, replicated up to ${latest.end}), and ${dataDir} has none.`,
    'The server did not start, so an empty database is not replicated over it. Either:',
    `  restore it first:   npm run cli -- restore-replica ${dataDir}`,
    '  or start a new empty database anyway: set REPLICA_START_EMPTY=1 (the replica keeps the old history as an older generation).',
  ].join('\n');
}
