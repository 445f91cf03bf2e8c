import argon2 from 'argon2';

/**
 * argon2id with the OWASP Password Storage Cheat Sheet's first option:
 * m = 19 MiB, t = 2, p = 1 (docs/security.md, Accounts and sessions). The PHC string keeps the
 * parameters, so they can be raised later without breaking old hashes.
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real check when the account does not exist, so a failed
 * login does not reveal whether a username or e-mail is registered.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('not-a-real-password-0000');
  await verifyPassword(await dummyHash, password);
  return false;
}
