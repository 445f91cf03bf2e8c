import { eq } from 'drizzle-orm';
import type { TeamRole } from '../core/team';
import { teamMembers, users } from '../db/schema';
import { hashPassword } from '../server/accounts/passwords';
import { newAccount, TestClient, type TestServer } from './harness';

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
