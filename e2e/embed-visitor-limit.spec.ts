import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator } from '@playwright/test';
import { OPERATOR_WORDS, VISITOR_LIMIT_KEPT, VISITOR_LIMIT_OVER } from '../core/embed';
import { ownerCopiesSnippet } from './embed-owner';
import { expect, test } from './fixtures';
import { shownText } from './visitor-text';
import { freePort, startAppServer, type AppServer } from './rig/app-server';
import { repoRoot } from './rig/dashboard-build';
import { e2eEnv } from './rig/env';
import { startHostSite, type HostSite } from './rig/host-site';

/*
 * Honest limits: a homeowner on the owner's site who has used up their
 * estimates from one address reads that it is their limit and how long to wait, counted down,
 * with no Try Again that would only fail; once the wait is over, Try Again brings back the
 * photo and answers they gave. The server's real 429 and Retry-After, read across origins; the
 * page's clock is moved on instead of waiting the hour.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const CONTEXT = 'redbud, 6 inch trunk, 15 ft tall, open lawn';

let host: HostSite;
let app: AppServer;
let logDir: string;

test.beforeAll(async () => {
  host = await startHostSite();
  logDir = await mkdtemp(join(tmpdir(), 'treeanalyzer-e2e-limit-'));
  // A second app on the same data whose visitors get one estimate an hour from an address.
  app = await startAppServer({
    repoRoot,
    dataDir: e2eEnv('dataDir'),
    smtpPort: await freePort(),
    logFile: join(logDir, 'server.log'),
    env: { EMBED_ANALYSES_PER_ADDRESS: '1' },
  });
});
test.afterAll(async () => {
  await app?.stop();
  await host?.close();
  await rm(logDir, { recursive: true, force: true });
});

async function photoAndAnswers(element: Locator) {
  await element.locator('input[type="file"]').setInputFiles(PHOTO);
  await element.getByLabel('Anything else we should know?').fill(CONTEXT);
  await element.getByRole('group', { name: 'Grind out the stump too?' }).getByText('Yes', { exact: true }).click();
}

test("a visitor's own limit says the wait, offers no retry until it is over, and keeps the photo and answers", async ({ page, context, browser }) => {
  const owner = await ownerCopiesSnippet(page, context, host, 'Copy Script Tag');
  const snippet = owner.snippet.replaceAll(e2eEnv('baseURL'), app.baseURL);
  const url = host.setPage('/limit.html', 'Oakfield Garden Services', snippet);
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(url);
  const element = visitor.locator('tree-estimator');
  // The estimator loads once it is near the viewport (widget/loader.ts), below the host's text.
  await element.scrollIntoViewIfNeeded();
  await expect(element.getByRole('heading', { name: 'Get a guide price for your tree' })).toBeVisible();

  // The hour's one estimate.
  await photoAndAnswers(element);
  await element.getByRole('button', { name: 'Get my price' }).click();
  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
  await element.getByRole('button', { name: 'Add another tree' }).click();

  // The next is the visitor's own limit: the wait, not "busy", and no Try Again yet. The page's
  // clock is faked from here, so the hour can be moved on.
  await visitor.clock.install();
  await photoAndAnswers(element);
  await element.getByRole('button', { name: 'Get my price' }).click();
  await expect(element.getByRole('heading', { name: 'You have made several estimates; please try again in 60 minutes' })).toBeVisible();
  await expect(element.getByText(VISITOR_LIMIT_KEPT)).toBeVisible();
  await expect(element.getByText(/busy/)).toHaveCount(0);
  await expect(element.getByRole('button', { name: 'Try Again' })).toHaveCount(0);
  expect(await shownText(element)).not.toMatch(OPERATOR_WORDS);
  await visitor.screenshot({ path: test.info().outputPath('visitor-limit-waiting.png'), fullPage: true });

  // Counted down: the last minute is "1 minute".
  await visitor.clock.fastForward('59:00');
  await expect(element.getByRole('heading', { name: 'You have made several estimates; please try again in 1 minute' })).toBeVisible();
  await expect(element.getByRole('button', { name: 'Try Again' })).toHaveCount(0);

  // Over: Try Again, back to the photo and the answers as they were.
  await visitor.clock.fastForward('01:00');
  await expect(element.getByRole('heading', { name: VISITOR_LIMIT_OVER })).toBeVisible();
  await visitor.screenshot({ path: test.info().outputPath('visitor-limit-over.png'), fullPage: true });
  await element.getByRole('button', { name: 'Try Again' }).click();
  await expect(element.getByRole('button', { name: 'Remove redbud-small-tree.jpg' })).toBeVisible();
  await expect(element.getByLabel('Anything else we should know?')).toHaveValue(CONTEXT);
  await expect(element.getByRole('group', { name: 'Grind out the stump too?' }).getByRole('radio', { name: 'Yes', exact: true })).toBeChecked();
  await expect(element.getByRole('button', { name: 'Get my price' })).toBeEnabled();
  await visitor.context().close();
});
