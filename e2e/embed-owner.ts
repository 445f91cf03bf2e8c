import type { BrowserContext, Page } from '@playwright/test';
import { expect } from './fixtures';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';
import type { HostSite } from './rig/host-site';

/* The business owner's side of the embed tests: a business made in Business Admin for the owner's own site. */

export interface Owner {
  email: string;
  businessName: string;
}

/** An owner with credits creates a business in Business Admin and copies one of its snippets. */
export async function ownerCopiesSnippet(page: Page, context: BrowserContext, host: HostSite, button: 'Copy Embed' | 'Copy Script Tag'): Promise<Owner & { snippet: string }> {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2eEnv('baseURL') });
  const account = await signedInAccount(page);
  grantCredits(account.username, 30);
  const businessName = `Oakfield Tree Care ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

  await page.goto('/admin/businesses');
  await page.getByRole('button', { name: 'Add Business' }).click();
  await page.getByLabel('Business Name').fill(businessName);
  await page.getByLabel('Hourly Rate').fill('48');
  // The owner's site is the only one allowed to use (and frame) the estimator.
  await page.getByLabel('Allowed Site Origins (optional)').fill(host.origin);
  await page.getByRole('button', { name: 'Create Business' }).click();
  await expect(page.getByText('Business configuration created successfully', { exact: true })).toBeVisible();

  await page.getByRole('article', { name: businessName }).getByRole('button', { name: button }).click();
  await expect(page.getByText('Copied!', { exact: true })).toBeVisible();
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  return { email: account.email, businessName, snippet };
}

