import { eq } from 'drizzle-orm';
import type { InvitableRole } from '../core/team';
import { teamMembers } from '../db/schema';
import { createUser } from '../server/accounts/users';
import { hashPassword } from '../server/accounts/passwords';
import { TestClient, type TestServer } from './harness';

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
