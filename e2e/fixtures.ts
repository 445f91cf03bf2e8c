import { randomBytes } from 'node:crypto';
import { test as base, expect, type APIRequestContext } from '@playwright/test';
import { dashboardBuildId } from './rig/dashboard-build';
import { e2eEnv } from './rig/env';

export interface TestAccount {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  password: string;
}

/** A fresh account's details; names are unique per call so tests never collide. */
export function newAccount(): TestAccount {
  const username = `e2e_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  return {
    firstName: 'Ash',
    lastName: 'Birch',
    username,
    email: `${username}@example.test`,
    password: `Pw-${randomBytes(6).toString('hex')}`,
  };
}

/**
 * Registers an account over the API (faster than the form) for tests about something
 * else. The request context has its own cookie jar, so the page stays signed out.
 */
export async function registerByApi(request: APIRequestContext, account: TestAccount): Promise<void> {
  const res = await request.post('/api/auth/register', {
    data: { ...account, confirmPassword: account.password },
    headers: { Origin: e2eEnv('baseURL') },
  });
  expect(res.status(), `register ${account.username}: ${await res.text()}`).toBe(201);
}

export const test = base.extend<{ unchangedDashboardBuild: void }>({
  // Global setup picks the port at run time; read it here so every fixture that
  // depends on baseURL (page, request) gets it, whatever the config saw at load time.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  baseURL: async ({}, use) => {
    await use(e2eEnv('baseURL'));
  },
  // Fail fast, and say why, when dist/dashboard was rebuilt after the server started.
  unchangedDashboardBuild: [
    // eslint-disable-next-line no-empty-pattern -- as above
    async ({}, use) => {
      if (dashboardBuildId() !== e2eEnv('dashboardBuild')) {
        throw new Error(
          'e2e: dist/dashboard was rebuilt after the test server started (a concurrent `npm run build`?). ' +
            'The server keeps the index.html it read at start, so pages would load scripts that are gone. Run again.',
        );
      }
      await use();
    },
    { auto: true },
  ],
});

export { expect };
