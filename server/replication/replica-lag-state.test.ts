import { describe, expect, it } from 'vitest';
import { ReplicaLag, parseLitestreamMetrics, type LitestreamState, type WalState } from './replica-lag';

/**
 * The lag's bookkeeping, fed the sequences the real Litestream produced on this box (the
 * Prometheus text and shadow WAL positions seen around a write, a checkpoint and a restart);
 * replica-lag.test.ts runs the whole of it against the real binary.
 */
const wal = (size: number, mtimeMs: number): WalState => ({ size, mtimeMs });
const seen = (syncCount: number, shadow: [number, number], replica?: [number, number]): LitestreamState => ({
  syncCount,
  syncErrorCount: 0,
  shadow: { index: shadow[0], offset: shadow[1] },
  replica: replica && { index: replica[0], offset: replica[1] },
});

describe('ReplicaLag', () => {
  it('holds a write as pending until a sync after it has run and the replica reached that point', () => {
    const lag = new ReplicaLag();
    lag.observe(1_000, wal(1000, 500), seen(10, [0, 1000], [0, 1000]));
    lag.observe(2_000, wal(1000, 500), seen(12, [0, 1000], [0, 1000]));
    expect(lag.lagSeconds(2_000)).toBe(0);
    expect(lag.lastReplicatedAt()).toBe(1_000);

    lag.observe(3_000, wal(2000, 2_900), seen(13, [0, 1000], [0, 1000]));
    expect(lag.lagSeconds(3_000)).toBe(0.1);
    // One sync since: it may have begun before the write.
    lag.observe(4_000, wal(2000, 2_900), seen(14, [0, 2000], [0, 1000]));
    lag.observe(5_000, wal(2000, 2_900), seen(15, [0, 2000], [0, 1000]));
    expect(lag.lagSeconds(5_000)).toBe(2.1);
    lag.observe(6_000, wal(2000, 2_900), seen(16, [0, 2000], [0, 2000]));
    expect(lag.lagSeconds(6_000)).toBe(0);
    expect(lag.lastReplicatedAt()).toBe(2_900);
  });

  it('follows a checkpoint into the next WAL index', () => {
    const lag = new ReplicaLag();
    lag.observe(1_000, wal(350_232, 500), seen(2, [0, 350_232], [0, 350_232]));
    lag.observe(2_000, wal(350_232, 500), seen(4, [0, 350_232], [0, 350_232]));
    // Litestream's checkpoint writes its sequence row and starts index 1.
    lag.observe(60_000, wal(350_232, 59_900), seen(62, [1, 4152], [1, 4152]));
    lag.observe(61_000, wal(350_232, 59_900), seen(64, [1, 4152], [1, 4152]));
    expect(lag.lagSeconds(61_000)).toBe(0);
  });

  it('keeps rising while Litestream does not answer, and starts over with a new Litestream', () => {
    const lag = new ReplicaLag();
    lag.observe(1_000, wal(1000, 500), seen(40, [0, 1000], [0, 1000]));
    lag.observe(2_000, wal(1000, 500), seen(42, [0, 1000], [0, 1000]));
    lag.observe(3_000, wal(2000, 2_500), null);
    lag.observe(4_000, wal(3000, 3_500), null);
    lag.observe(8_000, wal(4000, 7_500), null);
    expect(lag.lagSeconds(8_000)).toBe(5.5);
    // A new process counts its syncs from 0 and may start a new generation at index 0.
    lag.observe(9_000, wal(4000, 7_500), seen(1, [0, 600], [0, 600]));
    expect(lag.lagSeconds(9_000)).toBe(6.5);
    lag.observe(10_000, wal(4000, 7_500), seen(3, [0, 4000], [0, 4000]));
    expect(lag.lagSeconds(10_000)).toBe(0);
    expect(lag.lastReplicatedAt()).toBe(7_500);
  });

  it('clears under steady writes, while the replica keeps up', () => {
    const lag = new ReplicaLag();
    let offset = 1000;
    for (let t = 1; t <= 30; t += 1) {
      offset += 100;
      lag.observe(t * 1000, wal(offset, t * 1000 - 50), seen(t * 2, [0, offset - 100], [0, offset - 200]));
    }
    expect(lag.lagSeconds(30_000)).toBeLessThanOrEqual(3);
  });
});

describe('parseLitestreamMetrics', () => {
  it("reads this database's figures from Litestream's Prometheus text", () => {
    const text = [
      '# HELP litestream_sync_count Number of sync operations',
      'litestream_sync_count{db="/data/treeanalyzer.sqlite"} 19',
      'litestream_sync_count{db="/other.sqlite"} 99',
      'litestream_sync_error_count{db="/data/treeanalyzer.sqlite"} 2',
      'litestream_replica_wal_index{db="/data/treeanalyzer.sqlite",name="s3"} 1',
      'litestream_replica_wal_offset{db="/data/treeanalyzer.sqlite",name="s3"} 4152',
      'litestream_replica_validation_total{db="/data/treeanalyzer.sqlite",name="s3",status="ok"} 0',
    ].join('\n');
    expect(parseLitestreamMetrics(text, '/data/treeanalyzer.sqlite')).toEqual({ syncCount: 19, syncErrorCount: 2, replica: { index: 1, offset: 4152 } });
    expect(parseLitestreamMetrics('', '/data/treeanalyzer.sqlite')).toBeNull();
  });
});
