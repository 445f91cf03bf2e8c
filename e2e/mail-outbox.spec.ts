import { jobResponseSchema } from '../core/jobs';
import { ok } from './api-answer';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { keepScreenshot } from './keep-screenshot';
import { signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * E-mail that cannot be lost, as the surgeon sees it on a 390 px phone (docs/product.md): a quote
 * sent to a customer whose mail server refuses it for now (the test's mail server answers 451 to
 * any address at refused.test) waits in Settings under "E-mail not yet delivered", with why and
 * when it is tried next; "Send again" tries it at once, and the page says it was tried again.
 */
const PHONE = { width: 390, height: 844 };
const origin = () => ({ Origin: e2eEnv('baseURL') });

test('a refused quote e-mail waits in Settings with why, and Send again tries it at once', async ({ page }) => {
  await page.setViewportSize(PHONE);
  const owner = await signedInAccount(page);
  const email = `jo-${owner.username}@refused.test`;
  await ok(
    page.request.patch('/api/system-settings', {
      data: { companyProfile: { tradingName: 'Rowan Tree Care', phone: '01632 960555', email: 'office@rowan.example', address: '2 Mill Lane, Ludlow', vatNumber: '', quoteValidityDays: 30 } },
      headers: origin(),
    }),
  );
  const { job } = jobResponseSchema.parse(await ok(page.request.post('/api/jobs', { data: { customer: { name: 'Jo Ash', email, siteAddress: '3 Elm Road, Ludlow' } }, headers: origin() }), 201));
  await ok(page.request.post(`/api/jobs/${job.id}/lines`, { data: { description: 'Crown lift the oak', price: '450' }, headers: origin() }), 201);
  const sent = jobResponseSchema.parse(await ok(page.request.post(`/api/jobs/${job.id}/send`, { data: {}, headers: origin() }))).job;

  const section = page.getByRole('region', { name: 'E-mail not yet delivered' });
  const row = section.getByRole('listitem').filter({ hasText: email });
  // The first try happens just after the send's answer: the page is reloaded until it shows.
  await expect(async () => {
    await page.goto('/settings');
    await expect(row).toContainText('The mail server asked to try later: 451', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(row).toContainText(sent.reference);
  await expect(row).toContainText(/Tried \d+ times?; next try /);
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'mail-outbox-waiting');

  const tries = Number(/Tried (\d+) time/.exec((await row.textContent()) ?? '')?.[1]);
  await row.getByRole('button', { name: new RegExp(`^Send again\\s*: .*${sent.reference}.* to ${email.replace(/[.]/g, '\\.')}$`) }).click();
  await expect(page.getByText('is being sent now.')).toBeVisible();
  // Tried again at once (and refused again): the count goes up.
  await expect(async () => {
    await section.getByRole('button', { name: 'Check again' }).click();
    const now = Number(/Tried (\d+) time/.exec((await row.textContent()) ?? '')?.[1]);
    expect(now).toBeGreaterThan(tries);
  }).toPass({ timeout: 30_000 });
});
