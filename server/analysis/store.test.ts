import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUser } from '../accounts/users';
import { startTestServer, type TestServer } from '../../testing/harness';
import { findOwnAnalysis, imageUrlFor, storeAnalysis } from './store';

let server: TestServer;
let userId: number;
beforeEach(async () => {
  server = await startTestServer();
  userId = createUser(server.db, server.clock, { username: 'lee', email: 'lee@example.com', passwordHash: 'x', firstName: '', lastName: '' }).id;
});
afterEach(async () => {
  await server.close();
});

const stored = () => server.db.$client.prepare('select count(*) from tree_analyses').pluck().get() as number;

describe('storeAnalysis', () => {
  it("stores the analysis with its photo's address, which names its id", () => {
    const row = storeAnalysis(server.db, { userId, imagePath: 'a.jpg', species: 'Oak', createdAt: server.clock.now() }, () => {});
    expect(row.imageUrl).toBe(imageUrlFor(row.id));
    expect(row.imageUrl).toBe(`/api/analysis/${row.id}/image`);
    expect(findOwnAnalysis(server.db, userId, row.id)?.row).toEqual(row);
  });

  it('stores nothing when what commits with it fails', () => {
    expect(() =>
      storeAnalysis(server.db, { userId, imagePath: 'b.jpg', createdAt: server.clock.now() }, () => {
        throw new Error('the reservation could not be ended');
      }),
    ).toThrow('the reservation could not be ended');
    expect(stored()).toBe(0);
  });
});
