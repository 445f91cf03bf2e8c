import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREW_MESSAGES, crewListResponseSchema, crewResponseSchema, type CrewCreateInput } from '../../core/crews';
import { addDays, ukToday } from '../../core/job-booking';
import { crews, jobs } from '../../db/schema';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { inviteAndJoin } from '../../testing/team';
import { RateLimits } from '../http/rate-limit';

/*
 * Crews and kit (docs/product.md, Schedule): a crew made of the team's people with its kit, listed,
 * changed and deleted over HTTP; the defaults (an 8-hour day, a MEWP held to 12.5 m/s), the
 * refusals a person reads, and a crew with bookings to come kept until they are moved.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: new RateLimits({ registrationsPerAddress: { points: 1000, windowSeconds: 3600 } }) });
});
afterAll(() => server.close());

interface Team {
  owner: TestClient;
  ownerMemberId: number;
  sam: Awaited<ReturnType<typeof inviteAndJoin>>;
  ana: Awaited<ReturnType<typeof inviteAndJoin>>;
}

/** An owner (Olive Oakes) with a crew member (Sam Field) and an office member (Ana Ruiz), who joined by their invitations. */
async function aTeam(): Promise<Team> {
  const { client: owner } = await registerClient(server, { firstName: 'Olive', lastName: 'Oakes' });
  const sam = await inviteAndJoin(server, owner, 'crew', { name: 'Sam Field' });
  const ana = await inviteAndJoin(server, owner, 'office', { name: 'Ana Ruiz' });
  const team = (await (await owner.get('/api/team')).json()) as { members: { id: number; role: string }[] };
  return { owner, ownerMemberId: team.members.find((m) => m.role === 'owner')!.id, sam, ana };
}

async function made(client: TestClient, body: CrewCreateInput) {
  const res = await client.post('/api/crews', body);
  expect(res.status, await res.clone().text()).toBe(201);
  return crewResponseSchema.parse(await res.json()).crew;
}

async function crewsOf(client: TestClient) {
  const res = await client.get('/api/crews');
  expect(res.status).toBe(200);
  return crewListResponseSchema.parse(await res.json()).crews;
}

describe('a crew', () => {
  it('is made with its people and kit, an 8-hour day and a MEWP held to 12.5 m/s unless told otherwise', async () => {
    const { owner, ownerMemberId, sam } = await aTeam();
    const crew = await made(owner, {
      name: '  Blue crew ',
      colour: '#2F7D32',
      memberIds: [sam.memberId, ownerMemberId, sam.memberId],
      equipment: [
        { name: 'Niftylift HR21', kind: 'mewp' },
        { name: 'Timberwolf chipper', kind: 'chipper' },
        { name: 'Spider lift', kind: 'mewp', windLimitMs: 10 },
        { name: 'Hiab', kind: 'crane', windLimitMs: 13.04 },
      ],
    });
    expect(crew).toEqual({
      id: expect.any(Number),
      name: 'Blue crew',
      colour: '#2f7d32',
      dayHours: 8,
      equipment: [
        { name: 'Niftylift HR21', kind: 'mewp', windLimitMs: 12.5 },
        { name: 'Timberwolf chipper', kind: 'chipper', windLimitMs: null },
        { name: 'Spider lift', kind: 'mewp', windLimitMs: 10 },
        { name: 'Hiab', kind: 'crane', windLimitMs: 13 },
      ],
      // The owner first, as the team's list has them; Sam once however often sent.
      members: [
        { id: ownerMemberId, name: 'Olive Oakes', role: 'owner' },
        { id: sam.memberId, name: 'Sam Field', role: 'crew' },
      ],
      capacityMinutes: 2 * 8 * 60,
    });
    expect(await crewsOf(owner)).toEqual([crew]);
  });

  it('is listed by name, and only in its own team', async () => {
    const { owner, sam } = await aTeam();
    const red = await made(owner, { name: 'Red crew', memberIds: [sam.memberId] });
    const blue = await made(owner, { name: 'blue crew', memberIds: [sam.memberId], dayHours: 6 });
    expect((await crewsOf(owner)).map((c) => c.name)).toEqual(['blue crew', 'Red crew']);
    expect(blue).toMatchObject({ colour: null, dayHours: 6, equipment: [], capacityMinutes: 360 });
    expect(red.capacityMinutes).toBe(480);
    const { client: other } = await registerClient(server);
    expect(await crewsOf(other)).toEqual([]);
  });

  it('is changed part by part: a new day, no colour, other people, the whole kit list', async () => {
    const { owner, ownerMemberId, sam } = await aTeam();
    const crew = await made(owner, { name: 'Blue crew', colour: '#123abc', memberIds: [ownerMemberId], equipment: [{ name: 'Chipper', kind: 'chipper' }] });

    const renamed = await owner.request('PATCH', `/api/crews/${crew.id}`, { name: 'Green crew' });
    expect(renamed.status).toBe(200);
    expect(crewResponseSchema.parse(await renamed.json()).crew).toEqual({ ...crew, name: 'Green crew' });

    const res = await owner.request('PATCH', `/api/crews/${crew.id}`, {
      colour: null,
      dayHours: 7.5,
      memberIds: [ownerMemberId, sam.memberId],
      equipment: [{ name: 'Stump grinder', kind: 'stump_grinder' }],
    });
    expect(res.status).toBe(200);
    const changed = crewResponseSchema.parse(await res.json()).crew;
    expect(changed).toEqual({
      ...crew,
      name: 'Green crew',
      colour: null,
      dayHours: 7.5,
      equipment: [{ name: 'Stump grinder', kind: 'stump_grinder', windLimitMs: null }],
      members: [
        { id: ownerMemberId, name: 'Olive Oakes', role: 'owner' },
        { id: sam.memberId, name: 'Sam Field', role: 'crew' },
      ],
      capacityMinutes: 2 * 450,
    });
    expect(await crewsOf(owner)).toEqual([changed]);

    const nothing = await owner.request('PATCH', `/api/crews/${crew.id}`, {});
    expect(nothing.status).toBe(400);
    expect(await nothing.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: CREW_MESSAGES.nothingToChange });
  });
});

