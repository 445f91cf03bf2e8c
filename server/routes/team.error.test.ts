import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILED_MESSAGE } from '../../core/accounts';
import { TEAM_MESSAGES } from '../../core/team';
import { users } from '../../db/schema';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { invitationMailTo, inviteAndJoin } from '../../testing/team';
import { RateLimits } from '../http/rate-limit';

/* What the team's forms say when something is wrong (docs/product.md, Team). */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(
    {},
    { rateLimits: new RateLimits({ registrationsPerAddress: { points: 1000, windowSeconds: 3600 }, teamInvitationsPerAccount: { points: 6, windowSeconds: 3600 } }) },
  );
});
afterAll(() => server.close());

async function expectConflict(res: Response, message: string) {
  expect(res.status).toBe(409);
  expect(await res.json()).toEqual({ code: 'CONFLICT', message });
}

describe('inviting', () => {
  it('refuses someone already in the team, an address already invited, and the owner themselves', async () => {
    const { client: owner, account } = await registerClient(server);
    const member = await inviteAndJoin(server, owner, 'crew');
    await expectConflict(await owner.post('/api/team/invitations', { email: member.email, name: 'Again', role: 'office' }), TEAM_MESSAGES.alreadyMember);
    await expectConflict(await owner.post('/api/team/invitations', { email: account.email.toUpperCase(), name: 'Me', role: 'office' }), TEAM_MESSAGES.alreadyMember);
    expect((await owner.post('/api/team/invitations', { email: 'waiting@example.com', name: 'Waiting', role: 'crew' })).status).toBe(201);
    await expectConflict(await owner.post('/api/team/invitations', { email: 'Waiting@Example.com', name: 'Waiting', role: 'office' }), TEAM_MESSAGES.alreadyInvited);
  });

  it('says what is wrong with each field', async () => {
    const { client: owner } = await registerClient(server);
    const res = await owner.post('/api/team/invitations', { email: 'not an address', name: '  ', role: 'manager' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; details: Record<string, string[]> };
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.details.email).toEqual(['Please enter a valid email address']);
    expect(body.details.name).toEqual(['Please enter a name']);
    expect(body.details.role).toEqual(['Choose Office or Crew']);
  });

  it('limits how many invitations an account sends in an hour, resends included', async () => {
    const { client: owner } = await registerClient(server);
    const first = (await (await owner.post('/api/team/invitations', { email: 'limit0@example.com', name: 'L', role: 'crew' })).json()) as { invitation: { id: number } };
    for (let i = 1; i < 5; i += 1) expect((await owner.post('/api/team/invitations', { email: `limit${i}@example.com`, name: 'L', role: 'crew' })).status).toBe(201);
    expect((await owner.post(`/api/team/invitations/${first.invitation.id}/resend`)).status).toBe(200);
    const refused = await owner.post('/api/team/invitations', { email: 'limit9@example.com', name: 'L', role: 'crew' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    // Another account is not held up by it.
    const { client: other } = await registerClient(server);
    expect((await other.post('/api/team/invitations', { email: 'limit9@example.com', name: 'L', role: 'crew' })).status).toBe(201);
  });

  it('does not resend or withdraw an invitation that was used or withdrawn (404)', async () => {
    const { client: owner } = await registerClient(server);
    const joined = await inviteAndJoin(server, owner, 'crew');
    expect((await owner.post(`/api/team/invitations/${joined.invitationId}/resend`)).status).toBe(404);
    expect((await owner.request('DELETE', `/api/team/invitations/${joined.invitationId}`)).status).toBe(404);
  });
});

describe('joining', () => {
  it('takes the same password rules as registering', async () => {
    const { client: owner } = await registerClient(server);
    await owner.post('/api/team/invitations', { email: 'short@example.com', name: 'Short', role: 'crew' });
    const { token } = await invitationMailTo(server, 'short@example.com');
    const res = await new TestClient(server).post('/api/team/join', { token, name: 'Short', password: '12345' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { details: Record<string, string[]> }).details.password).toEqual(['Password must be at least 6 characters']);
    // The link still works once the password is right.
    expect((await new TestClient(server).post('/api/team/join', { token, name: 'Short', password: '123456' })).status).toBe(201);
  });

  it('refuses a link whose address has since got its own sign-in, and leaves that sign-in alone', async () => {
    const { client: owner } = await registerClient(server);
    await owner.post('/api/team/invitations', { email: 'since@example.com', name: 'Since', role: 'crew' });
    const { token } = await invitationMailTo(server, 'since@example.com');
    await registerClient(server, { email: 'since@example.com', password: 'their own', confirmPassword: 'their own' });
    await expectConflict(await new TestClient(server).post('/api/team/join', { token, name: 'Since', password: 'taken over' }), TEAM_MESSAGES.emailTaken);
    expect((await new TestClient(server).post('/api/auth/login', { usernameOrEmail: 'since@example.com', password: 'their own' })).status).toBe(200);
  });

  it('gives each joiner a username of their own, from their address', async () => {
    const { client: owner } = await registerClient(server);
    const a = await inviteAndJoin(server, owner, 'crew', { email: 'jo@one.example.com' });
    const b = await inviteAndJoin(server, owner, 'crew', { email: 'jo@two.example.com' });
    const names = [a, b].map((m) => server.db.select().from(users).where(eq(users.email, m.email)).get()!.username);
    expect(names).toEqual(['jomember', 'jomember-2']);
  });
});

describe('deleting the account', () => {
  it("takes the team's members' sign-ins with it", async () => {
    const { client: owner, account } = await registerClient(server);
    const office = await inviteAndJoin(server, owner, 'office');
    const res = await owner.request('DELETE', '/api/account', { password: account.password });
    expect(res.status).toBe(200);
    expect((await office.client.get('/api/auth/me')).status).toBe(401);
    const login = await new TestClient(server).post('/api/auth/login', { usernameOrEmail: office.email, password: office.password });
    expect(login.status).toBe(401);
    expect(((await login.json()) as { message: string }).message).toBe(LOGIN_FAILED_MESSAGE);
    expect(server.db.select().from(users).where(eq(users.email, office.email)).get()).toBeUndefined();
  });
});
