import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { AREAS } from '../core/permissions';
import { INVITATION_GONE_MESSAGE, type InvitableRole } from '../core/team';
import { testLogoPng } from '../testing/logo';
import { ok } from './api-answer';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, newAccount, test } from './fixtures';
import { waitForMail } from './mailbox';
import { grantCredits } from './operator';
import { e2eEnv } from './rig/env';

/*
 * A team in a real Chromium (docs/product.md, Team): the owner invites an office member
 * and a crew member from Settings → Team; each joins from their e-mail's link in a browser of
 * their own; the crew member lands on My days and is refused the Invoices page and an invoice's
 * API with the sentence naming who can; the owner removes the crew member, whose open page then
 * says they have been signed out. Screenshots of Settings → Team, the join page and My days at
 * 1280 and 390 px are kept in this test's output folder.
 *
 * The office member then makes a job from a website lead, sends the quote and records the
 * customer's payment; the owner's job page names them for both.
 *
 * Written as steps on named people (`owner`, `office`, `crew`), so later walks add steps here.
 */

const TEAM_NAME = 'Oak & Ash Tree Surgery';
const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const origin = () => ({ Origin: e2eEnv('baseURL') });
const VISITOR_PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const CUSTOMER = 'Jo Rowan';

interface Person {
  context: BrowserContext;
  page: Page;
  name: string;
  email: string;
  password: string;
}

async function personIn(browser: Browser, name: string, email: string, password: string): Promise<Person> {
  const context = await browser.newContext({ baseURL: e2eEnv('baseURL'), viewport: WIDE });
  return { context, page: await context.newPage(), name, email, password };
}

/** The owner registers (the team of one every account starts as), names the business and gives it a logo. */
async function ownerWithBusiness(browser: Browser): Promise<Person> {
  const account = newAccount();
  const owner = await personIn(browser, `${account.firstName} ${account.lastName}`, account.email, account.password);
  const { request } = owner.page;
  await ok(request.post('/api/auth/register', { data: { ...account, confirmPassword: account.password }, headers: origin() }), 201);
  await ok(
    request.patch('/api/system-settings', {
      data: { companyProfile: { tradingName: TEAM_NAME, phone: '01632 960111', email: 'office@oak-ash.example', address: '3 Sawmill Yard, Hereford', vatNumber: '', quoteValidityDays: 30 } },
      headers: origin(),
    }),
  );
  await ok(request.post('/api/system-settings/logo', { multipart: { logo: { name: 'logo.png', mimeType: 'image/png', buffer: await testLogoPng() } }, headers: origin() }));
  // The team's credits, which a visitor's estimate on the business's site spends.
  grantCredits(account.username, 20);
  return owner;
}

/** A visitor's estimate and quote request on the business's website estimator (made by the office member). */
async function websiteLead(office: Person, visitor: APIRequestContext, customerEmail: string): Promise<void> {
  const slug = `team-${Date.now().toString(36)}`;
  await ok(
    office.page.request.post('/api/businesses', {
      data: { name: TEAM_NAME, slug, hourlyRate: '80.00', aiInstructions: null, allowedOrigins: [], dailyCap: 50, accentColor: null },
      headers: origin(),
    }),
    201,
  );
  const analysed = await visitor.post(`/api/analyze-tree?businessSlug=${slug}`, {
    multipart: { image: { name: 'tree.jpg', mimeType: 'image/jpeg', buffer: await readFile(VISITOR_PHOTO) }, description: 'redbud, 6 inch trunk, 15 ft' },
    timeout: 30_000,
  });
  expect(analysed.status(), await analysed.text()).toBe(201);
  const { analysis, leadToken } = (await analysed.json()) as { analysis: { id: number }; leadToken: string };
  await ok(visitor.post(`/api/businesses/${slug}/leads`, { data: { analysisId: analysis.id, leadToken, name: CUSTOMER, email: customerEmail, phone: '01632 960 123', postcode: 'HR1 2AB' } }), 201);
}

function invoiceCard(panel: Locator, page: Page, name: string): Locator {
  return panel.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: new RegExp(`^${name} ·`) }) });
}

/** Settings → Team: the owner invites someone by name, e-mail and role. */
async function invite(owner: Person, name: string, email: string, role: InvitableRole): Promise<void> {
  const team = owner.page.getByRole('region', { name: 'Team' });
  await team.getByLabel('Name', { exact: true }).fill(name);
  await team.getByLabel('E-mail', { exact: true }).fill(email);
  await team.getByRole('radio', { name: role === 'office' ? /^Office/ : /^Crew/ }).check();
  await team.getByRole('button', { name: 'Send Invitation' }).click();
  // This invitation's toast, named by its address: the one before may still be leaving.
  await expect(owner.page.locator('[data-sonner-toast]').filter({ hasText: email }).getByText('Invitation Sent', { exact: true })).toBeVisible();
  await expect(team.getByRole('list', { name: 'Invitations waiting' })).toContainText(email);
}

