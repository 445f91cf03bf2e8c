import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnServer } from '../build/server-process';
import { decodeQuotedPrintable } from '../testing/mail';
import { CLI_NODE_ARGS, SERVER_NODE_ARGS } from '../testing/processes';
import { expect, newAccount, test } from './fixtures';
import { keepScreenshot } from './keep-screenshot';

/*
 * A production install without Stripe keys (docs/product.md, Credits and payments): nothing
 * sells credits, so the estimator's page says exactly what the operator runs, with the account's
 * username filled in; the command, run as shown, gives the credits and the uploader comes back.
 * Its own server, started as an operator starts it (NODE_ENV=production, no STRIPE_* keys), since
 * the suite's shared server runs the demo provider. The Invoices search names the account's prefix.
 */
const ROOT = new URL('../', import.meta.url).pathname;
const PHONE = { width: 390, height: 844 };

test('in production without Stripe keys, the estimator says what to run for credits, and that command works', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-no-stripe-'));
  const port = await freePort();
  const server = await spawnServer({
    nodeArgs: SERVER_NODE_ARGS,
    cwd: ROOT,
    port,
    env: { NODE_ENV: 'production', PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir },
    timeoutMs: 120_000,
  });
  try {
    const account = newAccount();
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/register`);
    await page.getByLabel('Username', { exact: true }).fill(account.username);
    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm Password').fill(account.password);
    await page.getByRole('button', { name: 'Create Account' }).click();

    const card = page.getByRole('region', { name: 'Credits Are Needed to Start Analyzing' });
    await expect(card).toBeVisible();
    await expect(card).toContainText('This install does not sell credits by card: it has no Stripe keys set up.');
    const command = `npm run cli -- grant-credits ${account.username} 100`;
    await expect(card.getByText(command, { exact: true })).toBeVisible();
    await expect(card).toContainText('That adds 100 credits, enough for 10 analyses.');
    await expect(card.getByRole('link', { name: 'Choose a Plan' })).toHaveCount(0);
    await card.scrollIntoViewIfNeeded();
    await keepScreenshot(page, 'no-stripe-1-estimator-390');

    // The command as shown, run against the install's DATA_DIR, gives the credits.
    const run = spawnSync(process.execPath, [...CLI_NODE_ARGS, ...command.split(' -- ')[1]!.split(' ')], { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8', timeout: 120_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Granted 100 credits to ${account.username}; balance is now 100.`);
    await page.reload();
    await expect(page.getByTestId('credits-badge')).toContainText('100 credits');
    await expect(page.getByRole('region', { name: 'Credits Are Needed to Start Analyzing' })).toHaveCount(0);
    await expect(page.getByLabel('Tree photo', { exact: true })).toBeAttached();

    // The Invoices search gives its example in the account's own numbering: an invoice issued
    // (over the API, as the owner and the customer would) under the prefix OAK-.
    const api = async (method: string, path: string, data: unknown = {}) => {
      const res = await page.request.fetch(`${server.url}${path}`, { method, data, headers: { origin: server.url } });
      expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
      return (await res.json()) as Record<string, { id: number }>;
    };
    await api('PATCH', '/api/system-settings', { invoicePrefix: 'OAK-' });
    const { job } = await api('POST', '/api/jobs', { customer: { name: 'Jo Rowan', email: 'jo.rowan@example.test' } });
    await api('POST', `/api/jobs/${job!.id}/lines`, { description: 'Fell the leaning ash', price: '300' });
    await api('POST', `/api/jobs/${job!.id}/send`);
    const outbox = join(dataDir, 'outbox');
    const tokenInOutbox = () => {
      for (const file of existsSync(outbox) ? readdirSync(outbox) : []) {
        const found = /\/quote\/([A-Za-z0-9_-]{43})/.exec(decodeQuotedPrintable(readFileSync(join(outbox, file), 'utf8')))?.[1];
        if (found) return found;
      }
      return null;
    };
    await expect.poll(tokenInOutbox).not.toBeNull();
    await api('POST', `/api/quotes/${tokenInOutbox()}/accept`, { name: 'Jo Rowan', acceptTerms: true });
    const { invoice } = await api('POST', `/api/jobs/${job!.id}/invoices`, { kind: 'final' });
    await api('POST', `/api/invoices/${invoice!.id}/issue`);
    await page.goto(`${server.url}/invoices`);
    await expect(page.getByRole('list', { name: 'Invoices' })).toContainText('OAK-0001');
    await expect(page.getByLabel('Search by customer or number')).toHaveAttribute('placeholder', 'Name, e-mail or OAK-0001');
    await keepScreenshot(page, 'no-stripe-2-invoices-390');
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
