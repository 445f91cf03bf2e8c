import { and, eq } from 'drizzle-orm';
import { AREAS } from '../../core/permissions';
import { DomainError } from '../../core/errors';
import { TEAM_MESSAGES } from '../../core/team';
import { immediate, type Db } from '../../db/client';
import { teamMembers } from '../../db/schema';
import type { Clock } from '../clock';
import type { TeamActor } from './invitations';

/**
 * Handing ownership on (docs/product.md, Team): the owner (whose own password the route has
 * checked) makes an active office member of the same team the owner, and becomes office. Both rows
 * change in one immediate transaction; the old owner's row is demoted first, since the database
 * holds one active owner a team (team_members_one_owner). The team's records stay keyed by its
 * account (team_members.account_id), which does not change: a hand-over moves no data.
 */
export function handOwnership(db: Db, clock: Clock, actor: TeamActor, memberId: number): void {
  immediate(db, (tx) => {
    const target = tx.select().from(teamMembers).where(and(eq(teamMembers.id, memberId), eq(teamMembers.accountId, actor.accountId))).get();
    // Another team's member is outside the team: 404, as everywhere.
    if (!target) throw new DomainError('NOT_FOUND', 'That person is not in your team.');
    if (target.status !== 'active' || target.role !== 'office' || target.userId === actor.personId) {
      throw new DomainError('CONFLICT', TEAM_MESSAGES.newOwnerMustBeOffice);
    }
    const owner = tx.select().from(teamMembers).where(and(eq(teamMembers.userId, actor.personId), eq(teamMembers.accountId, actor.accountId))).get();
    // Checked again under the write lock: two hand-overs at once cannot both go through.
    if (owner && (owner.role !== 'owner' || owner.status !== 'active')) throw new DomainError('ROLE_FORBIDDEN', AREAS.team.refusal);
    if (owner) tx.update(teamMembers).set({ role: 'office' }).where(eq(teamMembers.id, owner.id)).run();
    // A team of one made before teams may have no row for its owner (sessions.ts): they get one, as office.
    else tx.insert(teamMembers).values({ accountId: actor.accountId, userId: actor.personId, role: 'office', joinedAt: clock.now() }).run();
    tx.update(teamMembers).set({ role: 'owner' }).where(eq(teamMembers.id, target.id)).run();
  });
}
