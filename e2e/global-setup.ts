import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAKE_PLACES, startFakePlanning } from '../testing/fake-planning';
import { startFakeWeather } from '../testing/fake-weather';
import { locationKey } from '../server/weather/locationforecast';
import { startAppServer } from './rig/app-server';
import { dashboardBuildId, repoRoot } from './rig/dashboard-build';
import { startMailCatcher } from './rig/mail-catcher';
import { E2E_ENV, E2E_WEATHER } from './rig/env';

/**
 * Starts the outside world the browser tests need: a mail catcher (real SMTP on
 * loopback), a fake of postcodes.io and planning.data.gov.uk for the protected-trees lookups
 * (testing/fake-planning.ts: BS8 4AA is in a conservation area, LS6 2AB finds nothing, others
 * are unknown), a fake of MET Norway's Locationforecast for the schedule's weather
 * (testing/fake-weather.ts; windy at one site, rig/env.ts E2E_WEATHER; nothing but the Schedule
 * page shows the weather), and the real app on a temp DATA_DIR. The returned function is
 * Playwright's global teardown. What the tests need to know goes into process.env, which the
 * worker processes (started after this) inherit.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const buildId = dashboardBuildId();

  const root = await mkdtemp(join(tmpdir(), 'treeanalyzer-e2e-'));
  const dataDir = join(root, 'data');
  const mailDir = join(root, 'mail');
  await Promise.all([mkdir(dataDir), mkdir(mailDir)]);

  const mail = await startMailCatcher(mailDir);
  const planning = await startFakePlanning();
  const weather = await startFakeWeather();
  const windy = FAKE_PLACES[E2E_WEATHER.windyPostcode]!;
  weather.setPlace(locationKey(windy.latitude, windy.longitude).key, { gustMs: E2E_WEATHER.gustMs });
  const app = await startAppServer({
    repoRoot,
    dataDir,
    smtpPort: mail.port,
    env: { POSTCODE_LOOKUP_URL: planning.url, PLANNING_DATA_URL: planning.url, WEATHER_URL: weather.url },
    // Outside the per-run folder so it survives teardown for a look after a failure.
    logFile: join(tmpdir(), 'treeanalyzer-e2e-server.log'),
  }).catch(async (err: unknown) => {
    await Promise.all([mail.close(), planning.close(), weather.close()]);
    await rm(root, { recursive: true, force: true });
    throw err;
  });

  process.env[E2E_ENV.baseURL] = app.baseURL;
  process.env[E2E_ENV.mailDir] = mailDir;
  process.env[E2E_ENV.dataDir] = dataDir;
  process.env[E2E_ENV.dashboardBuild] = buildId;
  process.env[E2E_ENV.smtpPort] = String(mail.port);

  return async () => {
    await app.stop();
    await Promise.all([mail.close(), planning.close(), weather.close()]);
    await rm(root, { recursive: true, force: true });
  };
}
