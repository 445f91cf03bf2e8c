import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUser } from '../accounts/users';
import { startTestServer, type TestServer } from '../../testing/harness';
import { FEEDBACK_EMPTY_MESSAGE, saveFeedback } from './feedback';

let server: TestServer;
let userId: number;
beforeEach(async () => {
  server = await startTestServer();
  userId = createUser(server.db, server.clock, { username: 'kim', email: 'kim@example.com', passwordHash: 'x', firstName: '', lastName: '' }).id;
});
afterEach(async () => {
  await server.close();
});

describe('saveFeedback', () => {
  it('refuses feedback that says nothing: no actual time and no comment, or an empty comment', () => {
    for (const empty of [{}, { feedback: '' }, { actualCuttingTime: undefined, feedback: '' }]) {
      expect(() => saveFeedback(server.db, userId, 1, empty)).toThrow(FEEDBACK_EMPTY_MESSAGE);
    }
  });

  it("is false, changing nothing, for an analysis that is not the user's", () => {
    expect(saveFeedback(server.db, userId, 12345, { actualCuttingTime: 30 })).toBe(false);
    expect(saveFeedback(server.db, userId, 12345, { feedback: 'Took longer: the ground was soft' })).toBe(false);
  });
});
