import { describe, expect, it } from 'vitest';
import { FIRST_ANSWERS_FRESH_MS } from '../../core/crew-home';
import { createQueryClient, queryKeys } from '../api/query-client';
import { crewKeys } from './api';
import { refreshKeptAnswers, seedFirstAnswers } from './first-answers';

const me = {
  user: { id: 7, username: 'member7', email: 'sam@example.com', firstName: 'Sam', lastName: 'Field', role: 'user', createdAt: '2026-06-01T09:00:00.000Z' },
  member: { memberId: 4, name: 'Sam Field', role: 'crew', businessName: 'Oak & Ash' },
};
const myDays = { days: [{ date: '2026-12-02', bookings: [] }] };

describe("the answers in the crew's home page", () => {
  it('are what the screens read, as if just read: who is signed in and My days with when the server gave it', () => {
    const client = createQueryClient();
    const asOf = Date.parse('2026-12-02T08:00:00Z');
    expect(seedFirstAnswers(client, { me, myDays, asOf })).toBe(true);
    expect(client.getQueryData(queryKeys.currentUser)).toEqual({ user: me.user, member: me.member });
    expect(client.getQueryData(crewKeys.myDays)).toEqual({ data: myDays, asOf });
    expect(seedFirstAnswers(createQueryClient(), { me: { user: me.user, member: { ...me.member, role: 'boss' } }, myDays, asOf })).toBe(false);
  });

  it('from a page the phone kept are read again on opening; from the server just now they are not', () => {
    const now = Date.parse('2026-12-02T08:00:00Z');
    const fresh = createQueryClient();
    seedFirstAnswers(fresh, { me, myDays, asOf: now - 5_000 });
    expect(refreshKeptAnswers(fresh, { me, myDays, asOf: now - 5_000 }, now)).toBe(false);
    expect(fresh.getQueryState(crewKeys.myDays)?.isInvalidated).toBe(false);
    const kept = createQueryClient();
    const asOf = now - FIRST_ANSWERS_FRESH_MS - 1;
    seedFirstAnswers(kept, { me, myDays, asOf });
    expect(refreshKeptAnswers(kept, { me, myDays, asOf }, now)).toBe(true);
    expect(kept.getQueryState(crewKeys.myDays)?.isInvalidated).toBe(true);
  });
});