describe('what a crew is refused', () => {
  it('says which field is wrong and how to put it right', async () => {
    const { owner, sam } = await aTeam();
    const ok = { name: 'Blue crew', memberIds: [sam.memberId] };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...ok, name: '  ' }, 'name', CREW_MESSAGES.name],
      [{ ...ok, name: 'x'.repeat(61) }, 'name', CREW_MESSAGES.name],
      [{ ...ok, colour: 'green' }, 'colour', CREW_MESSAGES.colour],
      [{ ...ok, memberIds: [] }, 'memberIds', CREW_MESSAGES.members],
      [{ name: 'Blue crew' }, 'memberIds', CREW_MESSAGES.members],
      [{ ...ok, dayHours: 17 }, 'dayHours', CREW_MESSAGES.dayHours],
      [{ ...ok, dayHours: 0.5 }, 'dayHours', CREW_MESSAGES.dayHours],
      [{ ...ok, dayHours: 7.1 }, 'dayHours', CREW_MESSAGES.dayHours],
      [{ ...ok, equipment: Array.from({ length: 21 }, (_, i) => ({ name: `Saw ${i}`, kind: 'other' })) }, 'equipment', CREW_MESSAGES.equipment],
      [{ ...ok, equipment: [{ name: 'Saw', kind: 'saw' }] }, 'equipment.kind', CREW_MESSAGES.equipmentKind],
      [{ ...ok, equipment: [{ name: '', kind: 'other' }] }, 'equipment.name', CREW_MESSAGES.equipmentName],
      [{ ...ok, equipment: [{ name: 'Lift', kind: 'mewp', windLimitMs: 41 }] }, 'equipment.windLimitMs', CREW_MESSAGES.windLimit],
      [{ ...ok, equipment: [{ name: 'Lift', kind: 'mewp', windLimitMs: 0 }] }, 'equipment.windLimitMs', CREW_MESSAGES.windLimit],
    ];
    for (const [body, field, message] of cases) {
      const res = await owner.post('/api/crews', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const answer = (await res.json()) as { code: string; details: Record<string, string[]> };
      expect(answer.code).toBe('VALIDATION_ERROR');
      expect(answer.details[field], JSON.stringify(body)).toEqual([message]);
    }
    expect(await crewsOf(owner)).toEqual([]);
  });

  it('takes only people in the team: not another team\'s, not someone taken out, who then leaves the crews they were in', async () => {
    const { owner, ownerMemberId, sam, ana } = await aTeam();
    const crew = await made(owner, { name: 'Blue crew', memberIds: [ownerMemberId, sam.memberId] });
    const { client: otherOwner } = await registerClient(server);
    const stranger = await inviteAndJoin(server, otherOwner, 'crew', { name: 'Lee Ash' });

    const refusal = { code: 'VALIDATION_ERROR', message: CREW_MESSAGES.notInTeam, details: { memberIds: [CREW_MESSAGES.notInTeam] } };
    const foreign = await owner.post('/api/crews', { name: 'Mixed crew', memberIds: [ownerMemberId, stranger.memberId] });
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toEqual(refusal);
    const patched = await owner.request('PATCH', `/api/crews/${crew.id}`, { memberIds: [stranger.memberId] });
    expect(patched.status).toBe(400);
    expect(await patched.json()).toEqual(refusal);

    expect((await owner.request('DELETE', `/api/team/members/${sam.memberId}`)).status).toBe(204);
    const [after] = await crewsOf(owner);
    expect(after!.members.map((m) => m.name)).toEqual(['Olive Oakes']);
    expect(after!.capacityMinutes).toBe(480);
    const removed = await owner.post('/api/crews', { name: 'Red crew', memberIds: [ana.memberId, sam.memberId] });
    expect(removed.status).toBe(400);
    expect(await removed.json()).toEqual(refusal);
    expect((await crewsOf(owner)).map((c) => c.name)).toEqual(['Blue crew']);
  });
  it("lists the team's active people to choose from, for the office as for the owner: not someone taken out, not another team's", async () => {
    const { owner, ownerMemberId, sam, ana } = await aTeam();
    const { client: otherOwner } = await registerClient(server);
    await inviteAndJoin(server, otherOwner, 'crew', { name: 'Lee Ash' });
    const peopleOf = async (client: TestClient) => crewListResponseSchema.parse(await (await client.get('/api/crews')).json()).people;
    const expected = [
      { id: ownerMemberId, name: 'Olive Oakes', role: 'owner' },
      { id: ana.memberId, name: 'Ana Ruiz', role: 'office' },
      { id: sam.memberId, name: 'Sam Field', role: 'crew' },
    ];
    expect(await peopleOf(owner)).toEqual(expected);
    expect(await peopleOf(ana.client)).toEqual(expected);
    expect((await owner.request('DELETE', `/api/team/members/${sam.memberId}`)).status).toBe(204);
    expect((await peopleOf(ana.client)).map((p) => p.name)).toEqual(['Olive Oakes', 'Ana Ruiz']);
  });
});

