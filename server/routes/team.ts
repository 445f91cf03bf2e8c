import { Hono, type Context } from 'hono';
import { DomainError } from '../../core/errors';
import { TEAM_MESSAGES } from '../../core/team';
import { changeRoleSchema, inviteSchema, joinSchema, transferOwnerSchema } from '../../core/team-requests';
import { hashPassword, verifyPassword } from '../accounts/passwords';
import { toPublicUser } from '../accounts/users';
import type { AppEnv } from '../http/context';
import { ApiError } from '../http/errors';
import { clientNetwork } from '../http/rate-limit';
import { currentActor, currentPerson, requireUser, signIn } from '../http/session';
import { readJson } from '../http/validate';
import { invitationLogo, invite, previewInvitation, resend, withdraw } from '../team/invitations';
import { joinTeam } from '../team/joining';
import { changeRole, memberOfTeam, removeMember, teamView } from '../team/members';
import { personOf, recordSignIn, signedInMember } from '../team/membership';
import { handOwnership } from '../team/ownership';

/**
 * The team (docs/product.md, Team). Who may call each route is core/permissions.ts (the team area
 * is the owner's; the invitation link and joining are public, the token being the key). Ids are
 * digits; a token is base64url, so `/invitations/123` and `/invitations/<token>` never meet (and
 * no GET takes an id). A token of any length up to the schema's bound opens the same 410 as an
 * unknown one: a link cut short in a mail client says it can no longer be used, not "no route".
 */
const ID = '{[0-9]+}';
const TOKEN = '{[A-Za-z0-9_-]{1,128}}';

const actorOf = currentActor;
const idOf = (c: Context<AppEnv>) => Number(c.req.param('id'));

const TOO_MANY_LINKS = 'Too many invitation links that open nothing from this connection. Please wait a few minutes and try again.';

/**
 * Runs `open` for an invitation link, limited per network: a link that opens nothing (410) spends
 * one of the network's misses, and once they are spent every link answers 429 until the window
 * ends, so tokens cannot be tried at speed (256 random bits could not be guessed anyway).
 */
async function throughLink<T>(c: Context<AppEnv>, open: () => Promise<T> | T): Promise<T> {
  const network = clientNetwork(c);
  await c.var.limits.check('invitationLinkMissesPerAddress', network, TOO_MANY_LINKS);
  try {
    return await open();
  } catch (err) {
    if (err instanceof DomainError && err.code === 'INVITATION_GONE') await c.var.limits.spend('invitationLinkMissesPerAddress', network);
    throw err;
  }
}

/** Never kept by a shared cache or shown to a search engine: the link is a key. */
const keepPrivate = (c: Context<AppEnv>) => {
  c.header('Cache-Control', 'private, no-store');
  c.header('X-Robots-Tag', 'noindex');
};

export const teamRoutes = new Hono<AppEnv>()
  .get('/', requireUser, (c) => c.json(teamView(c.var.deps.db, actorOf(c))))

  .post('/invitations', requireUser, async (c) => {
    const input = await readJson(c, inviteSchema);
    const actor = actorOf(c);
    await c.var.limits.consume('teamInvitationsPerAccount', String(actor.accountId));
    return c.json({ invitation: invite(c.var.deps, actor, input) }, 201);
  })

  .delete(`/invitations/:id${ID}`, requireUser, (c) => {
    const { db, clock } = c.var.deps;
    withdraw(db, clock, actorOf(c), idOf(c));
    return c.body(null, 204);
  })

  .post(`/invitations/:id${ID}/resend`, requireUser, async (c) => {
    const actor = actorOf(c);
    await c.var.limits.consume('teamInvitationsPerAccount', String(actor.accountId));
    return c.json({ invitation: resend(c.var.deps, actor, idOf(c)) });
  })

  .get(`/invitations/:token${TOKEN}`, async (c) => {
    const { db, clock } = c.var.deps;
    const token = c.req.param('token');
    const preview = await throughLink(c, () => previewInvitation(db, clock, token, `/api/team/invitations/${token}/logo`));
    keepPrivate(c);
    return c.json(preview);
  })

  .get(`/invitations/:token${TOKEN}/logo`, async (c) => {
    const bytes = await throughLink(c, () => invitationLogo(c.var.deps, c.req.param('token')));
    keepPrivate(c);
    return c.body(new Uint8Array(bytes), 200, { 'Content-Type': 'image/png' });
  })

  .post('/join', async (c) => {
    const input = await readJson(c, joinSchema);
    const { db, clock } = c.var.deps;
    const { person: user, accountId } = await throughLink(c, async () => {
      // Hashed before the transaction, which must not wait on the hash with the write lock held.
      const passwordHash = await hashPassword(input.password);
      return joinTeam(db, clock, { token: input.token, name: input.name, passwordHash });
    });
    await signIn(c, user.id);
    const { person } = personOf(db, user);
    recordSignIn(db, clock.now(), { userId: user.id, accountId, address: clientNetwork(c), userAgent: c.req.header('user-agent') ?? null });
    return c.json({ user: toPublicUser(user), member: signedInMember(db, person, accountId) }, 201);
  })

  .patch(`/members/:id${ID}`, requireUser, async (c) => {
    // Someone outside the team is a 404 whatever the body; the change itself checks again, in its transaction.
    memberOfTeam(c.var.deps.db, actorOf(c), idOf(c));
    const { role } = await readJson(c, changeRoleSchema);
    return c.json({ member: changeRole(c.var.deps.db, actorOf(c), idOf(c), role) });
  })

  .delete(`/members/:id${ID}`, requireUser, (c) => {
    const { db, clock } = c.var.deps;
    removeMember(db, clock, actorOf(c), idOf(c));
    return c.body(null, 204);
  })

  // The owner's own password (not the account's founder's, after an earlier hand-over), with
  // wrong ones counted as account deletion counts them (routes/account.ts).
  .post('/owner', requireUser, async (c) => {
    const { memberId, password } = await readJson(c, transferOwnerSchema);
    const person = currentPerson(c);
    const key = String(person.user.id);
    await c.var.limits.check('passwordConfirmFailuresPerUser', key);
    if (!(await verifyPassword(person.user.password, password))) {
      await c.var.limits.consume('passwordConfirmFailuresPerUser', key);
      throw new ApiError('VALIDATION_ERROR', TEAM_MESSAGES.passwordWrong, { details: { password: [TEAM_MESSAGES.passwordWrong] } });
    }
    const { db, clock } = c.var.deps;
    const actor = actorOf(c);
    handOwnership(db, clock, actor, memberId);
    // Who the person is now (office), for the header; the team's list is the new owner's to read.
    const now = personOf(db, person.user);
    return c.json({ member: signedInMember(db, now.person, actor.accountId) });
  });
