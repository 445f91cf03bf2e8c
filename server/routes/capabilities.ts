import { readsPhotos } from '../analysis/types';
import { Hono } from 'hono';
import type { Capabilities } from '../../core/tree-details';
import type { AppEnv } from '../http/context';

/**
 * GET /api/capabilities (public, no session): whether a vision model reads the photo, so the
 * sign-in panel, home page, How It Works and the results say honestly where an estimate comes
 * from. The provider is chosen once at start, so the answer only changes with a restart.
 */
export const capabilityRoutes = new Hono<AppEnv>();

capabilityRoutes.get('/', (c) => {
  const body: Capabilities = { visionModel: readsPhotos(c.var.deps.vision) };
  return c.json(body, 200, { 'Cache-Control': 'no-cache' });
});
