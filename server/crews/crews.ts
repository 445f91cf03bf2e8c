import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { CREW_MESSAGES, DEFAULT_DAY_HOURS, effectiveWindLimitMs, type Crew, type CrewCreate, type CrewPatch } from '../../core/crews';
import { DomainError } from '../../core/errors';
import { ukToday } from '../../core/job-booking';
import { personName, TEAM_ROLES } from '../../core/team';
import { immediate, type Db } from '../../db/client';
import { crewMembers, crews, jobs, teamMembers, users, type CrewRow } from '../../db/schema';
import type { Clock } from '../clock';
import type { TeamActor } from '../team/invitations';

/**
 * Crews and kit (docs/product.md, Schedule): the team's crews, their people and their kit. Every
 * change reads the crew inside its own immediate transaction (CONVENTIONS 15). A crew of another
 * team, or one deleted, is a 404, as any record outside the team is.
 *
 * The people of a crew are team members. Someone taken out of the team stays in the crew's rows
 * (putting them back in the team brings them back), but is not listed and does not count in its
 * capacity. A person may be in more than one crew: a climber who floats between two is common.
 */

/** The team and the person acting for it (the `by` of what they make): the team's own actor. */
export type CrewActor = TeamActor;

const notFound = () => new DomainError('NOT_FOUND', CREW_MESSAGES.notFound);

/**
 * The crew's people must be active members of the team. Another team's id, a removed member's
 * and an id nobody has all get the same 400 naming the field, so the answer tells nothing about
 * other teams; the crew itself exists, so this is the body's fault, not a missing record.
 */
function checkMembers(db: Db, accountId: number, memberIds: number[]): void {
  const found = db
    .select({ id: teamMembers.id })
    .from(teamMembers)
    .where(and(inArray(teamMembers.id, memberIds), eq(teamMembers.accountId, accountId), eq(teamMembers.status, 'active')))
    .all();
  if (found.length !== memberIds.length) {
    throw new DomainError('VALIDATION_ERROR', CREW_MESSAGES.notInTeam, { details: { memberIds: [CREW_MESSAGES.notInTeam] } });
  }
}

function setMembers(db: Db, crewId: number, memberIds: number[]): void {
  db.delete(crewMembers).where(eq(crewMembers.crewId, crewId)).run();
  db.insert(crewMembers)
    .values(memberIds.map((memberId) => ({ crewId, memberId })))
    .run();
}

/** A crew of the team that is not deleted, or 404. */
export function crewOfTeam(db: Db, accountId: number, crewId: number): CrewRow {
  const row = db
    .select()
    .from(crews)
    .where(and(eq(crews.id, crewId), eq(crews.accountId, accountId), isNull(crews.deletedAt)))
    .get();
  if (!row) throw notFound();
  return row;
}

/** The crews as the API answers them: their active members in one query for all of them. */
function toCrews(db: Db, rows: CrewRow[]): Crew[] {
  if (rows.length === 0) return [];
  const people = db
    .select({ crewId: crewMembers.crewId, id: teamMembers.id, role: teamMembers.role, firstName: users.firstName, lastName: users.lastName, username: users.username })
    .from(crewMembers)
    .innerJoin(teamMembers, eq(teamMembers.id, crewMembers.memberId))
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(
      and(
        inArray(
          crewMembers.crewId,
          rows.map((row) => row.id),
        ),
        eq(teamMembers.status, 'active'),
      ),
    )
    .all();
  // As the team's list orders them (team/members.ts teamView): owner, office, crew, then by name.
  const rank = (role: (typeof TEAM_ROLES)[number]) => TEAM_ROLES.indexOf(role);
  const named = people
    .map((p) => ({ crewId: p.crewId, id: p.id, role: p.role, name: personName(p) }))
    .sort((a, b) => rank(a.role) - rank(b.role) || a.name.localeCompare(b.name, 'en-GB') || a.id - b.id);
  return rows.map((row) => {
    const members = named.filter((p) => p.crewId === row.id).map(({ id, name, role }) => ({ id, name, role }));
    return {
      id: row.id,
      name: row.name,
      colour: row.colour,
      dayHours: row.dayMinutes / 60,
      equipment: row.equipment.map((item) => ({ name: item.name, kind: item.kind, windLimitMs: effectiveWindLimitMs(item) })),
      members,
      capacityMinutes: members.length * row.dayMinutes,
    };
  });
}

/**
 * The people a crew can be made of: the team's active members, owner and office first, then by
 * name. GET /api/crews answers them beside the crews, so the office, who plans crews but may not
 * read the team's list (Settings → Team is the owner's), can choose anyone.
 */
