import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * History a page at a time: the first 20 analyses, then "Load more" for the rest,
 * from the keyboard, with focus moved to the first new card and the button gone at the end.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));

test('History shows 20 analyses and loads the rest from the keyboard', async ({ page }) => {
  const account = await signedInAccount(page);
  grantCredits(account.username, 230);
  const image = await readFile(PHOTO);
  const ids: number[] = [];
  for (let i = 1; i <= 22; i++) {
    const res = await page.request.post('/api/analyze-tree', {
      multipart: { image: { name: 'tree.jpg', mimeType: 'image/jpeg', buffer: image }, description: `redbud, ${3 + (i % 10)} inch trunk, 15 ft` },
      headers: { Origin: e2eEnv('baseURL') },
      timeout: 30_000,
    });
    expect(res.status(), await res.text()).toBe(201);
    ids.push(((await res.json()) as { analysis: { id: number } }).analysis.id);
  }

  await page.goto('/history');
  await expect(page.getByRole('heading', { name: 'Analysis History' })).toBeVisible();
  const items = page.getByRole('list', { name: 'Past analyses' }).getByRole('listitem');
  await expect(items).toHaveCount(20);
  const loadMore = page.getByRole('button', { name: 'Load more' });
  await expect(loadMore).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await loadMore.focus();
  await page.keyboard.press('Enter');
  await expect(items).toHaveCount(22);
  await expect(items.nth(20).getByRole('link')).toBeFocused();
  await expect(page.getByRole('button', { name: /Load more|Loading more/ })).toHaveCount(0);
  // Newest first: the last card is the first analysis.
  await items.last().getByRole('link').click();
  await expect(page).toHaveURL(`/history/${ids[0]}`);
});
