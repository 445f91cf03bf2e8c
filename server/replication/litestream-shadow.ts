import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Position } from './replica-lag';

/**
 * Where Litestream's copy of the WAL has got to, in the replica's own terms (WAL index, byte
 * offset in that index's file). Litestream's metrics give the replica's position but, for its
 * shadow WAL, the highest index and the total bytes of every file still kept, which cannot be
 * compared with it; so the shadow WAL is read where Litestream 0.3.13 keeps it beside the
 * database (db.go: `.<name>-litestream/generation` names the generation,
 * `generations/<generation>/wal/<index as 8 hex digits>.wal` are its files). The newest file's
 * size is the offset the replica reaches when it holds everything Litestream has copied.
 */
export async function shadowPosition(databaseFile: string): Promise<Position | null> {
  const meta = join(dirname(databaseFile), `.${basename(databaseFile)}-litestream`);
  try {
    const generation = (await readFile(join(meta, 'generation'), 'utf8')).trim();
    if (!/^[0-9a-f]{16}$/.test(generation)) return null;
    const walDir = join(meta, 'generations', generation, 'wal');
    const indexes = (await readdir(walDir)).flatMap((name) => (/^[0-9a-f]{8}\.wal$/.test(name) ? [Number.parseInt(name, 16)] : []));
    if (indexes.length === 0) return null;
    const index = Math.max(...indexes);
    const { size } = await stat(join(walDir, `${index.toString(16).padStart(8, '0')}.wal`));
    return { index, offset: size };
  } catch {
    // Not there yet (Litestream has not synced), or removed between the listing and the stat.
    return null;
  }
}
