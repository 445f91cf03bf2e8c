import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import type { Db } from '../../db/client';

/**
 * A consistent copy of an installation's DATA_DIR (docs/operations.md, Backups), and its way back.
 *
 * Copying treeanalyzer.sqlite alone while the server runs is unsafe: in WAL mode recent
 * commits live in the -wal file, and a copy taken mid-write can be torn. The database is
 * copied with SQLite's online backup API (better-sqlite3 `backup()`), which yields one
 * transaction-consistent snapshot while writers go on. The files beside it are copied after
 * the snapshot: photos and logos are written before the rows that name them, so every row in
 * the snapshot finds its file (a file newer than the snapshot is only an unused extra). The
 * session secret goes too, so signed-in users stay signed in after a restore.
 *
 * With photos in object storage (PHOTO_STORE_URL) they are not under DATA_DIR: the backup then
 * leaves the local photo folders out and says where the photos are, in its manifest and the
 * CLI's summary, rather than claim a copy it does not hold.
 */
export const DATABASE_FILE = 'treeanalyzer.sqlite';
/** What lives in DATA_DIR besides the database: photos, company logos, the dev outbox, the secret. */
const FILES_BESIDE = ['uploads', 'logos', 'outbox', 'session-secret'] as const;
/** The photo store's folders (server/storage/local-photo-store.ts), left out when photos live elsewhere. */
const PHOTO_FOLDERS: readonly string[] = ['uploads', 'logos'];
const MANIFEST = 'backup.json';

export interface BackupManifest {
  format: 1;
  createdAt: string;
  database: string;
  files: string[];
  /** Rows per table at the snapshot, to check a restore against. */
  rows: Record<string, number>;
  /** Present when photos and logos live in object storage: where they are, and that this backup holds none. */
  photoStore?: { location: string; included: false };
}

/** Where the running install keeps photos: DATA_DIR's folders (in the backup) or object storage (not). */
export interface BackupPhotoStore {
  kind: 'local' | 's3';
  location: string;
}

export class BackupError extends Error {}

function isEmptyOrMissing(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

function tableCounts(sqlite: Database.Database): Record<string, number> {
  const tables = sqlite
    .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%' order by name")
    .all() as { name: string }[];
  return Object.fromEntries(tables.map(({ name }) => [name, (sqlite.prepare(`select count(*) as n from "${name}"`).get() as { n: number }).n]));
}

/** Writes a backup of the open database and DATA_DIR's files into `dest` (a new or empty folder). */
export async function backupTo(db: Db, dataDir: string, dest: string, now: Date, photos?: BackupPhotoStore): Promise<BackupManifest> {
  const photosElsewhere = photos?.kind === 's3';
  if (!isEmptyOrMissing(dest)) throw new BackupError(`${dest} is not empty. Choose a new folder for the backup.`);
  mkdirSync(dest, { recursive: true, mode: 0o700 });
  const target = join(dest, DATABASE_FILE);
  await db.$client.backup(target);
  const copy = new Database(target, { readonly: true });
  let rows: Record<string, number>;
  try {
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`The copied database failed SQLite's integrity check (${String(check)}).`);
    rows = tableCounts(copy);
  } finally {
    copy.close();
  }
  const files: string[] = [];
  for (const name of FILES_BESIDE) {
    if (photosElsewhere && PHOTO_FOLDERS.includes(name)) continue;
    const from = join(dataDir, name);
    if (!existsSync(from)) continue;
    cpSync(from, join(dest, name), { recursive: true, preserveTimestamps: true });
    files.push(name);
  }
  const manifest: BackupManifest = {
    format: 1,
    createdAt: now.toISOString(),
    database: DATABASE_FILE,
    files,
    rows,
    ...(photosElsewhere && { photoStore: { location: photos.location, included: false as const } }),
  };
  writeFileSync(join(dest, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return manifest;
}

/** Reads and checks a backup folder's manifest; throws a BackupError that says what is wrong. */
export function readManifest(src: string): BackupManifest {
  const file = join(src, MANIFEST);
  if (!existsSync(file)) throw new BackupError(`${src} has no ${MANIFEST}: it is not a backup made by "npm run cli -- backup".`);
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as BackupManifest;
  if (manifest.format !== 1 || !existsSync(join(src, manifest.database))) throw new BackupError(`${src} is an incomplete or unknown backup.`);
  return manifest;
}

/**
 * Restores a backup into DATA_DIR. The server must be stopped (the CLI says so), and a
 * DATA_DIR that already holds a database is refused unless `force` is given, so a restore
 * never overwrites live data by mistake. The -wal and -shm files of an old database are
 * removed with it: left beside the restored file they would be replayed into it.
 */
export function restoreFrom(src: string, dataDir: string, options: { force?: boolean } = {}): BackupManifest {
  const manifest = readManifest(src);
  const target = join(dataDir, DATABASE_FILE);
  if (existsSync(target) && !options.force) {
    throw new BackupError(`${dataDir} already holds a database. Stop the server, then run restore with --force to replace it.`);
  }
  const copy = new Database(join(src, manifest.database), { readonly: true });
  try {
    if (copy.pragma('integrity_check', { simple: true }) !== 'ok') throw new BackupError('The backup database failed SQLite\'s integrity check.');
  } finally {
    copy.close();
  }
  mkdirSync(dataDir, { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) rmSync(target + suffix, { force: true });
  cpSync(join(src, manifest.database), target);
  for (const name of manifest.files) {
    const to = join(dataDir, basename(name));
    rmSync(to, { recursive: true, force: true });
    cpSync(join(src, name), to, { recursive: true, preserveTimestamps: true });
  }
  return manifest;
}

/** Bytes under a folder, for the CLI's summary line. */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}
