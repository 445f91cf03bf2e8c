import { useEffect, useRef } from 'react';
import { documentContentHeight } from './frame-height';
import { postFrameHeight } from './host-events';

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
