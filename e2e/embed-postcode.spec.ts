import { fileURLToPath } from 'node:url';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { waitForMail } from './mailbox';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';
import { keepScreenshot } from './keep-screenshot';

/*
 * The postcode and the service area (docs/product.md, Embed widget): the request asks where the
 * tree is; a business that lists the districts it covers still gets a request from elsewhere,
 * marked "Outside your area" in Business Admin and in its e-mail, and the visitor is told the
 * business may not cover their district.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));

test('a request from outside the districts a business covers is sent, marked, and the visitor is told', async ({ page, browser }) => {
  const account = await signedInAccount(page);
  grantCredits(account.username, 10);
  const businessName = `Leeds Tree Care ${Date.now().toString(36)}`;
  const slug = businessName.toLowerCase().replace(/ /g, '-');

  // The owner lists the districts in Business Admin's form; a bad entry is named.
  const created = await page.request.post('/api/businesses', {
    data: { name: businessName, slug, hourlyRate: '40.00', aiInstructions: null },
    headers: { Origin: e2eEnv('baseURL') },
  });
  expect(created.status(), await created.text()).toBe(201);
  await page.goto('/admin/businesses');
  const card = page.getByRole('article', { name: businessName });
  await card.getByRole('button', { name: /^Edit/ }).click();
  const districts = card.getByLabel('Postcode districts you cover (optional)');
  await districts.fill('LS1, Leeds');
  await card.getByRole('button', { name: /^Save/ }).click();
  await expect(card.getByText('"Leeds" is not a postcode district or area: use e.g. LS6 or BD')).toBeVisible();
  await districts.fill('ls1, ls6');
  await card.getByRole('button', { name: /^Save/ }).click();
  await expect(card.getByLabel('Postcode districts you cover (optional)')).toHaveCount(0);
  await expect(card).toContainText('LS1, LS6');
  const saved = (await (await page.request.get('/api/businesses')).json()) as { businesses: { slug: string; serviceDistricts: string[] }[] };
  expect(saved.businesses.find((b) => b.slug === slug)?.serviceDistricts).toEqual(['LS1', 'LS6']);

  const visitor = await (await browser.newContext({ viewport: { width: 360, height: 800 } })).newPage();
  await visitor.goto(`/embed/${slug}`);
  const element = visitor.locator('tree-estimator');
  await expect(element.getByRole('heading', { name: 'Get a guide price for your tree' })).toBeVisible();
  await element.locator('input[type="file"]').setInputFiles(PHOTO);
  await element.getByLabel('Anything else we should know?').fill('redbud, 6 inch trunk, 15 ft tall, open lawn');
  await element.getByRole('button', { name: 'Get my price' }).click();
  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();

  await element.getByLabel('Name').fill('Bo Bradford');
  await element.getByLabel('Phone').fill('07700 900321');
  const postcode = element.getByLabel('Postcode');
  await expect(postcode).toHaveAttribute('autocomplete', 'postal-code');
  await expect(postcode).toHaveAttribute('autocapitalize', 'characters');
  // Checked before sending, in the server's words.
  await element.getByRole('button', { name: 'Request a quote' }).click();
  await expect(element.getByText('Enter your postcode, e.g. LS6 2AB')).toBeVisible();
  await expect(postcode).toBeFocused();
  await postcode.fill('bd1');
  await element.getByRole('button', { name: 'Request a quote' }).click();
  await expect(element.getByText('Enter a full UK postcode, e.g. LS6 2AB')).toBeVisible();
  await postcode.fill('bd1 1aa');
  await element.getByLabel('Address').fill('1 Mill Street, Bradford');
  await postcode.scrollIntoViewIfNeeded();
  await keepScreenshot(visitor, 'embed-postcode-form-360');

  const since = Date.now();
  await element.getByRole('button', { name: 'Request a quote' }).click();
  await expect(element.getByText(`${businessName} may not cover BD1. Your request has been sent, and they will let you know.`)).toBeVisible();
  await expectNoSeriousAxeViolations(visitor, 'tree-estimator');
  await keepScreenshot(visitor, 'embed-postcode-outside-360');
  await visitor.context().close();

  const { mail } = await waitForMail(account.email, { since });
  expect(mail.text).toContain('Postcode: BD1 1AA');
  expect(mail.text).toContain('Outside the districts you cover (LS1, LS6)');

  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto('/admin/businesses');
  const lead = page.getByRole('article', { name: businessName }).getByRole('listitem').filter({ hasText: 'Bo Bradford' });
  await expect(lead).toContainText('BD1 1AA');
  await expect(lead).toContainText('1 Mill Street, Bradford');
  await expect(lead.getByText('Outside your area')).toBeVisible();
  await lead.scrollIntoViewIfNeeded();
  await keepScreenshot(page, 'business-admin-lead-outside-360');
});
