import { and, eq, isNull } from 'drizzle-orm';
import { USERNAME_MAX, USERNAME_MIN, USERNAME_PATTERN } from '../../core/account-checks';
import { DomainError } from '../../core/errors';
import { TEAM_MESSAGES } from '../../core/team';
import { immediate, type Db } from '../../db/client';
import { teamInvitations, teamMembers, users, type UserRow } from '../../db/schema';
import type { Clock } from '../clock';
import { findUserByEmail, findUserByUsername } from '../accounts/users';
import { invitationByToken, invitationGone } from './invitations';

/**
 * Joining a team from an invitation (docs/product.md, Team): the person's own sign-in (their
 * users row, with the invitation's e-mail), their place in the team and the invitation's end, in
 * one immediate transaction that reads the invitation again, so two joins with one link cannot
 * both win (the second finds it used: 410). The password is hashed before, by the caller: a
 * transaction holds the write lock and must not wait on scrypt.
 */
export interface JoinRequest {
  token: string;
  name: string;
  passwordHash: string;
}

export interface Joined {
  person: UserRow;
  accountId: number;
}

/** "Ana Ruiz" as first and last name: the first word, and the rest. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { firstName: first, lastName: rest.join(' ') };
}

/**
 * A username nobody has, made from the e-mail's local part (a joiner signs in with their e-mail,
 * so it is only a name the install needs): its letters, digits, dots, dashes and underscores,
 * then "-2", "-3"... until free.
 */
export function freeUsername(db: Db, email: string, name: string): string {
  const clean = (text: string) => [...text].filter((ch) => USERNAME_PATTERN.test(ch)).join('');
  let base = clean(email.split('@')[0] ?? '') || clean(name.replace(/\s+/g, '.'));
  if (base.length < USERNAME_MIN) base = `${base}member`.slice(0, USERNAME_MAX);
  base = base.slice(0, USERNAME_MAX - 4);
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!findUserByUsername(db, candidate)) return candidate;
  }
}

export function joinTeam(db: Db, clock: Clock, request: JoinRequest): Joined {
  return immediate(db, (tx) => {
    const invitation = invitationByToken(tx, clock, request.token);
    const now = clock.now();
    const { firstName, lastName } = splitName(request.name);
    const existing = findUserByEmail(tx, invitation.email);
    let person: UserRow;
    if (existing) {
      // Someone taken out of this team and invited back: their row returns with the new role and
      // password, and what they did before stays named as theirs. Any other holder of the address
      // (a sign-in made since the invitation) is not this invitation's to take over.
      const member = tx.select().from(teamMembers).where(eq(teamMembers.userId, existing.id)).get();
      if (!member || member.accountId !== invitation.accountId) throw new DomainError('CONFLICT', TEAM_MESSAGES.emailTaken);
      if (member.status === 'active') throw new DomainError('CONFLICT', TEAM_MESSAGES.alreadyMember);
      person = tx.update(users).set({ password: request.passwordHash, firstName, lastName, updatedAt: now }).where(eq(users.id, existing.id)).returning().get();
      tx.update(teamMembers)
        .set({ role: invitation.role, status: 'active', invitedBy: invitation.invitedBy, joinedAt: now, removedAt: null, removedBy: null, lastSeenAt: null })
        .where(eq(teamMembers.id, member.id))
        .run();
    } else {
      person = tx
        .insert(users)
        .values({ username: freeUsername(tx, invitation.email, request.name), email: invitation.email, password: request.passwordHash, firstName, lastName, role: 'user', createdAt: now, updatedAt: now })
        .returning()
        .get();
      // No credits or settings rows of their own: the team's are the account's (docs/product.md, Team).
      tx.insert(teamMembers).values({ accountId: invitation.accountId, userId: person.id, role: invitation.role, invitedBy: invitation.invitedBy, joinedAt: now }).run();
    }
    const ended = tx
      .update(teamInvitations)
      .set({ usedAt: now, usedBy: person.id })
      .where(and(eq(teamInvitations.id, invitation.id), isNull(teamInvitations.usedAt), isNull(teamInvitations.withdrawnAt)))
      .run();
    // Read and written under one write lock, so this cannot happen; were it to, nothing is kept.
    if (ended.changes !== 1) throw invitationGone();
    return { person, accountId: invitation.accountId };
  });
}

