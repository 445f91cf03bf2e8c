import { eq } from 'drizzle-orm';
import type { InvitableRole } from '../core/team';
import { teamMembers, users } from '../db/schema';
import { createUser } from '../server/accounts/users';
import { hashPassword } from '../server/accounts/passwords';
import { TestClient, type TestServer } from './harness';
import { addressedTo, mailSettled, outboxMessages } from './mail';

let counter = 0;

/** The newest invitation e-mail to `email` (once the outbox has settled) and the token in its /join/ link. */
export async function invitationMailTo(server: TestServer, email: string): Promise<{ text: string; token: string }> {
  await mailSettled(server);
  const mail = outboxMessages(server.dataDir)
    .filter((m) => addressedTo(m.text, email) && /^Subject: Join /m.test(m.text))
    .pop();
  if (!mail) throw new Error(`no invitation e-mail to ${email}`);
  const token = /\/join\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error('no join link in the invitation e-mail');
  return { text: mail.text, token };
}

/**
 * The owner (a signed-in client) invites someone with `role`, who joins from the e-mail's link:
 * a new client signed in as them, with their e-mail, password and team_members id.
 */
export async function inviteAndJoin(
  server: TestServer,
  owner: TestClient,
  role: InvitableRole,
  person: { name?: string; email?: string; password?: string } = {},
): Promise<{ client: TestClient; email: string; password: string; memberId: number; invitationId: number }> {
  counter += 1;
  const email = person.email ?? `member${process.pid}x${counter}@example.com`;
  const password = person.password ?? 'member password';
  const invited = await owner.post('/api/team/invitations', { email, name: person.name ?? `Member ${counter}`, role });
  if (invited.status !== 201) throw new Error(`invite failed: ${invited.status} ${await invited.text()}`);
  const { invitation } = (await invited.json()) as { invitation: { id: number } };
  const { token } = await invitationMailTo(server, email);
  const client = new TestClient(server);
  const joined = await client.post('/api/team/join', { token, name: person.name ?? `Member ${counter}`, password });
  if (joined.status !== 201) throw new Error(`join failed: ${joined.status} ${await joined.text()}`);
  const { member } = (await joined.json()) as { member: { memberId: number } };
  return { client, email, password, memberId: member.memberId, invitationId: invitation.id };
}

/**
 * A second person in a team, for tests of what a team member does (docs/product.md, Team),
 * made straight in the database as joining by an invitation would leave it: their own users
 * row and a team_members row in the owner's team with `role`. They sign in over HTTP with their
 * own password, as a person would, so the session finds them and their team.
 */
export interface TeamMember {
  client: TestClient;
  userId: number;
  username: string;
  name: string;
}

let made = 0;

export async function addTeamMember(
  server: TestServer,
  owner: TestClient,
  { role, firstName, lastName }: { role: InvitableRole; firstName: string; lastName: string },
): Promise<TeamMember> {
  const me = await owner.get('/api/auth/me');
  if (me.status !== 200) throw new Error(`owner not signed in: ${me.status}`);
  const accountId = ((await me.json()) as { user: { id: number } }).user.id;
  made += 1;
  const username = `member${process.pid}x${made}`;
  const password = 'member horse battery';
  const user = createUser(server.db, server.clock, { username, email: `${username}@example.com`, passwordHash: await hashPassword(password), firstName, lastName });
  // createUser made them the owner of a team of one; joining puts that row in the owner's team.
  server.db.update(teamMembers).set({ accountId, role, invitedBy: accountId, joinedAt: server.clock.now() }).where(eq(teamMembers.userId, user.id)).run();
  const client = new TestClient(server);
  const res = await client.post('/api/auth/login', { usernameOrEmail: username, password });
  if (res.status !== 200) throw new Error(`member sign-in failed: ${res.status} ${await res.text()}`);
  return { client, userId: user.id, username, name: `${firstName} ${lastName}` };
}


/** The users id of a registered account (its team's account id). */
export function accountIdOf(server: TestServer, username: string): number {
  return server.db.select({ id: users.id }).from(users).where(eq(users.username, username)).get()!.id;
}