/** The /join/ link in the newest invitation e-mail to `email`. */
async function joinLinkFor(email: string, since: number): Promise<string> {
  const { mail } = await waitForMail(email, { since, subject: /^Join / });
  expect(mail.subject).toBe(`Join ${TEAM_NAME}`);
  const link = /https?:\/\/[^\s"'<>]+\/join\/[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0];
  expect(link, mail.text).toBeTruthy();
  return new URL(link!).pathname;
}

/** Joins from the link with a name and password, and lands on the role's home. */
async function join(person: Person, path: string): Promise<void> {
  const { page } = person;
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: `Join ${TEAM_NAME}` })).toBeVisible();
  await expect(page.getByLabel('Your name')).toHaveValue(person.name);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByLabel('Confirm Password').fill(person.password);
  await page.getByRole('button', { name: 'Join the Team' }).click();
}

async function shoot(page: Page, name: string, target?: ReturnType<Page['locator']>): Promise<void> {
  const path = test.info().outputPath(`${name}.png`);
  if (target) await target.screenshot({ path });
  else await page.screenshot({ path, fullPage: true });
}

test('the owner invites an office and a crew member, both join from the e-mails, the crew is kept to My days, the office quotes and takes a payment named in the owner\'s history, and a removed member is signed out', async ({ browser, playwright }) => {
  // Three people, three browsers, two scrypt joins: about 40 s alone on the 2-core box.
  const owner = await ownerWithBusiness(browser);
  const office = await personIn(browser, 'Ana Ruiz', `ana.${Date.now().toString(36)}@example.test`, 'office-pass-1');
  const crew = await personIn(browser, 'Sam Field', `sam.${Date.now().toString(36)}@example.test`, 'crew-pass-1');

  // Settings → Team: invite the office member and the crew member.
  await owner.page.goto('/settings');
  const team = owner.page.getByRole('region', { name: 'Team' });
  await expect(team.getByRole('list', { name: 'Members' })).toContainText(owner.name);
  const since = Date.now();
  await invite(owner, office.name, office.email, 'office');
  await invite(owner, crew.name, crew.email, 'crew');
  const officeLink = await joinLinkFor(office.email, since);
  const crewLink = await joinLinkFor(crew.email, since);

  // The join page names the business, shows its logo, the role and the address.
  await crew.page.goto(crewLink);
  await expect(crew.page.getByRole('heading', { level: 1, name: `Join ${TEAM_NAME}` })).toBeVisible();
  await expect(crew.page.getByRole('img', { name: `${TEAM_NAME} logo` })).toBeVisible();
  await expect(crew.page.getByRole('definition').filter({ hasText: crew.email })).toBeVisible();
  await expect(crew.page.getByText('Crew', { exact: true })).toBeVisible();
  // The register page's password rules, said before anything is sent.
  await crew.page.getByLabel('Password', { exact: true }).fill('short');
  await crew.page.getByLabel('Confirm Password').fill('shorter');
  await crew.page.getByRole('button', { name: 'Join the Team' }).click();
  await expect(crew.page.getByText('Password must be at least 6 characters')).toBeVisible();
  await expect(crew.page.getByText("Passwords don't match")).toBeVisible();
  await expectNoSeriousAxeViolations(crew.page);
  await shoot(crew.page, 'join-1280');
  await crew.page.setViewportSize(PHONE);
  await shoot(crew.page, 'join-390');
  await crew.page.setViewportSize(WIDE);

  // The office member joins and lands on the office's home, the analyses; no plan to buy.
  await join(office, officeLink);
  await expect(office.page).toHaveURL('/');
  const officeHeader = office.page.getByRole('banner');
  await expect(officeHeader.getByTestId('signed-in-as')).toHaveText('Ana Ruiz · Office');
  const officeNav = office.page.getByRole('navigation', { name: 'Main' });
  for (const link of ['Settings', 'Business Admin', 'History', 'Jobs', 'Invoices']) await expect(officeNav.getByRole('link', { name: link })).toBeVisible();
  await expect(officeNav.getByRole('link', { name: 'Get Tokens' })).toHaveCount(0);
  await expect(officeHeader.getByTestId('credits-badge')).toBeVisible();
  // The office's Settings: no team, plan, account, bank details form or card set-up.
  await office.page.goto('/settings');
  await expect(office.page.getByRole('heading', { level: 1, name: 'AI Settings' })).toBeVisible();
  await expect(office.page.getByText(AREAS.bankDetails.refusal)).toBeVisible();
  await expect(office.page.getByText(AREAS.cardSetup.refusal)).toBeVisible();
  for (const heading of ['Team', 'Billing', 'Your data']) await expect(office.page.getByRole('heading', { level: 2, name: heading, exact: true })).toHaveCount(0);

  // A used link is gone, with the sentence.
  const again = await personIn(browser, '', '', '');
  await again.page.goto(officeLink);
  await expect(again.page.getByRole('alert')).toHaveText(INVITATION_GONE_MESSAGE);
  await again.context.close();

  // The crew member joins and lands on My days: nothing booked, only My days in the header, no credits.
  await join(crew, crewLink);
  await expect(crew.page).toHaveURL('/my-days');
  await expect(crew.page.getByRole('heading', { level: 1, name: 'My days' })).toBeVisible();
  await expect(crew.page.getByRole('heading', { name: 'No work booked for you yet' })).toBeVisible();
  await expect(crew.page.getByText('The office books work to crews.')).toBeVisible();
  const crewHeader = crew.page.getByRole('banner');
  await expect(crewHeader.getByTestId('signed-in-as')).toHaveText('Sam Field · Crew');
  await expect(crew.page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText(['My days']);
  await expect(crewHeader.getByTestId('credits-badge')).toHaveCount(0);
  await expectNoSeriousAxeViolations(crew.page);
  await shoot(crew.page, 'my-days-1280');
  await crew.page.setViewportSize(PHONE);
  await crew.page.getByRole('button', { name: 'Menu' }).click();
  const menu = crew.page.getByRole('navigation', { name: 'Mobile' });
  await expect(menu).toContainText('Signed in as Sam Field · Crew');
  await expect(menu.getByRole('link')).toHaveText(['My days']);
  await expectNoSeriousAxeViolations(crew.page);
  await shoot(crew.page, 'my-days-390');
  await crew.page.getByRole('button', { name: 'Menu' }).click();
  await crew.page.setViewportSize(WIDE);

  // The Invoices page says who can, and an invoice's API answers the same sentence.
  await crew.page.goto('/invoices');
  await expect(crew.page.getByRole('alert')).toHaveText(AREAS.invoices.refusal);
  await expect(crew.page.getByRole('link', { name: 'Go to My days' })).toBeVisible();
  const refused = await crew.page.request.get('/api/invoices/1');
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({ code: 'ROLE_FORBIDDEN', message: AREAS.invoices.refusal });
  await crew.page.getByRole('link', { name: 'Go to My days' }).click();
  await expect(crew.page.getByRole('heading', { name: 'No work booked for you yet' })).toBeVisible();

  // The owner sees both in the team, and Settings → Team at both widths.
  await owner.page.reload();
  const members = team.getByRole('list', { name: 'Members' });
  await expect(members).toContainText('Ana Ruiz');
  await expect(members).toContainText('Sam Field');
  await expect(team.getByRole('list', { name: 'Invitations waiting' })).toHaveCount(0);
  await expectNoSeriousAxeViolations(owner.page, '#team');
  await shoot(owner.page, 'settings-team-1280', team);
  await owner.page.setViewportSize(PHONE);
  await shoot(owner.page, 'settings-team-390', team);
  await owner.page.setViewportSize(WIDE);

  // A role change asks first, naming the new role; an invitation can be sent again and withdrawn (asked first).
  const ana = members.getByRole('listitem').filter({ hasText: 'Ana Ruiz' });
  for (const role of ['Crew', 'Office']) {
    await team.getByRole('button', { name: 'Change role of Ana Ruiz' }).click();
    const change = owner.page.getByRole('dialog', { name: "Change Ana Ruiz's role?" });
    await change.getByRole('radio', { name: new RegExp(`^${role}`) }).check();
    await change.getByRole('button', { name: `Make ${role}` }).click();
    await expect(change).toBeHidden();
    await expect(ana.getByText(role, { exact: true })).toBeVisible();
  }
  const kit = `kit.${Date.now().toString(36)}@example.test`;
  await invite(owner, 'Kit Hale', kit, 'crew');
  const waiting = team.getByRole('list', { name: 'Invitations waiting' });
  await waiting.getByRole('button', { name: `Resend the invitation to ${kit}` }).click();
  await expect(owner.page.locator('[data-sonner-toast]').filter({ hasText: kit }).getByText('Invitation Sent Again', { exact: true })).toBeVisible();
  await waiting.getByRole('button', { name: `Withdraw the invitation to ${kit}` }).click();
  const withdraw = owner.page.getByRole('dialog', { name: 'Withdraw this invitation?' });
  await withdraw.getByRole('button', { name: 'Withdraw Invitation' }).click();
  await expect(withdraw).toBeHidden();
  await expect(waiting).toHaveCount(0);

  // The office member: a website lead becomes a job, priced and sent; the customer accepts by the
  // e-mail's link; the final invoice is issued and a payment recorded.
  const customerEmail = `jo.${Date.now().toString(36)}@example.test`;
  const visitor = await playwright.request.newContext({ baseURL: e2eEnv('baseURL') });
  await websiteLead(office, visitor, customerEmail);
  await office.page.goto('/admin/businesses');
  await office.page.getByRole('listitem').filter({ hasText: CUSTOMER }).getByRole('button', { name: `Make a job for ${CUSTOMER}` }).click();
  await expect(office.page).toHaveURL(/\/jobs\/\d+$/);
  const jobPath = new URL(office.page.url()).pathname;
  await office.page.getByRole('list', { name: /^Items/ }).getByRole('listitem').nth(0).getByLabel('Price (£)').fill('480');
  await office.page.getByRole('button', { name: /^Round prices/ }).click();
  await expect(office.page.getByRole('list', { name: /^Items/ }).getByRole('listitem').nth(0).getByLabel('Price (£)')).toHaveValue('480.00');
  const quotedAt = Date.now();
  await office.page.getByRole('button', { name: 'Send quote' }).click();
  await expect(office.page.getByText(`Version 1 sent to ${customerEmail}`)).toBeVisible();
  const { mail: quoteMail } = await waitForMail(customerEmail, { since: quotedAt, subject: /^Your quote from/ });
  const token = /\/quote\/([A-Za-z0-9_-]{43})/.exec(quoteMail.text ?? '')?.[1];
  expect(token, quoteMail.text).toBeTruthy();
  await ok(visitor.post(`/api/quotes/${token}/accept`, { data: { name: CUSTOMER, acceptTerms: true, optionalItemIds: [] }, headers: origin() }));
  await visitor.dispose();
  await office.page.reload();
  const invoicesPanel = office.page.getByRole('region', { name: 'Invoices' });
  await invoicesPanel.getByRole('button', { name: 'Make final invoice' }).click();
  const finalDialog = office.page.getByRole('dialog', { name: 'Make the final invoice' });
  await finalDialog.getByRole('button', { name: 'Make final invoice' }).click();
  await expect(finalDialog).toBeHidden();
  await invoiceCard(invoicesPanel, office.page, 'Draft').getByRole('button', { name: 'Issue' }).click();
  const invoice = invoiceCard(invoicesPanel, office.page, 'INV-0001');
  await expect(invoice.getByText('Issued', { exact: true })).toBeVisible();
  await invoice.getByRole('button', { name: 'Record a payment' }).click();
  const pay = office.page.getByRole('dialog', { name: 'Record a payment' });
  await pay.getByLabel('Amount (£)').fill('200');
  await pay.getByRole('button', { name: 'Record the payment' }).click();
  await expect(pay).toBeHidden();
  await expect(invoice.getByText('Part paid', { exact: true })).toBeVisible();

  // The owner's job page names who sent the quote and who recorded the payment.
  await owner.page.goto(jobPath);
  await expect(owner.page.getByText(new RegExp(`sent to ${customerEmail.replace(/\./g, '\\.')} by Ana Ruiz on `))).toBeVisible();
  const ownersInvoice = invoiceCard(owner.page.getByRole('region', { name: 'Invoices' }), owner.page, 'INV-0001');
  await expect(ownersInvoice.getByRole('list', { name: 'Payments' })).toContainText('recorded by Ana Ruiz');
  await expectNoSeriousAxeViolations(owner.page);
  await shoot(owner.page, 'owner-job-named-1280');
  // The crew member is refused that job's page and its invoice, with who can.
  await crew.page.goto(jobPath);
  await expect(crew.page.getByRole('alert')).toHaveText(AREAS.jobs.refusal);
  await crew.page.goto('/my-days');
  await expect(crew.page.getByRole('heading', { name: 'No work booked for you yet' })).toBeVisible();

  // The owner removes the crew member, asked first.
  await owner.page.goto('/settings');
  await team.getByRole('button', { name: 'Remove Sam Field' }).click();
  const ask = owner.page.getByRole('dialog', { name: 'Remove Sam Field from the team?' });
  await expect(ask).toBeVisible();
  await expectNoSeriousAxeViolations(owner.page);
  await ask.getByRole('button', { name: 'Remove from Team' }).click();
  await expect(ask).toBeHidden();
  await expect(members).not.toContainText('Sam Field');

  // The crew member's open page: coming back to the tab asks who is signed in, and the answer
  // (401) signs the page out, saying so, without a reload.
  await crew.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
  await expect(crew.page).toHaveURL('/login');
  await expect(crew.page.getByRole('status').filter({ hasText: 'You have been signed out.' })).toBeVisible();
  await expect(crew.page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  await shoot(crew.page, 'signed-out-1280');

  for (const person of [owner, office, crew]) await person.context.close();
});
