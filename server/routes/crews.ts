import { Hono, type Context } from 'hono';
import { crewCreateSchema, crewPatchSchema } from '../../core/crews';
import { createCrew, crewCandidates, crewOfTeam, deleteCrew, listCrews, updateCrew } from '../crews/crews';
import type { AppEnv } from '../http/context';
import { currentActor, currentUser, requireUser } from '../http/session';
import { readJson } from '../http/validate';

/**
 * Crews and kit (docs/product.md, Schedule). Who may call each route is core/permissions.ts (the
 * schedule area: the owner and the office). A crew id is digits; another team's crew, or a
 * deleted one, is a 404 before the body is read, so a stranger learns nothing from a 400.
 */
const ID = '{[0-9]+}';

const actorOf = currentActor;
const idOf = (c: Context<AppEnv>) => Number(c.req.param('id'));

export const crewRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get('/', (c) => c.json({ crews: listCrews(c.var.deps.db, currentUser(c).id), people: crewCandidates(c.var.deps.db, currentUser(c).id) }))

  .post('/', async (c) => {
    const input = await readJson(c, crewCreateSchema);
    const { db, clock } = c.var.deps;
    return c.json({ crew: createCrew(db, clock, actorOf(c), input) }, 201);
  })

  .patch(`/:id${ID}`, async (c) => {
    const { db, clock } = c.var.deps;
    // Another team's crew is a 404 whatever the body; the change itself checks again, in its transaction.
    crewOfTeam(db, currentUser(c).id, idOf(c));
    const patch = await readJson(c, crewPatchSchema);
    return c.json({ crew: updateCrew(db, clock, actorOf(c), idOf(c), patch) });
  })

  .delete(`/:id${ID}`, (c) => {
    const { db, clock } = c.var.deps;
    deleteCrew(db, clock, actorOf(c), idOf(c));
    return c.body(null, 204);
  });
