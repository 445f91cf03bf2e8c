import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * An automated accessibility check: no serious or critical axe-core violations against
 * WCAG 2.x A and AA rules, on the whole page or inside one element (axe reads open
 * shadow roots). It catches missing labels, contrast and ARIA misuse; it does not replace
 * a manual review.
 */
export async function expectNoSeriousAxeViolations(page: Page, include?: string): Promise<void> {
  await animationsSettled(page);
  // Every rule runs as before; only the violations are written out in full (axe's
  // resultTypes), not every passing node, which cost more than the rules on a long page.
  // (options() replaces what withTags() set, so it comes first.)
  let builder = new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`);
  expect(blocking, blocking.join('\n')).toEqual([]);
}

/**
 * Waits for every finite animation and transition on the page (shadow roots too) to end: axe
 * reads colours as painted, and a toast still fading in has a contrast it will not keep. Endless
 * ones (a spinner) are left running. State, not a clock: this is what the user sees once it
 * settles, however slow the machine.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}
