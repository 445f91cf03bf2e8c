import { Hono, type Context } from 'hono';
import { settingsPatchSchema } from '../../core/settings';
import { AREAS, fieldAreaRefused, SETTINGS_FIELD_AREAS } from '../../core/permissions';
import { MAX_LOGO_BYTES } from '../../core/company-profile';
import type { AppEnv } from '../http/context';
import { ApiError, notFound } from '../http/errors';
import { currentPerson, currentUser, requireUser } from '../http/session';
import { readJson } from '../http/validate';
import { readMultipartForm, type FormSpec } from '../http/multipart';
import { checkLogoHeader, normaliseLogo, readLogo, removeLogo, unsupportedLogo, writeLogo } from '../settings/logo';
import type { Refusal } from '../http/rate-limit';
import { applySettingsPatch, getCompanyProfile, getHospitals, setLogoPath, settingsResponseFor } from '../settings/settings';
import { locateHospitals } from '../crew-day/hospitals';

/**
 * The logo form: one file `logo` of at most 2 MB and nothing else, read like the photo upload
 * (server/http/multipart.ts), which counts a declared or streamed body and refuses it past the
 * limit (app.ts leaves this route to it).
 */
const LOGO_FORM: FormSpec = {
  file: 'logo',
  maxFileBytes: MAX_LOGO_BYTES,
  text: {},
  tooLarge: () => new ApiError('PAYLOAD_TOO_LARGE', 'Logo is too large. The maximum file size is 2 MB.'),
  notMultipart: unsupportedLogo,
  missingFile: () => chooseOneLogo(),
  retry: 'Please choose the logo again.',
};
const LOGO_LIMIT_REFUSAL: Refusal = {
  message: (seconds) => {
    const minutes = Math.ceil(seconds / 60);
    return `You have uploaded several logos in a short time. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} before uploading another.`;
  },
};
const chooseOneLogo = () =>
  new ApiError('VALIDATION_ERROR', 'Choose one image file for the logo.', { details: { logo: ['Choose one image file'] } });

/**
 * Settings (docs/product.md, Accounts): the signed-in user's own AI instructions and hourly rate, the
 * company profile and logo printed on their quotes, and whether their job times count in
 * everyone's starting estimates. Nobody reads or changes another's.
 */
export const settingsRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get('/', (c) => c.json(settingsResponseFor(c.var.deps.db, currentUser(c).id)))
  .patch('/', async (c) => {
    const input = await readJson(c, settingsPatchSchema);
    // Nothing of the patch is saved when a part of it is another role's (core/permissions.ts).
    const refused = fieldAreaRefused(currentPerson(c).role, input, SETTINGS_FIELD_AREAS);
    if (refused) throw new ApiError('ROLE_FORBIDDEN', AREAS[refused].refusal);
    // The hospitals are located before anything is saved; one that cannot be is a 400 (crew-day/hospitals.ts).
    const { db, clock } = c.var.deps;
    const userId = currentUser(c).id;
    const located = input.hospitals ? { hospitals: await locateHospitals(c.var.deps, input.hospitals, getHospitals(db, userId)) } : {};
    return c.json(applySettingsPatch(db, clock, userId, input, located));
  })
  .get('/logo', async (c) => {
    const { logoPath } = getCompanyProfile(c.var.deps.db, currentUser(c).id);
    const bytes = await readLogo(c.var.deps.photos, logoPath);
    if (!bytes) throw notFound('No logo has been uploaded');
    // The URL carries a version (settings' logoUrl), so a replaced logo is a new URL.
    return c.body(new Uint8Array(bytes), 200, { 'Content-Type': 'image/png', 'Cache-Control': 'private, max-age=86400' });
  })
  .post('/logo', async (c) => {
    const userId = currentUser(c).id;
    const bytes = await readLogoUpload(c);
    // Type and shape from the header first (a pixel bomb is refused here, in microseconds), so
    // only a logo that will really be decoded spends a point of the limit or waits for a slot.
    checkLogoHeader(bytes);
    const { slots } = c.var.analysisLoad;
    if (slots.full) throw slots.busy();
    await c.var.limits.consume('logoUploadsPerAccount', String(userId), LOGO_LIMIT_REFUSAL);
    // The decode takes one of the analyses' image slots, so logos cannot crowd analyses out.
    const png = await slots.run(() => normaliseLogo(bytes), { bytes: bytes.length, signal: c.req.raw.signal });
    const { db, clock, photos, logger } = c.var.deps;
    const name = await writeLogo(photos, png);
    const previous = setLogoPath(db, clock, userId, name);
    if (previous) await removeLogo(photos, previous, logger);
    return c.json(settingsResponseFor(db, userId));
  })
  .delete('/logo', async (c) => {
    const { db, clock, photos, logger } = c.var.deps;
    const userId = currentUser(c).id;
    const previous = setLogoPath(db, clock, userId, null);
    if (previous) await removeLogo(photos, previous, logger);
    return c.json(settingsResponseFor(db, userId));
  });

/** The multipart field `logo`, exactly one non-empty file of at most 2 MB. */
async function readLogoUpload(c: Context<AppEnv>): Promise<Buffer> {
  const { file } = await readMultipartForm(c.req.raw, LOGO_FORM);
  if (!file || file.bytes.length === 0) throw chooseOneLogo();
  return file.bytes;
}
