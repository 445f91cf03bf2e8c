import { chmodSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * DATA_DIR is the server's alone (docs/security.md, Data and ownership): the database and its
 * -wal and -shm files, Litestream's local copies (`.treeanalyzer.sqlite-litestream/`), the
 * session secret, photos, logos, the outbox and any backup kept there are readable by the
 * server's user only: files 0600, folders 0700.
 *
 * Two halves. New files: the process's umask is 077 from its first line (the server and the
 * CLI), so every file it or a child it starts (Litestream, which also copies the database's
 * mode) creates has no group or other bits, whatever mode the code asked for; the explicit
 * 0o600 and 0o700 of the session secret, uploads, logos and outbox stay as they were. Old
 * files: at start, DATA_DIR and everything under it lose their group and other bits, so an
 * install made before this rule (0644 in a 0755 folder) is closed on its next start.
 *
 * Only group and other bits are taken away: the owner keeps what it had (a folder its x, a
 * file its r and w). The walk stays inside DATA_DIR: a symbolic link is neither followed nor
 * changed (an operator's link to another disk keeps that disk's modes), and what is not the
 * server's user's (chmod would refuse) is skipped.
 */
export const PRIVATE_UMASK = 0o077;
const GROUP_AND_OTHER = 0o077;
/**
 * DATA_DIR's folders whose every file is written 0600 by the code that writes it (photos and logos:
 * server/storage/local-photo-store.ts; mail: server/mail/outbox-mailer.ts): the folder itself is
 * tightened but not walked, for it may hold hundreds of thousands of photos (a walk of 50,000
 * took 2 s on a small box at every start), and DATA_DIR's own 0700 closes them to others anyway.
 */
const WRITTEN_PRIVATE = new Set(['uploads', 'logos', 'outbox']);

/** From now on, files and folders this process and its children create are its user's alone. */
export function keepNewFilesPrivate(): void {
  process.umask(PRIVATE_UMASK);
}

/**
 * Takes group and other bits off DATA_DIR and everything under it (not through links; the
 * folders of WRITTEN_PRIVATE files themselves only). Answers how many it changed, for the
 * start's log line.
 */
export function tightenDataDir(dataDir: string): number {
  const uid = process.getuid?.();
  let changed = 0;
  const tighten = (path: string, mode: number, owner: number) => {
    if ((mode & GROUP_AND_OTHER) === 0 || (uid !== undefined && owner !== uid)) return;
    chmodSync(path, mode & 0o7777 & ~GROUP_AND_OTHER);
    changed += 1;
  };
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) continue;
      const path = join(dir, entry.name);
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (!stat) continue; // gone since the listing (a -shm closed by another process)
      const ours = uid === undefined || stat.uid === uid;
      const writtenPrivate = dir === dataDir && WRITTEN_PRIVATE.has(entry.name);
      if (stat.isDirectory() && ours && !writtenPrivate) walk(path);
      if (stat.isDirectory() || stat.isFile()) tighten(path, stat.mode, stat.uid);
    }
  };
  const root = statSync(dataDir);
  tighten(dataDir, root.mode, root.uid);
  walk(dataDir);
  return changed;
}

