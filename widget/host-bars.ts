import type { Band } from './frame-messages';

/**
 * A host page's own fixed and sticky bars (a site header, a cookie banner), found from the
 * viewport's top and bottom edges. No imports beyond a type: widget.js (the frame's host side)
 * and the estimator's script-tag element both take it.
 */

/** The fixed or sticky box `element` is in, unless it holds `ours` (a site's own modal around the estimator) or fills most of the screen. */
function barAround(element: Element | null, ours: Element): DOMRect | null {
  for (let at = element; at; at = at.parentElement) {
    const position = getComputedStyle(at).position;
    if (position !== 'fixed' && position !== 'sticky') continue;
    const box = at.getBoundingClientRect();
    return at.contains(ours) || box.height > innerHeight / 2 ? null : box;
  }
  return null;
}

/**
 * The part of the viewport not under the page's bars: whatever fixed or sticky box lies at the
 * top edge or the bottom edge, over `ours`'s middle or either of its sides.
 */
export function visibleBand(ours: Element): Band {
  const box = ours.getBoundingClientRect();
  const band = { top: 0, bottom: innerHeight };
  const within = (x: number) => Math.min(Math.max(x, 0), innerWidth - 1);
  for (const x of [box.left + 8, box.left + box.width / 2, box.right - 8].map(within)) {
    for (const el of document.elementsFromPoint(x, 1)) band.top = Math.max(band.top, barAround(el, ours)?.bottom ?? 0);
    for (const el of document.elementsFromPoint(x, innerHeight - 2)) band.bottom = Math.min(band.bottom, barAround(el, ours)?.top ?? innerHeight);
  }
  return band;
}
