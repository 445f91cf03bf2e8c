import { useEffect, useState, type RefObject } from 'react';
import { documentContentHeight } from './frame-height';
import { scrollToShow } from './frame-messages';
import { visibleBand } from './host-bars';
import { SHOW_AREA_MESSAGE, type ShowAreaMessage } from './show-area-message';

/** What a visitor taps or types in: a field, a button, or a choice's label (its radio is hidden). */
const CONTROLS = 'input, textarea, select, button';

/** The box the visitor sees for a focused control: a pill's label rather than its hidden radio. */
function shownBox(target: Element): Element {
  return target.closest('label') ?? target;
}

/** In our /embed frame: asks widget.js to scroll the host just enough to bring `box` clear of its bars. */
function askHostToClear(box: Element): void {
  if (window.parent === window) return;
  const rect = box.getBoundingClientRect();
  const message: ShowAreaMessage = {
    type: SHOW_AREA_MESSAGE,
    top: Math.max(0, Math.floor(rect.top + window.scrollY)),
    height: Math.ceil(rect.height),
    frameHeight: documentContentHeight(),
    nearest: true,
  };
  window.parent.postMessage(message, '*');
}

/**
 * Keeps the estimator's fields and buttons out from under a host page's fixed bars (a cookie
 * banner 180 px high took taps meant for "Side gate only", the postcode and the send button):
 *  - a control that takes focus, by a tap or the keyboard, is scrolled just clear of the bars:
 *    directly on a page with the script-tag element, through widget.js in the iframe snippet;
 *  - on a page with the element, when the page ends less than a bottom bar's height below the
 *    estimator, the estimator takes that much room at its foot (the padding returned), so its
 *    last button can always be scrolled above the bar. Measured again as the page scrolls or
 *    resizes, so a banner dismissed gives the room back.
 */
export function useClearOfHostBars(wrapper: RefObject<HTMLElement | null>, inFrame: boolean): number {
  const [room, setRoom] = useState(0);
  useEffect(() => {
    const element = wrapper.current;
    if (!element || typeof document.elementsFromPoint !== 'function') return;
    const clear = (event: Event) => {
      const target = event.composedPath()[0];
      if (!(target instanceof Element) || !target.matches(CONTROLS)) return;
      const box = shownBox(target);
      if (inFrame) return askHostToClear(box);
      const rect = box.getBoundingClientRect();
      const by = scrollToShow({ top: rect.top, bottom: rect.bottom }, visibleBand(element), undefined, 'nearest');
      // 'instant': a host's `scroll-behavior: smooth` would leave the control moving under the next tap.
      if (by) window.scrollBy({ top: by, behavior: 'instant' });
    };
    element.addEventListener('focusin', clear);
    if (inFrame) return () => element.removeEventListener('focusin', clear);

    let pending = 0;
    const measure = () => {
      const bar = innerHeight - visibleBand(element).bottom;
      const after = document.documentElement.scrollHeight - (element.getBoundingClientRect().bottom + scrollY);
      setRoom((current) => {
        // `after` is measured with the room already taken: what the page itself has below is after - current.
        const needed = bar > 0 ? Math.max(0, Math.ceil(bar - (after - current) + 8)) : 0;
        return Math.abs(needed - current) > 1 ? needed : current;
      });
    };
    const soon = () => {
      cancelAnimationFrame(pending);
      pending = requestAnimationFrame(measure);
    };
    soon();
    addEventListener('scroll', soon, { passive: true });
    addEventListener('resize', soon);
    return () => {
      element.removeEventListener('focusin', clear);
      removeEventListener('scroll', soon);
      removeEventListener('resize', soon);
      cancelAnimationFrame(pending);
    };
  }, [wrapper, inFrame]);
  return room;
}