describe('deleting a crew', () => {
  /** A job of the team's booked on `crewId` from `from` for `days`, as the schedule's booking will leave it. */
  async function bookedJob(owner: TestClient, crewId: number, from: string, days: number, status: 'booked' | 'cancelled' | 'done' = 'booked') {
    const res = await owner.post('/api/jobs', { customer: { name: 'Priya Shah' } });
    expect(res.status).toBe(201);
    const { job } = (await res.json()) as { job: { id: number } };
    server.db.update(jobs).set({ status, bookedFor: from, bookedStart: '08:00', bookedDays: days, crewId }).where(eq(jobs.id, job.id)).run();
    return job.id;
  }

  it('is refused while it has bookings to come, saying how many; past, done and cancelled ones do not count', async () => {
    const { owner, sam } = await aTeam();
    const crew = await made(owner, { name: 'Blue crew', memberIds: [sam.memberId] });
    const today = ukToday(server.clock.now());
    const nextWeek = await bookedJob(owner, crew.id, addDays(today, 7), 1);
    // Started yesterday, three days: it still has today and tomorrow to come.
    const underWay = await bookedJob(owner, crew.id, addDays(today, -1), 3);
    const past = await bookedJob(owner, crew.id, addDays(today, -10), 2);
    await bookedJob(owner, crew.id, addDays(today, 3), 1, 'cancelled');
    await bookedJob(owner, crew.id, addDays(today, -2), 1, 'done');

    const refused = await owner.request('DELETE', `/api/crews/${crew.id}`);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'CONFLICT', message: CREW_MESSAGES.futureBookings(2), details: { futureBookings: ['2'] } });
    expect(CREW_MESSAGES.futureBookings(2)).toBe('This crew has 2 bookings still to come. Move them to another crew before deleting the crew.');
    expect((await crewsOf(owner)).map((c) => c.id)).toEqual([crew.id]);

    server.db.update(jobs).set({ crewId: null }).where(eq(jobs.id, nextWeek)).run();
    const one = await owner.request('DELETE', `/api/crews/${crew.id}`);
    expect(one.status).toBe(409);
    expect(await one.json()).toMatchObject({ message: 'This crew has 1 booking still to come. Move it to another crew before deleting the crew.' });

    server.db.update(jobs).set({ crewId: null }).where(eq(jobs.id, underWay)).run();
    expect((await owner.request('DELETE', `/api/crews/${crew.id}`)).status).toBe(204);
    expect(await crewsOf(owner)).toEqual([]);
    // Gone for every request, while the past booking still names the crew that did it.
    const again = await owner.request('PATCH', `/api/crews/${crew.id}`, { name: 'Back' });
    expect(again.status).toBe(404);
    expect((await owner.request('DELETE', `/api/crews/${crew.id}`)).status).toBe(404);
    expect(server.db.select({ crewId: jobs.crewId }).from(jobs).where(eq(jobs.id, past)).get()?.crewId).toBe(crew.id);
    expect(server.db.select({ deletedAt: crews.deletedAt }).from(crews).where(eq(crews.id, crew.id)).get()?.deletedAt).toEqual(server.clock.now());
  });
});
