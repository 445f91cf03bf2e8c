import { resolve } from 'node:path';
import { registerSchema } from '../core/accounts';
import { migrateDatabase, openDatabase, type Db } from '../db/client';
import { hashPassword } from './accounts/passwords';
import { createUser, findUserByUsername, setRole } from './accounts/users';
import { systemClock } from './clock';
import { ConfigError, loadConfig, type Config } from './config';
import { grantCredits } from './credits/ledger';
import { DomainError } from '../core/errors';
import { backupTo, BackupError, folderBytes, restoreFrom } from './ops/backup';
import { copyLocalPhotos } from './storage/copy-photos';
import { createPhotoStore } from './storage/create-photo-store';
import { restoreReplica, ReplicaRestoreError } from './replication/restore-replica';
import { ReplicaUnreachable } from './replication/replica-generations';
import { LitestreamMissing } from './replication/litestream-binary';
import { keepNewFilesPrivate, tightenDataDir } from './ops/data-permissions';

/**
 * Operator commands against the same database the server uses (DATA_DIR):
 *   npm run cli -- make-admin <username>
 *   npm run cli -- grant-credits <username> <n>
 *   npm run cli -- create-user <username> <email>      (password read from standard input)
 *   npm run cli -- backup <dir>                        (while the server runs)
 *   npm run cli -- restore <dir> [--force]             (with the server stopped)
 *   npm run cli -- copy-photos-to-store                (DATA_DIR's photos and logos into PHOTO_STORE_URL)
 *   npm run cli -- restore-replica <dataDir>           (a new box: the database from REPLICA_URL)
 */
const USAGE = [
  'Usage: npm run cli -- make-admin <username>',
  '       npm run cli -- grant-credits <username> <n>',
  '       npm run cli -- create-user <username> <email>   (password on standard input)',
  '       npm run cli -- backup <dir>                     (a consistent copy; safe while the server runs)',
  '       npm run cli -- restore <dir> [--force]          (stop the server first)',
  '       npm run cli -- copy-photos-to-store             (DATA_DIR\'s photos and logos into PHOTO_STORE_URL)',
  '       npm run cli -- restore-replica <dataDir>        (the database from REPLICA_URL into an empty folder)',
].join('\n');

const noUser = (username: string) => `No user named "${username}". Check the spelling, or register the account first.`;

async function readStdinLine(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Password: ');
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0]!.replace(/\r$/, '');
}

