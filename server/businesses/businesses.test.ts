import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUSINESS_NOT_FOUND_MESSAGE } from '../../core/embed';
import { findUserByUsername } from '../accounts/users';
import { createBusinessFor } from '../../testing/business';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';
import { findBusinessNamed } from './businesses';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

describe('findBusinessNamed', () => {
  it("finds any business for a public request, and only the owner's own for the owner", async () => {
    const { client, account } = await registerClient(server);
    const ownerId = findUserByUsername(server.db, account.username)!.id;
    const business = await createBusinessFor(client);
    const other = await registerClient(server);
    const otherId = findUserByUsername(server.db, other.account.username)!.id;

    expect(findBusinessNamed(server.db, business.slug).id).toBe(business.id);
    expect(findBusinessNamed(server.db, business.slug, ownerId).id).toBe(business.id);
    // Another owner's business reads as a slug nobody has.
    expect(() => findBusinessNamed(server.db, business.slug, otherId)).toThrow(BUSINESS_NOT_FOUND_MESSAGE);
    expect(() => findBusinessNamed(server.db, 'no-such-business')).toThrow(BUSINESS_NOT_FOUND_MESSAGE);
    expect(() => findBusinessNamed(server.db, 'no-such-business', otherId)).toThrow(BUSINESS_NOT_FOUND_MESSAGE);
  });
});
