import { useEffect, useRef } from 'react';
import { postFrameHeight } from './host-events';

/**
 * The height the framing page should give our /embed/{slug} iframe: the page's body with
 * its margins. Not documentElement.scrollHeight: that never drops below the frame's own
 * height, so a frame that grew for the results could never shrink back for the upload view.
 */
function documentContentHeight(): number {
  const body = document.body;
  const style = getComputedStyle(body);
  return Math.ceil(body.getBoundingClientRect().height + parseFloat(style.marginTop) + parseFloat(style.marginBottom));
}

/** Inside a frame, posts the content height to the parent whenever the wrapper's size changes. */
export function useFrameResize<T extends HTMLElement>(enabled: boolean) {
  const wrapper = useRef<T>(null);
  useEffect(() => {
    const element = wrapper.current;
    if (!enabled || !element || typeof ResizeObserver === 'undefined') return;
    let last = -1;
    const observer = new ResizeObserver(() => {
      const height = documentContentHeight();
      if (height === last) return;
      last = height;
      postFrameHeight(height);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled]);
  return wrapper;
}
