/**
 * How far the replica is behind, measured from both ends (docs/operations.md, Replication with
 * Litestream): the app's own side is the SQLite WAL file (every commit in WAL mode appends to it,
 * so a change of its size or modification time is a write), Litestream's side is its Prometheus
 * metrics (db.go and replica.go in v0.3.13): `litestream_sync_count` (one per monitor tick, changed
 * or not) and the position the replica holds (`replica_wal_index`, `replica_wal_offset`), with
 * the position of the shadow WAL it has copied read from its files (litestream-shadow.ts).
 *
 * A write the app made is on the replica once (1) Litestream has finished a sync that started
 * after the write was seen (its sync count went up twice since), at which point the shadow
 * position includes it, and (2) the replica's position has reached that shadow position. Until
 * then it is pending, and the lag is the age of the oldest pending write: it keeps rising while
 * Litestream is dead or cannot reach the replica, and is 0 when everything written is there.
 * Nothing here trusts Litestream to say it is caught up: a dead Litestream simply never clears.
 */
export interface WalState {
  size: number;
  mtimeMs: number;
}

export interface Position {
  index: number;
  offset: number;
}

export interface LitestreamMetrics {
  syncCount: number;
  syncErrorCount: number;
  /** Undefined until the replica has written its first segment. */
  replica?: Position;
}

/** One look at Litestream: its metrics, and its shadow WAL's position read after them. */
export interface LitestreamState extends LitestreamMetrics {
  shadow: Position;
}

interface PendingWrite {
  /** The oldest write this entry stands for (the lag), and the newest (lastReplicatedAt once it is on the replica). */
  writtenAt: number;
  lastWrittenAt: number;
  /** The sync count when the write was seen; the shadow includes it two syncs later. */
  seenAtSync: number | null;
  /** The shadow position that includes the write, once known. */
  target: Position | null;
}

/** Pending writes kept apart at most; past it new writes join the newest (the lag reads the oldest). */
const MAX_PENDING = 100;

const before = (a: Position, b: Position) => a.index < b.index || (a.index === b.index && a.offset < b.offset);

export class ReplicaLag {
  private wal: WalState | null | undefined = undefined;
  private pending: PendingWrite[] = [];
  private lastSyncCount: number | null = null;
  private lastShadow: Position | null = null;
  private replicatedAt: number | null = null;

  /**
   * One look at both ends. `wal` is null when there is no WAL file (nothing written yet);
   * `metrics` is null when Litestream did not answer.
   */
  observe(now: number, wal: WalState | null, metrics: LitestreamState | null): void {
    const first = this.wal === undefined;
    const changed = !first && (wal?.size !== this.wal?.size || wal?.mtimeMs !== this.wal?.mtimeMs);
    // At start what is already in the database counts as written now: Litestream has yet to show it holds it.
    if (first || changed) this.noteWrite(first ? now : Math.min(now, wal?.mtimeMs ?? now), metrics);
    this.wal = wal;
    if (!metrics) return;

    const restarted = this.lastSyncCount !== null && metrics.syncCount < this.lastSyncCount;
    const movedBack = this.lastShadow !== null && before(metrics.shadow, this.lastShadow);
    if (restarted || movedBack) {
      // A new Litestream process, or a new generation: earlier positions mean nothing now.
      const oldest = this.pending[0]?.writtenAt;
      const newest = this.pending.at(-1)?.lastWrittenAt;
      this.pending = oldest === undefined ? [] : [{ writtenAt: oldest, lastWrittenAt: newest!, seenAtSync: metrics.syncCount, target: null }];
    }
    this.lastSyncCount = metrics.syncCount;
    this.lastShadow = metrics.shadow;
    for (const write of this.pending) {
      if (write.seenAtSync === null) write.seenAtSync = metrics.syncCount;
      if (write.target === null && metrics.syncCount >= write.seenAtSync + 2) write.target = metrics.shadow;
    }
    const replica = metrics.replica;
    if (!replica) return;
    while (this.pending[0]?.target && !before(replica, this.pending[0].target)) {
      this.replicatedAt = this.pending.shift()!.lastWrittenAt;
    }
  }

  private noteWrite(writtenAt: number, metrics: LitestreamState | null): void {
    const newest = this.pending.at(-1);
    const seenAtSync = metrics?.syncCount ?? null;
    // Writes seen before the same sync share one entry: the shadow position taken two syncs on covers them all.
    if (newest && newest.target === null && newest.seenAtSync === seenAtSync) {
      newest.lastWrittenAt = Math.max(newest.lastWrittenAt, writtenAt);
      return;
    }
    if (newest && this.pending.length >= MAX_PENDING) {
      newest.seenAtSync = seenAtSync;
      newest.target = null;
      newest.lastWrittenAt = Math.max(newest.lastWrittenAt, writtenAt);
      return;
    }
    this.pending.push({ writtenAt, lastWrittenAt: writtenAt, seenAtSync, target: null });
  }

  /** Seconds since the oldest write not yet on the replica; 0 when it holds everything written. */
  lagSeconds(now: number): number {
    const oldest = this.pending[0];
    return oldest ? Math.max(0, Math.round((now - oldest.writtenAt) / 100) / 10) : 0;
  }

  /** When the newest write known to be on the replica was made; null until one is. */
  lastReplicatedAt(): number | null {
    return this.replicatedAt;
  }
}

/** Reads Litestream's Prometheus text for one database; null when a figure it needs is missing. */
export function parseLitestreamMetrics(text: string, databaseFile: string): LitestreamMetrics | null {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(litestream_[a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || !match[2]!.includes(`db=${JSON.stringify(databaseFile)}`)) continue;
    if (match[1] === 'litestream_replica_validation_total') continue;
    values.set(match[1]!, Number(match[3]));
  }
  const get = (name: string) => values.get(name);
  const syncCount = get('litestream_sync_count');
  if (syncCount === undefined) return null;
  const replicaIndex = get('litestream_replica_wal_index');
  const replicaOffset = get('litestream_replica_wal_offset');
  return {
    syncCount,
    syncErrorCount: get('litestream_sync_error_count') ?? 0,
    replica: replicaIndex === undefined || replicaOffset === undefined ? undefined : { index: replicaIndex, offset: replicaOffset },
  };
}
