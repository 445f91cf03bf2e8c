import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_GONE_MESSAGE, REMOVED_MEMBER_MESSAGE, TEAM_MESSAGES } from '../../core/team';
import { teamInvitations } from '../../db/schema';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { invitationMailTo, inviteAndJoin } from '../../testing/team';
import { RateLimits } from '../http/rate-limit';
import { sha256 } from '../secrets/tokens';

/*
 * The team's guards (docs/product.md, Team; docs/security.md, Roles): the invitation link is a
 * capability (one 410 for every link that opens nothing, tried at speed it is 429), a removal ends
 * the person's sessions at once, nobody raises their own role, and another team's ids are 404.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: new RateLimits({ registrationsPerAddress: { points: 1000, windowSeconds: 3600 } }) });
});
afterAll(() => server.close());

const GONE = { code: 'INVITATION_GONE', message: INVITATION_GONE_MESSAGE };

async function invited(owner: TestClient, email: string, role: 'office' | 'crew' = 'crew') {
  const res = await owner.post('/api/team/invitations', { email, name: 'Pat Elm', role });
  expect(res.status).toBe(201);
  const { invitation } = (await res.json()) as { invitation: { id: number } };
  return { id: invitation.id, token: (await invitationMailTo(server, email)).token };
}

async function expectGone(token: string) {
  const preview = await new TestClient(server).get(`/api/team/invitations/${token}`);
  expect(preview.status).toBe(410);
  expect(await preview.json()).toEqual(GONE);
  const join = await new TestClient(server).post('/api/team/join', { token, name: 'Pat Elm', password: 'pat password' });
  expect(join.status).toBe(410);
  expect(await join.json()).toEqual(GONE);
}

describe('the invitation link', () => {
  it('is kept only as its SHA-256', async () => {
    const { client: owner } = await registerClient(server);
    const { id, token } = await invited(owner, `hash${Date.now()}@example.com`);
    const row = server.db.select().from(teamInvitations).where(eq(teamInvitations.id, id)).get();
    expect(row?.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('works once: a used link is 410, and of two joins at once exactly one wins', async () => {
    const { client: owner } = await registerClient(server);
    const { token } = await invited(owner, 'twice@example.com');
    const [a, b] = await Promise.all([
      new TestClient(server).post('/api/team/join', { token, name: 'Pat Elm', password: 'first password' }),
      new TestClient(server).post('/api/team/join', { token, name: 'Pat Elm', password: 'second password' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 410]);
    await expectGone(token);
    // One person came of it, with the winner's password.
    const winner = a.status === 201 ? 'first password' : 'second password';
    expect((await new TestClient(server).post('/api/auth/login', { usernameOrEmail: 'twice@example.com', password: winner })).status).toBe(200);
    const team = (await (await owner.get('/api/team')).json()) as { members: { email: string }[] };
    expect(team.members.filter((m) => m.email === 'twice@example.com')).toHaveLength(1);
  });

  it('is 410 once withdrawn, once replaced by a resend, and after 7 days', async () => {
    const { client: owner } = await registerClient(server);
    const withdrawn = await invited(owner, 'withdrawn@example.com');
    expect((await owner.request('DELETE', `/api/team/invitations/${withdrawn.id}`)).status).toBe(204);
    await expectGone(withdrawn.token);

    const replaced = await invited(owner, 'replaced@example.com');
    expect((await owner.post(`/api/team/invitations/${replaced.id}/resend`)).status).toBe(200);
    await expectGone(replaced.token);

    const old = await invited(owner, 'old@example.com');
    server.clock.advance(7 * 24 * 3600_000 - 1000);
    expect((await new TestClient(server).get(`/api/team/invitations/${old.token}`)).status).toBe(200);
    server.clock.advance(1000);
    await expectGone(old.token);
  });

  it('answers every guessed token with the same 410, then 429 with Retry-After', async () => {
    const guessing = await startTestServer({}, { rateLimits: new RateLimits({ registrationsPerAddress: { points: 1000, windowSeconds: 3600 }, invitationLinkMissesPerAddress: { points: 8, windowSeconds: 600 } }) });
    try {
      const { client: owner } = await registerClient(guessing);
      await owner.post('/api/team/invitations', { email: 'real@example.com', name: 'Real Person', role: 'crew' });
      const visitor = new TestClient(guessing);
      const answers = [];
      for (let i = 0; i < 8; i += 1) {
        const guess = i % 2 === 0 ? randomBytes(32).toString('base64url') : `short${i}`;
        const res = i % 4 === 3 ? await visitor.post('/api/team/join', { token: guess, name: 'Guess', password: 'guess password' }) : await visitor.get(`/api/team/invitations/${guess}`);
        answers.push([res.status, await res.json()]);
      }
      expect(answers).toEqual(Array.from({ length: 8 }, () => [410, GONE]));
      const refused = await visitor.get(`/api/team/invitations/${randomBytes(32).toString('base64url')}`);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await refused.json()) as { code: string }).code).toBe('RATE_LIMITED');
      // The real link too, from that network, until the window ends.
      const realToken = (await invitationMailTo(guessing, 'real@example.com')).token;
      expect((await visitor.get(`/api/team/invitations/${realToken}`)).status).toBe(429);
    } finally {
      await guessing.close();
    }
  });
});

describe('another team', () => {
  it("cannot reach the team's invitations or members by id (404), nor see them in its list", async () => {
    const { client: owner } = await registerClient(server);
    const { id } = await invited(owner, 'mine@example.com');
    const office = await inviteAndJoin(server, owner, 'office');
    const { client: stranger } = await registerClient(server);

    expect((await stranger.request('DELETE', `/api/team/invitations/${id}`)).status).toBe(404);
    expect((await stranger.post(`/api/team/invitations/${id}/resend`)).status).toBe(404);
    expect((await stranger.request('PATCH', `/api/team/members/${office.memberId}`, { role: 'crew' })).status).toBe(404);
    expect((await stranger.request('DELETE', `/api/team/members/${office.memberId}`)).status).toBe(404);
    expect((await stranger.post('/api/team/owner', { memberId: office.memberId, password: 'correct horse' })).status).toBe(404);

    const theirs = (await (await stranger.get('/api/team')).json()) as { members: unknown[]; invitations: unknown[] };
    expect(theirs.members).toHaveLength(1);
    expect(theirs.invitations).toEqual([]);
    // Nothing changed on our side.
    expect((await office.client.get('/api/auth/me')).status).toBe(200);
    const ours = (await (await owner.get('/api/team')).json()) as { invitations: { id: number }[] };
    expect(ours.invitations.map((i) => i.id)).toEqual([id]);
  });

  it('cannot invite an address that signs in to another team', async () => {
    const { client: owner } = await registerClient(server);
    const elsewhere = await inviteAndJoin(server, owner, 'crew');
    const { client: other, account: otherAccount } = await registerClient(server);
    // Another account's owner, and a member of our team invited by another owner: each signs in elsewhere.
    const ownerAsks = await owner.post('/api/team/invitations', { email: otherAccount.email, name: 'Taken', role: 'crew' });
    expect(ownerAsks.status).toBe(409);
    expect(await ownerAsks.json()).toEqual({ code: 'CONFLICT', message: TEAM_MESSAGES.emailTaken });
    const otherAsks = await other.post('/api/team/invitations', { email: elsewhere.email, name: 'Taken', role: 'crew' });
    expect(otherAsks.status).toBe(409);
    expect(await otherAsks.json()).toEqual({ code: 'CONFLICT', message: TEAM_MESSAGES.emailTaken });
  });
});

describe('removal', () => {
  it("ends every session of the person at once, and sign-in then says they are out of the team", async () => {
    const { client: owner } = await registerClient(server);
    const crew = await inviteAndJoin(server, owner, 'crew', { email: 'removed@example.com', password: 'crew password' });
    // A second session of theirs, on another device.
    const phone = new TestClient(server);
    expect((await phone.post('/api/auth/login', { usernameOrEmail: 'removed@example.com', password: 'crew password' })).status).toBe(200);
    expect((await crew.client.get('/api/my-days')).status).toBe(200);

    expect((await owner.request('DELETE', `/api/team/members/${crew.memberId}`)).status).toBe(204);
    for (const device of [crew.client, phone]) {
      const res = await device.get('/api/my-days');
      expect(res.status).toBe(401);
    }
    const login = await new TestClient(server).post('/api/auth/login', { usernameOrEmail: 'removed@example.com', password: 'crew password' });
    expect(login.status).toBe(401);
    expect(((await login.json()) as { message: string }).message).toBe(REMOVED_MEMBER_MESSAGE);
    // Removing them again: they are no longer in the team.
    expect((await owner.request('DELETE', `/api/team/members/${crew.memberId}`)).status).toBe(404);
  });
});

describe('no role escalation', () => {
  it('office and crew cannot use the team routes: 403 naming the owner', async () => {
    const { client: owner } = await registerClient(server);
    const office = await inviteAndJoin(server, owner, 'office');
    const crew = await inviteAndJoin(server, owner, 'crew');
    const refusal = { code: 'ROLE_FORBIDDEN', message: 'Only the owner can manage the team.' };
    for (const member of [office, crew]) {
      const calls = [
        member.client.get('/api/team'),
        member.client.post('/api/team/invitations', { email: `x${member.memberId}@example.com`, name: 'X', role: 'office' }),
        member.client.request('PATCH', `/api/team/members/${member.memberId}`, { role: 'office' }),
        member.client.request('PATCH', `/api/team/members/${office.memberId}`, { role: 'crew' }),
        member.client.request('DELETE', `/api/team/members/${crew.memberId}`),
        member.client.post('/api/team/owner', { memberId: member.memberId, password: member.password }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual(refusal);
      }
    }
    expect(((await (await office.client.get('/api/auth/me')).json()) as { member: { role: string } }).member.role).toBe('office');
    expect(((await (await crew.client.get('/api/auth/me')).json()) as { member: { role: string } }).member.role).toBe('crew');
  });

  it('nobody is invited as, or made, an owner except by a hand-over', async () => {
    const { client: owner } = await registerClient(server);
    const office = await inviteAndJoin(server, owner, 'office');
    const invite = await owner.post('/api/team/invitations', { email: 'boss@example.com', name: 'Boss', role: 'owner' });
    expect(invite.status).toBe(400);
    expect(((await invite.json()) as { code: string }).code).toBe('VALIDATION_ERROR');
    const patch = await owner.request('PATCH', `/api/team/members/${office.memberId}`, { role: 'owner' });
    expect(patch.status).toBe(400);
  });

  it('the owner cannot be removed or demoted; ownership goes only to an active office member', async () => {
    const { client: owner, account } = await registerClient(server);
    const me = (await (await owner.get('/api/auth/me')).json()) as { member: { memberId: number } };
    const demote = await owner.request('PATCH', `/api/team/members/${me.member.memberId}`, { role: 'office' });
    expect(demote.status).toBe(409);
    expect(await demote.json()).toEqual({ code: 'CONFLICT', message: TEAM_MESSAGES.ownerCannotChange });
    const remove = await owner.request('DELETE', `/api/team/members/${me.member.memberId}`);
    expect(remove.status).toBe(409);

    const crew = await inviteAndJoin(server, owner, 'crew');
    const toCrew = await owner.post('/api/team/owner', { memberId: crew.memberId, password: account.password });
    expect(toCrew.status).toBe(409);
    expect(await toCrew.json()).toEqual({ code: 'CONFLICT', message: TEAM_MESSAGES.newOwnerMustBeOffice });
    const toSelf = await owner.post('/api/team/owner', { memberId: me.member.memberId, password: account.password });
    expect(toSelf.status).toBe(409);
    expect(((await (await owner.get('/api/auth/me')).json()) as { member: { role: string } }).member.role).toBe('owner');
  });

  it('a stolen owner session cannot guess the password to hand ownership on', async () => {
    const { client: owner, account } = await registerClient(server);
    const office = await inviteAndJoin(server, owner, 'office');
    for (let i = 0; i < 5; i += 1) {
      expect((await owner.post('/api/team/owner', { memberId: office.memberId, password: `guess ${i}` })).status).toBe(400);
    }
    const res = await owner.post('/api/team/owner', { memberId: office.memberId, password: account.password });
    expect(res.status).toBe(429);
    expect(((await (await office.client.get('/api/auth/me')).json()) as { member: { role: string } }).member.role).toBe('office');
  });

  it('signed out, the team routes are 401 and only the link and joining are open', async () => {
    const visitor = new TestClient(server);
    expect((await visitor.get('/api/team')).status).toBe(401);
    expect((await visitor.post('/api/team/invitations', { email: 'a@example.com', name: 'A', role: 'crew' })).status).toBe(401);
    expect((await visitor.get('/api/my-days')).status).toBe(401);
  });
});

describe('the logs', () => {
  it('never hold an invitation token, from the join page or its API', async () => {
    const { client: owner } = await registerClient(server);
    const { id, token } = await invited(owner, 'logged@example.com');
    const visitor = new TestClient(server);
    await visitor.get(`/join/${token}`);
    await visitor.get(`/api/team/invitations/${token}`);
    await visitor.get(`/api/team/invitations/${token}/logo`);
    await visitor.post('/api/team/join', { token, name: 'Pat Elm', password: 'pat password' });
    expect(JSON.stringify(server.logs)).not.toContain(token);
    const paths = server.logs.map((line) => line.path);
    expect(paths).toContain('/api/team/invitations/[token]');
    expect(paths).toContain('/join/[token]');
    // An invitation's id is no secret, and names what the owner did.
    await owner.post(`/api/team/invitations/${id}/resend`);
    expect(paths.concat(server.logs.map((line) => line.path))).toContain(`/api/team/invitations/${id}/resend`);
  });
});
