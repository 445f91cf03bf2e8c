import { registerSchema } from '../core/accounts';
import { migrateDatabase, openDatabase, type Db } from '../db/client';
import { hashPassword } from './accounts/passwords';
import { createUser, findUserByUsername, setRole } from './accounts/users';
import { systemClock } from './clock';
import { ConfigError, loadConfig } from './config';
import { grantCredits } from './credits/ledger';
import { ApiError } from './http/errors';

/**
 * Operator commands against the same database the server uses (DATA_DIR):
 *   npm run cli -- make-admin <username>
 *   npm run cli -- grant-credits <username> <n>
 *   npm run cli -- create-user <username> <email>      (password read from standard input)
 */
const USAGE = [
  'Usage: npm run cli -- make-admin <username>',
  '       npm run cli -- grant-credits <username> <n>',
  '       npm run cli -- create-user <username> <email>   (password on standard input)',
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

const commands: Record<string, (db: Db, args: string[]) => Promise<number>> = {
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
      if (err instanceof ApiError) return fail(err.message);
      throw err;
    }
  },
};

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
  const run = command ? commands[command] : undefined;
  if (!run) {
    console.error(command ? `Unknown command "${command}".\n${USAGE}` : USAGE);
    return 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) return fail(err.message);
    throw err;
  }
  const db = openDatabase(config.databaseFile);
  migrateDatabase(db, config.migrationsDir);
  try {
    return await run(db, args);
  } finally {
    db.$client.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
