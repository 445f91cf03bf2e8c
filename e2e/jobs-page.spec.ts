import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { jobResponseSchema, type Job } from '../core/jobs';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { waitForMail } from './mailbox';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';
import { keepScreenshot } from './keep-screenshot';

/*
 * The Jobs page's figures and search, and a lead's quote in Business Admin, on a 390 px phone
 * (docs/product.md, The Jobs pages): three jobs, two sent and one accepted with its option; the
 * month's quoted and accepted values; the status chips with their counts; the server's search
 * by customer; the header marking Jobs on a job's page; a website lead's job sent and accepted,
 * seen as "Open job" on the lead and as quotes sent, accepted and their value in its funnel.
 */
const PHONE = { width: 390, height: 844 };
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const origin = () => ({ Origin: e2eEnv('baseURL') });

async function jobOf(res: Awaited<ReturnType<APIRequestContext['post']>>): Promise<Job> {
  expect(res.status(), await res.text()).toBeLessThan(300);
  return jobResponseSchema.parse(await res.json()).job;
}

/** A job of typed lines through the API: [description, price, optional?]. */
async function jobWith(page: Page, name: string, email: string, lines: [string, string, boolean?][]): Promise<Job> {
  let job = await jobOf(await page.request.post('/api/jobs', { data: { customer: { name, email } }, headers: origin() }));
  for (const [description, price, optional = false] of lines) {
    job = await jobOf(await page.request.post(`/api/jobs/${job.id}/lines`, { data: { description, price, optional }, headers: origin() }));
  }
  return job;
}

/** Sends the job's quote and returns the link's token from the customer's e-mail. */
async function send(page: Page, job: Job): Promise<string> {
  const since = Date.now() - 1000;
  await jobOf(await page.request.post(`/api/jobs/${job.id}/send`, { data: {}, headers: origin() }));
  const { mail } = await waitForMail(job.customer.email!, { since, subject: /^Your quote from/ });
  const token = /\/quote\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
  expect(token, mail.text).toBeTruthy();
  return token!;
}

async function accept(page: Page, token: string, optionalItemIds: number[]) {
  const res = await page.request.post(`/api/quotes/${token}/accept`, {
    data: { name: 'A Customer', acceptTerms: true, optionalItemIds, startWithinCancellationPeriod: false },
    headers: origin(),
  });
  expect(res.status(), await res.text()).toBe(200);
}

