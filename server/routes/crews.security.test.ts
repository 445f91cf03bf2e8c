import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREW_MESSAGES, crewListResponseSchema, crewResponseSchema } from '../../core/crews';
import { AREAS } from '../../core/permissions';
import { DEFAULT_CLIMBING_WIND_LIMIT_MS, fullSettingsResponseSchema, SCHEDULE_SETTINGS_MESSAGES } from '../../core/settings';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { inviteAndJoin } from '../../testing/team';
import { RateLimits } from '../http/rate-limit';

/*
 * Who may plan the crews and the schedule (docs/product.md, Schedule; docs/security.md, Roles):
 * the owner and the office manage crews, a crew member is refused with the sentence, another
 * team's crew is a 404 and stays as it was; the schedule's settings are the office's, except the
 * climbing wind limit, which is the owner's, and a patch carrying it from the office saves nothing.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: new RateLimits({ registrationsPerAddress: { points: 1000, windowSeconds: 3600 } }) });
});
afterAll(() => server.close());

async function aTeam() {
  const { client: owner } = await registerClient(server, { firstName: 'Olive', lastName: 'Oakes' });
  const office = await inviteAndJoin(server, owner, 'office', { name: 'Ana Ruiz' });
  const crew = await inviteAndJoin(server, owner, 'crew', { name: 'Sam Field' });
  return { owner, office, crew };
}

async function settingsOf(client: TestClient) {
  const res = await client.get('/api/system-settings');
  expect(res.status).toBe(200);
  return fullSettingsResponseSchema.parse(await res.json());
}

describe('crews', () => {
  it('are the office\'s to manage as well as the owner\'s', async () => {
    const { owner, office, crew } = await aTeam();
    const res = await office.client.post('/api/crews', { name: 'Blue crew', memberIds: [crew.memberId, office.memberId] });
    expect(res.status).toBe(201);
    const made = crewResponseSchema.parse(await res.json()).crew;
    expect(made.members.map((m) => m.name)).toEqual(['Ana Ruiz', 'Sam Field']);
    const patched = await office.client.request('PATCH', `/api/crews/${made.id}`, { dayHours: 9 });
    expect(crewResponseSchema.parse(await patched.json()).crew.capacityMinutes).toBe(2 * 9 * 60);
    expect(crewListResponseSchema.parse(await (await owner.get('/api/crews')).json()).crews).toEqual([{ ...made, dayHours: 9, capacityMinutes: 1080 }]);
    expect((await office.client.request('DELETE', `/api/crews/${made.id}`)).status).toBe(204);
    expect(crewListResponseSchema.parse(await (await owner.get('/api/crews')).json()).crews).toEqual([]);
  });

  it('are refused to a crew member, even the list, with who can', async () => {
    const { owner, crew } = await aTeam();
    const made = crewResponseSchema.parse(await (await owner.post('/api/crews', { name: 'Blue crew', memberIds: [crew.memberId] })).json()).crew;
    const refusal = { code: 'ROLE_FORBIDDEN', message: AREAS.schedule.refusal };
    expect(AREAS.schedule.refusal).toBe('Only the owner and the office can plan the crews and the schedule.');
    const asked = [
      await crew.client.get('/api/crews'),
      await crew.client.post('/api/crews', { name: 'My crew', memberIds: [crew.memberId] }),
      await crew.client.request('PATCH', `/api/crews/${made.id}`, { name: 'Mine now' }),
      await crew.client.request('DELETE', `/api/crews/${made.id}`),
    ];
    for (const res of asked) {
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject(refusal);
    }
    expect(crewListResponseSchema.parse(await (await owner.get('/api/crews')).json()).crews).toEqual([made]);
  });

  it("of another team are 404 and stay as they were, whatever the body", async () => {
    const { owner, crew } = await aTeam();
    const made = crewResponseSchema.parse(await (await owner.post('/api/crews', { name: 'Blue crew', memberIds: [crew.memberId] })).json()).crew;
    const { client: stranger } = await registerClient(server);
    const notFound = { code: 'NOT_FOUND', message: CREW_MESSAGES.notFound };
    for (const res of [
      await stranger.request('PATCH', `/api/crews/${made.id}`, { name: 'Taken' }),
      await stranger.request('PATCH', `/api/crews/${made.id}`, { name: '' }),
      await stranger.request('DELETE', `/api/crews/${made.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(notFound);
    }
    expect(crewListResponseSchema.parse(await (await stranger.get('/api/crews')).json()).crews).toEqual([]);
    expect(crewListResponseSchema.parse(await (await owner.get('/api/crews')).json()).crews).toEqual([made]);
  });
});

describe("the schedule's settings", () => {
  it('start at Monday to Friday, no days off and a climbing limit of 10.7 m/s (24 mph)', async () => {
    const { owner } = await aTeam();
    expect(await settingsOf(owner)).toMatchObject({ workingDays: [1, 2, 3, 4, 5], climbingWindLimitMs: DEFAULT_CLIMBING_WIND_LIMIT_MS, climbingWindLimitMph: 24, daysOff: [], bankHolidayRegion: 'england-and-wales' });
  });

  it("keep Scotland's or Northern Ireland's bank holidays when chosen", async () => {
    const { owner, office } = await aTeam();
    const res = await office.client.request('PATCH', '/api/system-settings', { bankHolidayRegion: 'scotland' });
    expect(res.status).toBe(200);
    expect(await settingsOf(owner)).toMatchObject({ bankHolidayRegion: 'scotland' });
  });

  it('keep the working days and days off the office saves, sorted and each once, and read them back', async () => {
    const { owner, office } = await aTeam();
    const res = await office.client.request('PATCH', '/api/system-settings', {
      workingDays: [6, 1, 2, 3, 4, 1],
      daysOff: ['2026-12-29', '2026-12-24', '2026-12-29', '2027-01-04'],
    });
    expect(res.status).toBe(200);
    const saved = fullSettingsResponseSchema.parse(await res.json());
    expect(saved).toMatchObject({ workingDays: [1, 2, 3, 4, 6], daysOff: ['2026-12-24', '2026-12-29', '2027-01-04'], climbingWindLimitMs: 10.7 });
    expect(await settingsOf(owner)).toEqual(saved);
    // Another part of the settings leaves them as they were.
    await owner.request('PATCH', '/api/system-settings', { quoteReminderDays: 3 });
    expect(await settingsOf(owner)).toMatchObject({ workingDays: [1, 2, 3, 4, 6], daysOff: ['2026-12-24', '2026-12-29', '2027-01-04'] });
  });

  it('refuse a day that is not on the calendar, more than 366 days off and no working day', async () => {
    const { owner } = await aTeam();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ daysOff: ['2026-02-30'] }, 'daysOff', SCHEDULE_SETTINGS_MESSAGES.dayOff],
      [{ daysOff: ['25/12/2026'] }, 'daysOff', SCHEDULE_SETTINGS_MESSAGES.dayOff],
      [{ daysOff: Array.from({ length: 367 }, (_, i) => new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10)) }, 'daysOff', SCHEDULE_SETTINGS_MESSAGES.daysOff],
      [{ workingDays: [] }, 'workingDays', SCHEDULE_SETTINGS_MESSAGES.workingDays],
      [{ workingDays: [0, 8] }, 'workingDays', SCHEDULE_SETTINGS_MESSAGES.workingDays],
      [{ climbingWindLimitMs: 0 }, 'climbingWindLimitMs', SCHEDULE_SETTINGS_MESSAGES.climbingWindLimit],
      [{ bankHolidayRegion: 'wales' }, 'bankHolidayRegion', SCHEDULE_SETTINGS_MESSAGES.bankHolidayRegion],
      [{ bankHolidayRegion: 'x'.repeat(1_000) }, 'bankHolidayRegion', SCHEDULE_SETTINGS_MESSAGES.bankHolidayRegion],
    ];
    for (const [body, field, message] of cases) {
      const res = await owner.request('PATCH', '/api/system-settings', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(((await res.json()) as { details: Record<string, string[]> }).details[field]).toContain(message);
    }
    expect(await settingsOf(owner)).toMatchObject({ workingDays: [1, 2, 3, 4, 5], daysOff: [], climbingWindLimitMs: 10.7, bankHolidayRegion: 'england-and-wales' });
  });

  it('leave the climbing wind limit to the owner: the office is refused and nothing of its patch is saved', async () => {
    const { owner, office } = await aTeam();
    const refused = await office.client.request('PATCH', '/api/system-settings', { climbingWindLimitMs: 15, workingDays: [1, 2, 3] });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'ROLE_FORBIDDEN', message: 'Only the owner can set the climbing wind limit.' });
    expect(await settingsOf(owner)).toMatchObject({ workingDays: [1, 2, 3, 4, 5], climbingWindLimitMs: 10.7, climbingWindLimitMph: 24 });

    const set = await owner.request('PATCH', '/api/system-settings', { climbingWindLimitMs: 12 });
    expect(set.status).toBe(200);
    expect(fullSettingsResponseSchema.parse(await set.json())).toMatchObject({ climbingWindLimitMs: 12, climbingWindLimitMph: 27 });
    expect(await settingsOf(office.client)).toMatchObject({ climbingWindLimitMs: 12, climbingWindLimitMph: 27 });
  });
});
