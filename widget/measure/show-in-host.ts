import { documentContentHeight } from '../frame-height';
import { SHOW_AREA_MESSAGE, type ShowAreaMessage } from '../show-area-message';

/**
 * Inside our /embed/{slug} frame: asks the framing page (widget.js) to scroll so everything from
 * `first`'s top to `last`'s bottom (the step line and the photo) is on the visitor's screen,
 * clear of the page's own sticky header and fixed banners. The frame is as tall as its content,
 * so only the host can scroll it into view. Nothing private is sent, hence the '*' target.
 */
export function askHostToShow(first: Element | null, last: Element | null): void {
  if (window.parent === window || !first || !last) return;
  const top = first.getBoundingClientRect().top + window.scrollY;
  const bottom = last.getBoundingClientRect().bottom + window.scrollY;
  const message: ShowAreaMessage = {
    type: SHOW_AREA_MESSAGE,
    top: Math.max(0, Math.floor(top)),
    height: Math.ceil(bottom - top),
    frameHeight: documentContentHeight(),
  };
  window.parent.postMessage(message, '*');
}
