import type { Logger } from '../log';
import { LitestreamMissing } from './litestream-binary';
import { startReplication, type Replication } from './replicator';
import type { ReplicaSettings } from './replica-settings';
import { refusalToStartEmpty } from './start-guard';

/**
 * What server/main.ts calls with REPLICA_URL set, before it opens the database: the start guard
 * (start-guard.ts), then Litestream under the server's supervision (replicator.ts). Answers the
 * running replication, or the message to print when the server must not start.
 */
export async function replicateDatabase(databaseFile: string, dataDir: string, settings: ReplicaSettings, logger: Logger): Promise<Replication | string> {
  try {
    const refusal = await refusalToStartEmpty(databaseFile, dataDir, settings, logger);
    if (refusal) return refusal;
    return await startReplication({ databaseFile, dataDir, settings, logger });
  } catch (err) {
    if (err instanceof LitestreamMissing) return err.message;
    throw err;
  }
}
