import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInMemberSchema, type InvitationPreview, type TeamView } from '../../core/team';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { logoForm, testLogoPng, TEST_PROFILE } from '../../testing/logo';
import { invitationMailTo, inviteAndJoin } from '../../testing/team';
import { RateLimits } from '../http/rate-limit';

/* The owner builds a team (docs/product.md, Team): invitations by e-mail, joining, the list, roles, hand-over. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: new RateLimits({ registrationsPerAddress: { points: 1000, windowSeconds: 3600 } }) });
});
afterAll(() => server.close());

async function me(client: TestClient) {
  const res = await client.get('/api/auth/me');
  expect(res.status).toBe(200);
  const body = (await res.json()) as { user: { email: string; username: string }; member: unknown };
  return { user: body.user, member: signedInMemberSchema.parse(body.member) };
}

async function teamOf(client: TestClient): Promise<TeamView> {
  const res = await client.get('/api/team');
  expect(res.status).toBe(200);
  return (await res.json()) as TeamView;
}

describe('an invitation, from the e-mail to a signed-in member', () => {
  it('e-mails a link from the business, previews it, and the person joins as office, signed in as themselves', async () => {
    const { client: owner, account } = await registerClient(server, { firstName: 'Sam', lastName: 'Field' });
    expect((await owner.request('PATCH', '/api/system-settings', { companyProfile: { ...TEST_PROFILE, tradingName: 'Oak & Ash Tree Surgery' } })).status).toBe(200);
    expect((await owner.upload('/api/system-settings/logo', logoForm(await testLogoPng()))).status).toBe(200);

    const res = await owner.post('/api/team/invitations', { email: 'Ana.Ruiz@Example.com ', name: 'Ana Ruiz', role: 'office' });
    expect(res.status).toBe(201);
    const { invitation } = (await res.json()) as { invitation: Record<string, unknown> };
    expect(invitation).toEqual({ id: expect.any(Number), email: 'ana.ruiz@example.com', name: 'Ana Ruiz', role: 'office', expiresAt: '2026-06-08T09:00:00.000Z', invitedBy: 'Sam Field' });

    const mail = await invitationMailTo(server, 'ana.ruiz@example.com');
    expect(mail.text).toMatch(/^Subject: Join Oak & Ash Tree Surgery$/m);
    expect(mail.text).toMatch(/^From: "?Oak & Ash Tree Surgery"? </m);
    expect(mail.text).toContain('Sam Field has invited you to join Oak & Ash Tree Surgery on TreeAnalyzer Pro as an Office member');
    expect(mail.text).toContain(`${server.url}/join/${mail.token}`);
    // 256 random bits as base64url.
    expect(mail.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const preview = await new TestClient(server).get(`/api/team/invitations/${mail.token}`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('cache-control')).toBe('private, no-store');
    const shown = (await preview.json()) as InvitationPreview;
    expect(shown).toEqual({
      businessName: 'Oak & Ash Tree Surgery',
      logoUrl: `/api/team/invitations/${mail.token}/logo`,
      role: 'office',
      email: 'ana.ruiz@example.com',
      name: 'Ana Ruiz',
      expiresAt: '2026-06-08T09:00:00.000Z',
    });
    const logo = await new TestClient(server).get(shown.logoUrl!);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');

    const ana = new TestClient(server);
    const joined = await ana.post('/api/team/join', { token: mail.token, name: 'Ana Ruiz', password: 'ana password' });
    expect(joined.status).toBe(201);
    const body = (await joined.json()) as { user: { email: string; username: string }; member: unknown };
    expect(body.user.email).toBe('ana.ruiz@example.com');
    expect(body.user.username).toBe('ana.ruiz');
    expect(signedInMemberSchema.parse(body.member)).toEqual({ memberId: expect.any(Number), name: 'Ana Ruiz', role: 'office', businessName: 'Oak & Ash Tree Surgery' });
    expect((await me(ana)).member.role).toBe('office');

    // Office works in the owner's account: the same company profile, not a new one.
    const settings = (await (await ana.get('/api/system-settings')).json()) as { companyProfile: { tradingName: string } };
    expect(settings.companyProfile.tradingName).toBe('Oak & Ash Tree Surgery');

    // They sign in again later with their e-mail.
    const again = new TestClient(server);
    expect((await again.post('/api/auth/login', { usernameOrEmail: 'ana.ruiz@example.com', password: 'ana password' })).status).toBe(200);
    expect((await me(again)).member).toMatchObject({ role: 'office', name: 'Ana Ruiz' });

    const team = await teamOf(owner);
    expect(team.invitations).toEqual([]);
    expect(team.members.map((m) => [m.name, m.email, m.role, m.status, m.you])).toEqual([
      ['Sam Field', account.email, 'owner', 'active', true],
      ['Ana Ruiz', 'ana.ruiz@example.com', 'office', 'active', false],
    ]);
    // Both have signed in: the list says when.
    expect(team.members.every((m) => m.lastSeenAt === '2026-06-01T09:00:00.000Z')).toBe(true);
  });

  it('a crew member joins and lands in My days, which has nothing booked yet', async () => {
    const { client: owner } = await registerClient(server, { firstName: 'Rowan', lastName: 'Birch' });
    const crew = await inviteAndJoin(server, owner, 'crew', { name: 'Kit Holm' });
    expect((await me(crew.client)).member).toEqual({ memberId: crew.memberId, name: 'Kit Holm', role: 'crew', businessName: 'Rowan Birch' });
    const days = await crew.client.get('/api/my-days');
    expect(days.status).toBe(200);
    // A week of days from today, none with a booking: they are in no crew yet.
    const { days: week } = (await days.json()) as { days: { date: string; bookings: unknown[] }[] };
    expect(week.map((d) => d.date)).toEqual(['2026-06-01', '2026-06-02', '2026-06-03', '2026-06-04', '2026-06-05', '2026-06-06', '2026-06-07']);
    expect(week.every((d) => d.bookings.length === 0)).toBe(true);
    expect((await owner.get('/api/my-days')).status).toBe(200);
  });

  it('lists open invitations newest first, withdraws one, and resends another with a new link', async () => {
    const { client: owner } = await registerClient(server);
    const first = (await (await owner.post('/api/team/invitations', { email: 'first@example.com', name: 'First', role: 'crew' })).json()) as { invitation: { id: number } };
    server.clock.advance(60_000);
    const second = (await (await owner.post('/api/team/invitations', { email: 'second@example.com', name: 'Second', role: 'office' })).json()) as { invitation: { id: number } };
    expect((await teamOf(owner)).invitations.map((i) => i.email)).toEqual(['second@example.com', 'first@example.com']);

    expect((await owner.request('DELETE', `/api/team/invitations/${second.invitation.id}`)).status).toBe(204);
    expect((await teamOf(owner)).invitations.map((i) => i.email)).toEqual(['first@example.com']);

    const oldLink = (await invitationMailTo(server, 'first@example.com')).token;
    server.clock.advance(3 * 24 * 3600_000);
    const resent = await owner.post(`/api/team/invitations/${first.invitation.id}/resend`);
    expect(resent.status).toBe(200);
    const { invitation } = (await resent.json()) as { invitation: { id: number; expiresAt: string } };
    expect(invitation.id).toBe(first.invitation.id);
    // Seven days from the resend.
    expect(invitation.expiresAt).toBe('2026-06-11T09:01:00.000Z');
    const newLink = (await invitationMailTo(server, 'first@example.com')).token;
    expect(newLink).not.toBe(oldLink);
    expect((await new TestClient(server).get(`/api/team/invitations/${newLink}`)).status).toBe(200);
  });

  it('changes a member between office and crew, counting from their next request', async () => {
    const { client: owner } = await registerClient(server);
    const office = await inviteAndJoin(server, owner, 'office');
    expect((await office.client.get('/api/invoices')).status).toBe(200);
    const res = await owner.request('PATCH', `/api/team/members/${office.memberId}`, { role: 'crew' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { member: { role: string } }).member.role).toBe('crew');
    expect((await office.client.get('/api/invoices')).status).toBe(403);
    expect((await me(office.client)).member.role).toBe('crew');
  });

  it('brings a removed member back when they are invited again, with the new role and password', async () => {
    const { client: owner } = await registerClient(server);
    const first = await inviteAndJoin(server, owner, 'crew', { name: 'Lee Ash', email: 'lee.ash@example.com' });
    expect((await owner.request('DELETE', `/api/team/members/${first.memberId}`)).status).toBe(204);
    expect((await teamOf(owner)).members.map((m) => m.name)).not.toContain('Lee Ash');

    const back = await inviteAndJoin(server, owner, 'office', { name: 'Lee Ash', email: 'lee.ash@example.com', password: 'a new password' });
    // The same row: what they did before stays theirs.
    expect(back.memberId).toBe(first.memberId);
    expect((await me(back.client)).member.role).toBe('office');
    const login = await new TestClient(server).post('/api/auth/login', { usernameOrEmail: 'lee.ash@example.com', password: 'a new password' });
    expect(login.status).toBe(200);
  });
});

describe('handing ownership on', () => {
  it('with the owner\'s own password swaps the roles: the new owner manages the team, the old one is office', async () => {
    const { client: owner, account } = await registerClient(server, { firstName: 'Old', lastName: 'Owner' });
    const office = await inviteAndJoin(server, owner, 'office', { name: 'New Owner' });

    const wrong = await owner.post('/api/team/owner', { memberId: office.memberId, password: 'not my password' });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { message: string }).message).toBe('That password is not right.');
    expect((await me(office.client)).member.role).toBe('office');

    const res = await owner.post('/api/team/owner', { memberId: office.memberId, password: account.password });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { member: { role: string } }).member.role).toBe('office');

    expect((await me(office.client)).member.role).toBe('owner');
    const team = await teamOf(office.client);
    expect(team.members.map((m) => [m.name, m.role])).toEqual([
      ['New Owner', 'owner'],
      ['Old Owner', 'office'],
    ]);
    const refused = await owner.get('/api/team');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'ROLE_FORBIDDEN', message: 'Only the owner can manage the team.' });
    // The team's records stay where they were: the old owner, now office, still sees the same settings.
    expect((await owner.get('/api/system-settings')).status).toBe(200);
  });
});
