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
  let blocking = await seriousViolations(page, include);
  // A toast whose time ran out while axe read the page was read mid-fade, at a contrast nobody
  // sees it keep (on a loaded box axe takes seconds). If that is all axe found, it reads the page
  // again once the toast has gone: the page as the user sees it then, decided by state, not a clock.
  if (blocking.length > 0 && (await onlyLeavingToasts(page, blocking))) blocking = await seriousViolations(page, include);
  expect(
    blocking.map((v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.targets.join('\n    ')}`),
    blocking.map((v) => `${v.id}: ${v.targets.join(', ')}`).join('\n'),
  ).toEqual([]);
}

interface Violation {
  impact: string;
  id: string;
  help: string;
  targets: string[];
}

async function seriousViolations(page: Page, include?: string): Promise<Violation[]> {
  await animationsSettled(page);
  // Every rule runs as before; only the violations are written out in full (axe's
  // resultTypes), not every passing node, which cost more than the rules on a long page.
  // (options() replaces what withTags() set, so it comes first.)
  let builder = new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']);
  if (include) builder = builder.include(include);
  // A page without frames is checked by axe.run in the page itself (the builder's "legacy" mode):
  // the same rules on the same DOM. The default, made for frames of other origins, runs the
  // rules in each frame and then merges the results in a blank page it opens, injects axe into
  // and closes again, which took half of each check's time (53 checks: 136 s against 70 s on
  // this two-core box, docs/testing.md). A page with frames (the embed on a host's page) keeps it.
  if (page.frames().length === 1) builder = builder.setLegacyMode(true);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ impact: v.impact ?? '', id: v.id, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

/** Whether every node axe complained of is in a Sonner toast, or gone; if so, waits for no toast to be leaving. */
async function onlyLeavingToasts(page: Page, violations: Violation[]): Promise<boolean> {
  const targets = violations.flatMap((v) => v.targets);
  return page.evaluate((selectors) => {
    const inToastOrGone = (selector: string) => {
      try {
        const el = document.querySelector(selector);
        return !el || el.closest('[data-sonner-toast]') !== null;
      } catch {
        return false;
      }
    };
    if (!selectors.every(inToastOrGone)) return false;
    // State, not a clock: the second read waits until no toast is on its way out.
    return new Promise<boolean>((resolve) => {
      const leaving = () => document.querySelector('[data-sonner-toast][data-removed="true"]') !== null;
      const check = () => (leaving() ? requestAnimationFrame(check) : resolve(true));
      check();
    });
  }, targets);
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
