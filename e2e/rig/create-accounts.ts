import { loadConfig } from '../../server/config';
import { openDatabase } from '../../db/client';
import { createUser } from '../../server/accounts/users';
import { systemClock } from '../../server/clock';

/**
 * `node --import tsx e2e/rig/create-accounts.ts <prefix> <count>`, with DATA_DIR set: `count`
 * accounts named `${prefix}NN` (e-mail `${prefix}NN@example.test`), made by createUser, the same
 * step registration and `npm run cli -- create-user` take, so each has its credit balance and
 * settings rows like any other. For tests that need more accounts than one address may register
 * in an hour. Their password hash is not one any password matches: nobody signs in as them.
 */
const [prefix, count] = process.argv.slice(2);
if (!prefix || !count || !/^\d+$/.test(count)) {
  console.error('Usage: node --import tsx e2e/rig/create-accounts.ts <prefix> <count>');
  process.exit(2);
}
const db = openDatabase(loadConfig().databaseFile);
try {
  for (let n = 0; n < Number(count); n += 1) {
    const username = prefix + String(n).padStart(2, '0');
    createUser(db, systemClock, { username, email: `${username}@example.test`, passwordHash: 'not-a-hash', firstName: '', lastName: '' });
  }
} finally {
  db.$client.close();
}
