import { migrateDatabase, openDatabase } from '../db/client';
import { findUserByUsername, setRole } from './accounts/users';
import { grantCredits } from './credits/ledger';
import { systemClock } from './clock';
import { ConfigError, loadConfig } from './config';

/**
 * Operator commands against the same database the server uses (DATA_DIR):
 *   npm run cli -- make-admin <username>
 *   npm run cli -- grant-credits <username> <n>
 */
const USAGE = 'Usage: npm run cli -- make-admin <username>\n       npm run cli -- grant-credits <username> <n>';

function main(argv: string[]): number {
  const [command, ...args] = argv;
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
  const db = openDatabase(config.databaseFile);
  migrateDatabase(db);
  try {
    switch (command) {
      case 'make-admin': {
        const username = args[0];
        if (!username) {
          console.error(USAGE);
          return 2;
        }
        const user = setRole(db, systemClock, username, 'admin');
        if (!user) {
          console.error(`No user named "${username}". Check the spelling, or register the account first.`);
          return 1;
        }
        console.log(`${user.username} is now an admin.`);
        return 0;
      }
      case 'grant-credits': {
        const [username, count] = args;
        const amount = Number(count);
        if (!username || !count || !Number.isInteger(amount) || amount <= 0 || amount > 1_000_000) {
          console.error(`${USAGE}\n<n> is a whole number of credits from 1 to 1000000.`);
          return 2;
        }
        const user = findUserByUsername(db, username);
        if (!user) {
          console.error(`No user named "${username}". Check the spelling, or register the account first.`);
          return 1;
        }
        const balance = grantCredits(db, systemClock, user.id, amount, 'grant', 'cli');
        console.log(`Granted ${amount} credits to ${user.username}; balance is now ${balance}.`);
        return 0;
      }
      default:
        console.error(command ? `Unknown command "${command}".\n${USAGE}` : USAGE);
        return 2;
    }
  } finally {
    db.$client.close();
  }
}

process.exitCode = main(process.argv.slice(2));
