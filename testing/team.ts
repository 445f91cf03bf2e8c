import { eq } from 'drizzle-orm';
import type { InvitableRole, TeamRole } from '../core/team';
import { teamMembers, users } from '../db/schema';
import { hashPassword } from '../server/accounts/passwords';
import { newAccount, TestClient, type TestServer } from './harness';
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

export interface TeamPerson {
  client: TestClient;
  userId: number;
  memberId: number;
  name: string;
  email: string;
  password: string;
}

/**
 * A person in a team, as joining from an invitation leaves them (a users row and a team_members
 * row in the account's team), signed in through the real POST /api/auth/login. For tests about
 * what a role may do; the invitation itself is tested over HTTP in server/routes/team.*.test.ts.
 */
export async function addTeamMember(server: TestServer, accountId: number, role: Exclude<TeamRole, 'owner'>, name = role === 'office' ? 'Ana Ruiz' : 'Sam Field'): Promise<TeamPerson> {
  const account = newAccount();
  const [firstName = '', ...rest] = name.split(' ');
  const now = server.clock.now();
  const user = server.db
    .insert(users)
    .values({ username: account.username, email: account.email, password: await hashPassword(account.password), firstName, lastName: rest.join(' '), createdAt: now, updatedAt: now })
    .returning()
    .get();
  const member = server.db.insert(teamMembers).values({ accountId, userId: user.id, role, joinedAt: now }).returning().get();
  const client = new TestClient(server);
  const res = await client.post('/api/auth/login', { usernameOrEmail: account.email, password: account.password });
  if (res.status !== 200) throw new Error(`team member sign-in failed: ${res.status} ${await res.text()}`);
  return { client, userId: user.id, memberId: member.id, name, email: account.email, password: account.password };
}

/** The users id of a registered account (its team's account id). */
export function accountIdOf(server: TestServer, username: string): number {
  return server.db.select({ id: users.id }).from(users).where(eq(users.username, username)).get()!.id;
}