const commands: Record<string, (db: Db, args: string[], config: Config) => Promise<number>> = {
  async backup(db, [dir], config) {
    if (!dir) return usage();
    try {
      const photos = createPhotoStore(config);
      const manifest = await backupTo(db, config.dataDir, resolve(dir), systemClock.now(), photos);
      const mib = (folderBytes(resolve(dir)) / 1024 / 1024).toFixed(1);
      console.log(`Backed up ${manifest.rows.users ?? 0} accounts and ${manifest.rows.tree_analyses ?? 0} analyses (${mib} MiB) to ${resolve(dir)}.`);
      if (manifest.photoStore) console.log(photosNotInBackup(manifest.photoStore.location));
      return 0;
    } catch (err) {
      if (err instanceof BackupError) return fail(err.message);
      throw err;
    }
  },

  /** Idempotent: only what the store lacks is copied (server/storage/copy-photos.ts). */
  async 'copy-photos-to-store'(_db, _args, config) {
    if (config.photoStore.kind !== 's3') {
      return fail('PHOTO_STORE_URL is not set, so photos and logos already live in DATA_DIR. Set PHOTO_STORE_URL=s3://bucket/prefix and the S3 variables (docs/operations.md, Photos in object storage), then run this again.');
    }
    const store = createPhotoStore(config);
    console.log(`Copying photos and logos from ${config.dataDir} to ${store.location}`);
    try {
      const counts = await copyLocalPhotos(config.dataDir, store, (line) => console.log(line));
      const { uploads, logos } = counts.copied;
      const there = counts.alreadyThere;
      console.log(`Copied ${uploads} photo${uploads === 1 ? '' : 's'} and ${logos} logo${logos === 1 ? '' : 's'}; ${there} ${there === 1 ? 'was' : 'were'} already in the store.`);
      return 0;
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      // What was copied stays copied: running the command again carries on from there.
      const cause = err.cause instanceof Error ? ` (${err.cause.name}: ${err.cause.message})` : '';
      return fail(`${err.message}${cause} Nothing is lost: run the command again to copy the rest.`);
    }
  },

  async 'make-admin'(db, [username]) {
    if (!username) return usage();
    const user = setRole(db, systemClock, username, 'admin');
    if (!user) return fail(noUser(username));
    console.log(`${user.username} is now an admin.`);
    return 0;
  },

  async 'grant-credits'(db, [username, count]) {
    const amount = Number(count);
    if (!username || !count || !Number.isInteger(amount) || amount <= 0 || amount > 1_000_000) {
      console.error(`${USAGE}\n<n> is a whole number of credits from 1 to 1000000.`);
      return 2;
    }
    const user = findUserByUsername(db, username);
    if (!user) return fail(noUser(username));
    const balance = grantCredits(db, systemClock, user.id, amount, 'grant', 'cli');
    console.log(`Granted ${amount} credits to ${user.username}; balance is now ${balance}.`);
    return 0;
  },

  /** For headless installs and scripted set-ups: the same rules as registration, password from stdin. */
  async 'create-user'(db, [username, email]) {
    if (!username || !email) return usage();
    const password = await readStdinLine();
    const parsed = registerSchema.safeParse({ username, email, password, confirmPassword: password });
    if (!parsed.success) return fail(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
    try {
      const user = createUser(db, systemClock, { ...parsed.data, passwordHash: await hashPassword(password) });
      console.log(`Created ${user.username} (${user.role}).`);
      return 0;
    } catch (err) {
      if (err instanceof DomainError) return fail(err.message);
      throw err;
    }
  },
};

function restore(config: Config, args: string[]): number {
  const dir = args.find((a) => !a.startsWith('--'));
  if (!dir) return usage();
  try {
    const manifest = restoreFrom(resolve(dir), config.dataDir, { force: args.includes('--force') });
    console.log(`Restored the backup of ${manifest.createdAt} into ${config.dataDir}. Start the server now.`);
    if (manifest.photoStore) console.log(photosNotInBackup(manifest.photoStore.location));
    return 0;
  } catch (err) {
    if (err instanceof BackupError) return fail(err.message);
    throw err;
  }
}

/** Litestream's restore of REPLICA_URL into <dataDir> (server/replication/restore-replica.ts). */
async function restoreFromReplica(config: Config, [dir]: string[]): Promise<number> {
  if (!dir) return usage();
  if (!config.replica) return fail('REPLICA_URL is not set: set it (and the S3 variables for an s3:// replica) to the replica to restore from.');
  try {
    const done = await restoreReplica(resolve(dir), config.replica);
    const mib = (done.bytes / 1024 / 1024).toFixed(1);
    console.log(
      `Restored generation ${done.generation} (WAL index ${done.walIndex ?? '?'}, replicated up to ${done.replicatedUpTo}) from ${config.replica.displayUrl} ` +
        `into ${done.file}: ${mib} MiB, ${done.accounts} accounts and ${done.analyses} analyses, in ${(done.durationMs / 1000).toFixed(1)} s. ` +
        `Start the server with DATA_DIR=${resolve(dir)} and the same REPLICA_URL.`,
    );
    return 0;
  } catch (err) {
    if (err instanceof ReplicaRestoreError || err instanceof ReplicaUnreachable || err instanceof LitestreamMissing) return fail(err.message);
    throw err;
  }
}

/** With PHOTO_STORE_URL the photos are not in DATA_DIR, so not in its backup: said, not implied. */
const photosNotInBackup = (location: string) =>
  `Photos and logos are not in this backup: they live in ${location} (PHOTO_STORE_URL). Keep that bucket's own copies (versioning or replication at the provider).`;

function usage(): number {
  console.error(USAGE);
  return 2;
}

function fail(message: string): number {
  console.error(message);
  return 1;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const run = command === 'restore' || command === 'restore-replica' ? async () => 0 : command ? commands[command] : undefined;
  if (!run) {
    console.error(command ? `Unknown command "${command}".\n${USAGE}` : USAGE);
    return 2;
  }
  // Backups, restored files and the database are the server's user's alone (server/ops/data-permissions.ts).
  keepNewFilesPrivate();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) return fail(err.message);
    throw err;
  }
  tightenDataDir(config.dataDir);
  // Restore replaces the database file, so it runs before the file is opened.
  if (command === 'restore') return restore(config, args);
  if (command === 'restore-replica') return restoreFromReplica(config, args);
  const db = openDatabase(config.databaseFile);
  migrateDatabase(db, config.migrationsDir);
  try {
    return await run(db, args, config);
  } finally {
    db.$client.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
