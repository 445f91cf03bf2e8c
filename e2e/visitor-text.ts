import type { Locator } from '@playwright/test';

/**
 * The text a visitor reads in the estimator. `innerText()` of the <tree-estimator> element is
 * empty (everything it shows is in its shadow root), so a check of the visitor's words reads the
 * shadow root's children instead, leaving out its stylesheet.
 */
export function shownText(element: Locator): Promise<string> {
  return element.evaluate((host) =>
    Array.from(host.shadowRoot?.children ?? [])
      .filter((child): child is HTMLElement => child instanceof HTMLElement && !['STYLE', 'LINK', 'SCRIPT'].includes(child.tagName))
      .map((child) => child.innerText)
      .join('\n'),
  );
}
