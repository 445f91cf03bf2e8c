import { eq } from 'drizzle-orm';
import { crewMembers, teamMembers } from '../db/schema';
import { registerClient, type TestServer } from '../testing/harness';
import { seedSchedule } from '../testing/schedule-seed';
import { accountIdOf, addTeamMember } from '../testing/team';

/**
 * A crew member with a week of work (bench/crew-phone.bench.ts): a team's schedule seeded from the
 * server's today, and a crew member in its first crew, signed in with a password.
 */
export async function crewWithAWeek(server: TestServer, bookings = 12): Promise<{ username: string; password: string; jobIds: number[] }> {
  const { client, account } = await registerClient(server);
  const accountId = accountIdOf(server, account.username);
  const today = server.clock.now().toISOString().slice(0, 10);
  const { crewIds, jobIds } = seedSchedule(server.db, { accountId, crews: 1, bookings, from: today, days: 7, now: server.clock.now() });
  const member = await addTeamMember(server, client, { role: 'crew', firstName: 'Sam', lastName: 'Field' });
  const memberRow = server.db.select({ id: teamMembers.id }).from(teamMembers).where(eq(teamMembers.userId, member.userId)).get();
  if (!memberRow) throw new Error('the crew member has no team row');
  server.db.insert(crewMembers).values({ crewId: crewIds[0]!, memberId: memberRow.id }).run();
  return { username: member.username, password: 'member horse battery', jobIds };
}
