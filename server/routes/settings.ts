import { Hono } from 'hono';
import { settingsSchema } from '../../core/analysis';
import { parsePence } from '../../core/money';
import type { AppEnv } from '../http/context';
import { ApiError } from '../http/errors';
import { currentUser, requireUser } from '../http/session';
import { readJson } from '../http/validate';
import { getSettings, saveSettings, toSettingsResponse } from '../settings/settings';

/** AI Settings (SPEC 2 and 7): the signed-in user's own instructions and hourly rate. */
export const settingsRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get('/', (c) => c.json(toSettingsResponse(getSettings(c.var.deps.db, currentUser(c).id))))
  .patch('/', async (c) => {
    const input = await readJson(c, settingsSchema);
    const hourlyRatePence = parsePence(input.hourlyRate);
    // decimal(10,2): at most 99,999,999.99.
    if (hourlyRatePence === undefined || hourlyRatePence > 9_999_999_999) {
      throw new ApiError('VALIDATION_ERROR', 'Hourly rate must be a number of pounds, 0 or more', {
        details: { hourlyRate: ['Hourly rate must be a number of pounds, 0 or more'] },
      });
    }
    const saved = saveSettings(c.var.deps.db, c.var.deps.clock, currentUser(c).id, {
      aiInstructions: input.aiInstructions.trim(),
      hourlyRatePence,
    });
    return c.json(toSettingsResponse(saved));
  });