test("the Jobs page: this month's values, status counts, the server's search, and a lead's quote in Business Admin", async ({ page, playwright }) => {
  await page.setViewportSize(PHONE);
  const owner = await signedInAccount(page);
  grantCredits(owner.username, 30);
  const settings = await page.request.patch('/api/system-settings', {
    data: { companyProfile: { tradingName: 'Birch Brothers', phone: '01632 960000', email: 'office@birch.example', address: '1 Yard Lane\nLeeds', vatNumber: '', quoteValidityDays: 30 } },
    headers: origin(),
  });
  expect(settings.status(), await settings.text()).toBe(200);
  const mail = (who: string) => `${who}-${owner.username}@example.test`;

  // Three jobs: one accepted with its optional hedge (£600 + £175), one sent (£250), one a draft.
  const wojcik = await jobWith(page, 'Łukasz Wójcik', mail('lukasz'), [
    ['Fell the leylandii and grind the stump', '600'],
    ['Reduce the beech hedge by 1 m', '175', true],
  ]);
  await accept(page, await send(page, wojcik), [wojcik.items[1]!.id]);
  const ash = await jobWith(page, 'Zoë Ash', mail('zoe'), [['Crown lift the sycamore', '250']]);
  await send(page, ash);
  await jobWith(page, 'Sam Birch', mail('sam'), [['Survey', '90']]);

  await page.goto('/jobs');
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  const month = page.getByRole('region', { name: /^This month: / });
  await expect(month).toBeVisible();
  const figure = (label: string) => month.getByRole('term').filter({ hasText: label }).locator('xpath=..');
  await expect(figure('Quoted')).toContainText('£850.00');
  await expect(figure('Quoted')).toContainText('2 quotes sent');
  await expect(figure('Accepted')).toContainText('£775.00');
  await expect(figure('Accepted')).toContainText('1 acceptance');
  await expect(figure('Done')).toContainText('£0.00');

  const rows = page.getByRole('list', { name: 'Jobs' }).getByRole('listitem');
  await expect(rows).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'All 3' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Accepted 1' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Draft 1' })).toBeVisible();
  // What the list is worth counts the quotes still open and those won, not the draft (£90).
  await expect(page.getByRole('status').filter({ hasText: '3 jobs listed: £250.00 still open, £775.00 won. Not counted: 1 draft.' })).toBeVisible();
  await page.getByRole('button', { name: 'Sent 1' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Zoë Ash');
  await expect(page.getByRole('status').filter({ hasText: '1 job listed: £250.00 still open, £0.00 won.' })).toBeVisible();
  await page.getByRole('button', { name: 'All 3' }).click();
  await expect(rows).toHaveCount(3);

  // The search is the server's: accents and case aside, "%" literal.
  const search = page.getByLabel('Search by customer');
  await search.fill('LUKASZ');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Łukasz Wójcik');
  await expect(page.getByRole('status').filter({ hasText: '1 job listed: £0.00 still open, £775.00 won.' })).toBeVisible();
  await search.fill('%');
  await expect(page.getByText('No jobs match.')).toBeVisible();
  await search.fill('');
  await expect(rows).toHaveCount(3);
  await expectNoSeriousAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await keepScreenshot(page, 'jobs-page-390');

  // On a job's page the header's Jobs is still the current section.
  await rows.first().getByRole('link').click();
  await expect(page).toHaveURL(/\/jobs\/\d+$/);
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Jobs' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'History' })).not.toHaveAttribute('aria-current', 'page');

  // A website lead: its job sent and accepted shows on the lead and in the business's funnel.
  const slug = `jobs-page-${Date.now().toString(36)}`;
  const created = await page.request.post('/api/businesses', {
    data: { name: `Jobs Page ${slug}`, slug, hourlyRate: '40.00', aiInstructions: null, allowedOrigins: [], dailyCap: 50, accentColor: null },
    headers: origin(),
  });
  expect(created.status(), await created.text()).toBe(201);
  const businessId = ((await created.json()) as { business: { id: number } }).business.id;
  const visitor = await playwright.request.newContext({ baseURL: e2eEnv('baseURL') });
  const analysed = await visitor.post(`/api/analyze-tree?businessSlug=${slug}`, {
    multipart: { image: { name: 'tree.jpg', mimeType: 'image/jpeg', buffer: await readFile(PHOTO) }, description: 'redbud, 6 inch trunk, 15 ft' },
    timeout: 30_000,
  });
  expect(analysed.status(), await analysed.text()).toBe(201);
  const { analysis, leadToken } = (await analysed.json()) as { analysis: { id: number }; leadToken: string };
  const sent = await visitor.post(`/api/businesses/${slug}/leads`, { data: { analysisId: analysis.id, leadToken, name: 'Rowan Visitor', email: mail('rowan'), postcode: 'LS6 2AB' } });
  expect(sent.status(), await sent.text()).toBe(201);
  await visitor.dispose();
  const leads = (await (await page.request.get(`/api/businesses/${businessId}/leads`)).json()) as { leads: { id: number }[] };
  const fromLead = await jobOf(await page.request.post('/api/jobs', { data: { leadId: leads.leads[0]!.id }, headers: origin() }));
  await jobOf(await page.request.patch(`/api/jobs/${fromLead.id}`, { data: { items: [{ id: fromLead.items[0]!.id, price: '320' }] }, headers: origin() }));
  await accept(page, await send(page, fromLead), []);

  await page.goto('/admin/businesses');
  const lead = page.getByRole('listitem').filter({ hasText: 'Rowan Visitor' });
  await expect(lead.getByRole('link', { name: `Open job ${fromLead.reference} for Rowan Visitor` })).toHaveAttribute('href', `/jobs/${fromLead.id}`);
  const funnel = page.getByRole('region', { name: 'Last 30 days' });
  await expect(funnel.getByRole('term').filter({ hasText: 'Quotes sent' }).locator('xpath=..')).toContainText('1');
  await expect(funnel.getByRole('term').filter({ hasText: 'Quotes accepted' }).locator('xpath=..')).toContainText('1');
  await expect(funnel.getByRole('term').filter({ hasText: 'Accepted value' }).locator('xpath=..')).toContainText('£320.00');
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'jobs-page-business-admin-390');
});
