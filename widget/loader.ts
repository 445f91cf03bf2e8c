import { ELEMENT_TAG, RESIZE_MESSAGE } from '../core/embed';
import { acceptFrameMessage, clampFrameHeight, scrollToShow } from './frame-messages';
import { visibleBand } from './host-bars';
import { SHOW_AREA_MESSAGE, type ShowAreaMessage } from './show-area-message';

/**
 * widget.js: the few hundred bytes a host page loads with a script tag. It never touches
 * the host's styles. It
 *  - finds our origin from its own script URL (CONVENTIONS 6, Umami's tracker),
 *  - loads the estimator bundle only once a <tree-estimator> is near the viewport, so a
 *    page that shows it below the fold pays nothing until the visitor scrolls there,
 *  - sizes /embed/{slug} iframes to their content and re-dispatches their result and
 *    lead events on the iframe element, so the host hears them with either snippet,
 *  - scrolls the page when measuring opens in a frame, so the step line and the photo sit
 *    between the page's own fixed or sticky bars (a site header, a cookie banner), and when a
 *    field or button in the frame takes focus, so it is not left under them.
 */

/** Baked in at build time from the estimator build's manifest (vite.widget.config.ts). */
declare const __ESTIMATOR_PATH__: string;

/**
 * Load a little before the element scrolls into view, so it is ready when seen: about a
 * third of a phone screen, early enough for the bundle to arrive while the visitor scrolls.
 */
const NEAR_VIEWPORT = '200px';
/** Guards against the snippet being pasted twice: one listener, one bundle. */
const LOADED_FLAG = '__treeEstimatorLoader';

function ourScript(): HTMLScriptElement | null {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement && current.src) return current;
  // Injected by a tag manager after parsing: currentScript may be gone; find ourselves by name.
  return document.querySelector<HTMLScriptElement>('script[src$="/widget.js"]');
}

/** Scrolls the page so the frame's area (in the frame's own px) shows between the page's bars. */
function showFrameArea(frame: HTMLIFrameElement, message: ShowAreaMessage): void {
  frame.style.height = `${clampFrameHeight(message.frameHeight)}px`;
  const top = frame.getBoundingClientRect().top + frame.clientTop + message.top;
  const by = scrollToShow({ top, bottom: top + message.height }, visibleBand(frame), undefined, message.nearest ? 'nearest' : 'center');
  // 'instant': a host's `scroll-behavior: smooth` would leave the photo moving under the first tap.
  if (by) window.scrollBy({ top: by, behavior: 'instant' });
}

function start(origin: string): void {
  let requested = false;
  let nearby: IntersectionObserver | undefined;
  let additions: MutationObserver | undefined;

  const loadEstimator = () => {
    if (requested) return;
    requested = true;
    nearby?.disconnect();
    additions?.disconnect();
    if (customElements.get(ELEMENT_TAG)) return;
    // A dynamic import rather than a <script> tag: the host's DOM, head included, stays as it was.
    import(/* @vite-ignore */ origin + __ESTIMATOR_PATH__).catch(() => {
      // Unreachable server or a host CSP that refuses us: the element stays empty, the page is unharmed.
    });
  };

  const watch = (element: Element) => {
    if (!nearby) loadEstimator();
    else nearby.observe(element);
  };

  if ('IntersectionObserver' in window) {
    nearby = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && loadEstimator(), {
      rootMargin: NEAR_VIEWPORT,
    });
  }

  const found = document.getElementsByTagName(ELEMENT_TAG);
  for (const element of Array.from(found)) watch(element);
  if (!requested) {
    // Elements parsed after this async script ran, or added later by a single-page app.
    additions = new MutationObserver(() => {
      for (const element of Array.from(found)) watch(element);
    });
    additions.observe(document.documentElement, { childList: true, subtree: true });
  }

  window.addEventListener('message', (event) => {
    const accepted = acceptFrameMessage(event, origin, Array.from(document.getElementsByTagName('iframe')));
    if (!accepted) return;
    const { frame, message } = accepted;
    if (message.type === RESIZE_MESSAGE) {
      frame.style.height = `${clampFrameHeight(message.height)}px`;
    } else if (message.type === SHOW_AREA_MESSAGE) {
      showFrameArea(frame, message);
    } else {
      frame.dispatchEvent(new CustomEvent(message.type, { detail: message.detail, bubbles: true }));
    }
  });
}

const script = ourScript();
const flags = window as unknown as Record<string, boolean>;
if (script && !flags[LOADED_FLAG]) {
  flags[LOADED_FLAG] = true;
  start(new URL(script.src).origin);
}
