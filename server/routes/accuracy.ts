import { Hono } from 'hono';
import type { Accuracy } from '../../core/accuracy';
import { loadAccuracy } from '../analysis/accuracy';
import type { AppEnv } from '../http/context';
import { currentUser, requireUser } from '../http/session';

/**
 * GET /api/accuracy (docs/analysis.md, Accuracy): how close the signed-in account's estimates have been
 * to the actual times it reported, before and after calibration (analysis/accuracy.ts). Only
 * the account's own analyses count; signed out it is a 401 like every signed-in read.
 */
export const accuracyRoutes = new Hono<AppEnv>();

accuracyRoutes.get('/', requireUser, (c) => c.json(loadAccuracy(c.var.deps.db, currentUser(c).id) satisfies Accuracy));
