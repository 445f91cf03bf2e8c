import type { Page, Route } from '@playwright/test';
import { HOW_IT_WORKS_STEPS, SAFETY_GUIDE_ROWS, helpPassages, pickPassages } from '../core/help-text';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { signedInAccount } from './operator';

/*
 * The help assistant (docs/product.md, Help assistant and admin log): a floating button on every
 * dashboard page opens "TreeAnalyzer Assistant"; Enter sends, Shift+Enter adds a line, a
 * typing indicator shows while the reply is on its way, and every message has a timestamp.
 * The replies come from the real server's local answerer (no model configured in e2e).
 */

const SHOTS = '/tmp/shots/a';

/** Holds the real server's answers to /api/chatbot until `release()`, to see the waiting state. */
async function holdReplies(page: Page) {
  let release = () => {};
  let held = new Promise<void>((resolve) => (release = resolve));
  const sent: string[] = [];
  await page.route('**/api/chatbot', async (route: Route) => {
    sent.push(route.request().postDataJSON().message as string);
    const response = await route.fetch();
    await held;
    await route.fulfill({ response });
  });
  return {
    sent,
    release: () => {
      release();
      held = Promise.resolve();
    },
  };
}

const launcher = (page: Page) => page.getByRole('button', { name: 'Chat with TreeAnalyzer Assistant' });
const panel = (page: Page) => page.getByRole('dialog', { name: 'TreeAnalyzer Assistant' });

test('a visitor chats: Enter sends, typing then a reply with a timestamp, Escape closes', async ({ page }) => {
  // Many steps and an axe run: on a busy machine this takes longer than the default.
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign In', exact: true })).toBeVisible();
  const replies = await holdReplies(page);

  await launcher(page).click();
  const chat = panel(page);
  await expect(chat).toBeVisible();
  await expect(launcher(page)).toHaveAttribute('aria-expanded', 'true');
  const log = chat.getByRole('log', { name: 'Conversation' });
  await expect(log).toContainText("Hello! I'm the TreeAnalyzer Assistant.");
  const input = chat.getByLabel('Your message');
  await expect(input).toBeFocused();
  await expectNoSeriousAxeViolations(page, 'section[role="dialog"]');

  // Blank messages are not sent.
  await input.fill('   ');
  await input.press('Enter');
  await expect(chat.getByRole('button', { name: 'Send message' })).toBeDisabled();

  // Shift+Enter adds a line; Enter sends.
  await input.fill('How much is');
  await input.press('Shift+Enter');
  await input.pressSequentially('the Pro plan?');
  await expect(input).toHaveValue('How much is\nthe Pro plan?');
  expect(replies.sent).toEqual([]);
  await input.press('Enter');

  // Waiting: the question shows, the assistant is typing, input and send are disabled.
  await expect(log).toContainText('How much is\nthe Pro plan?');
  const typing = chat.getByRole('status').filter({ hasText: 'TreeAnalyzer Assistant is typing' });
  await expect(typing).toBeVisible();
  await expect(input).toBeDisabled();
  await expect(input).toHaveValue('');
  await expect(chat.getByRole('button', { name: 'Send message' })).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/chat-typing-desktop.png` });
  expect(replies.sent).toEqual(['How much is\nthe Pro plan?']);

  replies.release();
  await expect(log).toContainText('The Pro plan costs £79.00 a month');
  await expect(typing).toHaveCount(0);
  // Welcome, question and reply each carry a time.
  const times = log.locator('time');
  await expect(times).toHaveCount(3);
  for (const time of await times.all()) await expect(time).toHaveText(/^\d{1,2}:\d{2}/);
  await expect(input).toBeEnabled();
  await expect(input).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/chat-reply-desktop.png` });

  // Escape closes and focus returns to the button; the conversation is kept for next time.
  await input.press('Escape');
  await expect(chat).toBeHidden();
  await expect(launcher(page)).toBeFocused();
  await expect(launcher(page)).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Enter');
  await expect(chat).toBeVisible();
  await expect(log.locator('time')).toHaveCount(3);
  await chat.getByRole('button', { name: 'Close chat' }).click();
  await expect(chat).toBeHidden();
  await expect(launcher(page)).toBeFocused();
});

test('a failed reply shows the Chat Error toast and keeps the question to send again', async ({ page }) => {
  await page.goto('/login');
  await page.route('**/api/chatbot', (route) => route.fulfill({ status: 500, json: { message: 'boom', code: 'INTERNAL_ERROR' } }));
  await launcher(page).click();
  const input = panel(page).getByLabel('Your message');
  await input.fill('Where is my report?');
  await input.press('Enter');
  await expect(page.getByText('Chat Error', { exact: true })).toBeVisible();
  await expect(page.getByText("Sorry, I couldn't respond right now. Please try again.")).toBeVisible();
  await expect(input).toBeEnabled();
  await expect(input).toHaveValue('Where is my report?');
});

test('the embedded estimator carries no chat button', async ({ page }) => {
  await page.goto('/embed/no-such-business');
  await expect(page.getByText('Service Unavailable')).toBeVisible();
  await expect(launcher(page)).toHaveCount(0);
});

test('at 375 px a signed-in user chats on the home page, the panel inside the screen', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 720 });
  await signedInAccount(page);
  await page.goto('/');
  await expect(page.getByRole('banner')).toBeVisible();
  await launcher(page).click();
  const chat = panel(page);
  await expect(chat).toBeVisible();
  const box = await chat.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  expect(box!.y).toBeGreaterThanOrEqual(0);

  const input = chat.getByLabel('Your message');
  await input.fill('Is it safe to work near power lines?');
  await input.press('Enter');
  const log = chat.getByRole('log', { name: 'Conversation' });
  await expect(log).toContainText('at least 3 m (10 ft) from low voltage overhead lines');
  await expect(log).toContainText('contact the Distribution Network Operator first');
  await expect(log).toContainText('certified arborist');
  await expect(log.locator('time')).toHaveCount(3);
  await page.screenshot({ path: `${SHOTS}/chat-reply-375.png` });
  await expectNoSeriousAxeViolations(page, 'section[role="dialog"]');
});

test('How It Works and Safety Guide show the help text the assistant answers from', async ({ page }) => {
  await signedInAccount(page);
  await page.goto('/');
  // e2e runs without a vision model.
  const passages = helpPassages({ visionModel: false });
  await page.getByRole('button', { name: 'How It Works' }).click();
  const howItWorks = page.getByRole('dialog', { name: 'How It Works' });
  for (const [index, step] of pickPassages(passages, HOW_IT_WORKS_STEPS).entries()) {
    await expect(howItWorks.getByRole('heading', { name: step.title })).toBeVisible();
    await expect(howItWorks).toContainText(step.text);
    if (index === 0) await expect(howItWorks.getByRole('heading', { name: `1. ${step.title}` })).toBeVisible();
  }
  await page.screenshot({ path: `${SHOTS}/how-it-works.png` });
  await howItWorks.getByRole('button', { name: 'Got it' }).click();

  await page.getByRole('button', { name: 'Safety Guide' }).click();
  const safety = page.getByRole('dialog', { name: 'Safety Guide' });
  for (const row of pickPassages(passages, SAFETY_GUIDE_ROWS)) await expect(safety).toContainText(row.text);
  await expect(safety).toContainText('at least 3 m (10 ft) from low voltage overhead lines');
  await expect(safety).toContainText('winds above 25 mph');
  await page.screenshot({ path: `${SHOTS}/safety-guide.png` });
});