export function crewCandidates(db: Db, accountId: number): Crew['members'] {
  const rank = (role: (typeof TEAM_ROLES)[number]) => TEAM_ROLES.indexOf(role);
  return db
    .select({ id: teamMembers.id, role: teamMembers.role, firstName: users.firstName, lastName: users.lastName, username: users.username })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.status, 'active')))
    .all()
    .map((p) => ({ id: p.id, role: p.role, name: personName(p) }))
    .sort((a, b) => rank(a.role) - rank(b.role) || a.name.localeCompare(b.name, 'en-GB') || a.id - b.id);
}

/** One of the team's crews as the API answers it (its active members and kit), or null when it is gone. */
export function crewView(db: Db, accountId: number, crewId: number): Crew | null {
  const rows = db
    .select()
    .from(crews)
    .where(and(eq(crews.id, crewId), eq(crews.accountId, accountId), isNull(crews.deletedAt)))
    .all();
  return toCrews(db, rows)[0] ?? null;
}

/** The team's crews, by name (GET /api/crews). */
export function listCrews(db: Db, accountId: number): Crew[] {
  const rows = db
    .select()
    .from(crews)
    .where(and(eq(crews.accountId, accountId), isNull(crews.deletedAt)))
    .orderBy(asc(sql`${crews.name} COLLATE NOCASE`), asc(crews.id))
    .all();
  return toCrews(db, rows);
}

export function createCrew(db: Db, clock: Clock, actor: CrewActor, input: CrewCreate): Crew {
  return immediate(db, (tx) => {
    checkMembers(tx, actor.accountId, input.memberIds);
    const now = clock.now();
    const row = tx
      .insert(crews)
      .values({
        accountId: actor.accountId,
        name: input.name,
        colour: input.colour ?? null,
        dayMinutes: Math.round((input.dayHours ?? DEFAULT_DAY_HOURS) * 60),
        equipment: input.equipment ?? [],
        createdBy: actor.personId,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    setMembers(tx, row.id, input.memberIds);
    return toCrews(tx, [row])[0]!;
  });
}

/** Changes what the patch carries; `memberIds` and `equipment` replace the lists. */
export function updateCrew(db: Db, clock: Clock, actor: CrewActor, crewId: number, patch: CrewPatch): Crew {
  return immediate(db, (tx) => {
    crewOfTeam(tx, actor.accountId, crewId);
    if (patch.memberIds) checkMembers(tx, actor.accountId, patch.memberIds);
    const row = tx
      .update(crews)
      .set({
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.colour !== undefined && { colour: patch.colour }),
        ...(patch.dayHours !== undefined && { dayMinutes: Math.round(patch.dayHours * 60) }),
        ...(patch.equipment !== undefined && { equipment: patch.equipment }),
        updatedAt: clock.now(),
      })
      .where(eq(crews.id, crewId))
      .returning()
      .get();
    if (patch.memberIds) setMembers(tx, crewId, patch.memberIds);
    return toCrews(tx, [row])[0]!;
  });
}

/**
 * The crew's bookings still to come: booked jobs on it whose last day is today or later (UK
 * days; a job half done still has days to come). Done and cancelled jobs do not count, nor do
 * past ones, which keep naming the crew after it is deleted.
 */
function futureBookings(db: Db, accountId: number, crewId: number, today: string): number {
  const lastDay = sql`date(${jobs.bookedFor}, '+' || (coalesce(${jobs.bookedDays}, 1) - 1) || ' days')`;
  const row = db
    .select({ count: sql<number>`count(*)` })
    .from(jobs)
    .where(and(eq(jobs.userId, accountId), eq(jobs.crewId, crewId), eq(jobs.status, 'booked'), sql`${lastDay} >= ${today}`))
    .get();
  return row?.count ?? 0;
}

/**
 * Deletes a crew with no bookings to come (409 with how many otherwise, so they are moved
 * first and no customer's booking is left on no crew). The row stays, marked deleted: past
 * bookings still say who did the work.
 */
export function deleteCrew(db: Db, clock: Clock, actor: CrewActor, crewId: number): void {
  immediate(db, (tx) => {
    crewOfTeam(tx, actor.accountId, crewId);
    const now = clock.now();
    const count = futureBookings(tx, actor.accountId, crewId, ukToday(now));
    if (count > 0) throw new DomainError('CONFLICT', CREW_MESSAGES.futureBookings(count), { details: { futureBookings: [String(count)] } });
    tx.update(crews).set({ deletedAt: now, updatedAt: now }).where(eq(crews.id, crewId)).run();
  });
}
