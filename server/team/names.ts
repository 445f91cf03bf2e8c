import { eq } from 'drizzle-orm';
import { personName } from '../../core/team';
import type { Db } from '../../db/client';
import { teamMembers, users } from '../../db/schema';

/**
 * The name of whoever did something (a `by` column), or null when no person did: the customer,
 * a Stripe event, background work, the CLI, or a person whose sign-in was deleted.
 */
export type NameOf = (userId: number | null) => string | null;

/**
 * Who did what, by name, for the job's and invoice's history ("Sent by Sam Field"): every person
 * who has ever been in the team, removed ones too (what they did keeps their name; removal keeps
 * their users row and marks their team_members row).
 *
 * Null for a team that has only ever had one person. The views (jobs/job-view.ts,
 * invoices/invoice-view.ts) then leave the `…By` fields out altogether rather than answering the
 * owner's own name on everything: a solo owner's answers stay exactly as they were before teams
 * (tests comparing whole views included), and the dashboard, which shows a name wherever the
 * answer carries one, reads as before. Invitations not yet accepted do not count: nobody else
 * has done anything yet.
 */
export function teamNamesOf(db: Db, accountId: number): NameOf | null {
  const people = db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(eq(teamMembers.accountId, accountId))
    .all();
  if (people.length < 2) return null;
  const names = new Map(people.map((person) => [person.id, personName(person)]));
  return (userId) => (userId === null ? null : (names.get(userId) ?? null));
}

/**
 * `{ [field]: name }` for a team of more than one person, `{}` for a team of one: spread into a
 * view so the field is absent, not null, where names are not shown (teamNamesOf).
 */
export function namedBy<K extends string>(names: NameOf | null, field: K, userId: number | null): { [P in K]?: string | null } {
  if (!names) return {};
  return { [field]: names(userId) } as { [P in K]?: string | null };
}
