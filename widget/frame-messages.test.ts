import { describe, expect, it } from 'vitest';
import { LEAD_EVENT, RESIZE_MESSAGE, RESULT_EVENT } from '../core/embed';
import { acceptFrameMessage, clampFrameHeight, MAX_FRAME_HEIGHT, readFrameMessage, scrollToShow } from './frame-messages';
import { SHOW_AREA_MESSAGE } from './show-area-message';

const OURS = 'https://trees.example';
const ourFrameWindow = { name: 'our frame' };
const otherFrameWindow = { name: 'an ad' };
const frames = [{ contentWindow: otherFrameWindow }, { contentWindow: ourFrameWindow }];

describe('acceptFrameMessage', () => {
  it('accepts our message from one of the page’s own iframes, and names that iframe', () => {
    const accepted = acceptFrameMessage({ origin: OURS, source: ourFrameWindow, data: { type: RESIZE_MESSAGE, height: 720 } }, OURS, frames);
    expect(accepted?.frame).toBe(frames[1]);
    expect(accepted?.message).toEqual({ type: RESIZE_MESSAGE, height: 720 });
  });

  it('ignores another origin, even from our iframe', () => {
    expect(acceptFrameMessage({ origin: 'https://evil.example', source: ourFrameWindow, data: { type: RESIZE_MESSAGE, height: 1 } }, OURS, frames)).toBeNull();
  });

  it('ignores our origin from a window that is not one of the page’s iframes (a popup, the page itself)', () => {
    expect(acceptFrameMessage({ origin: OURS, source: { name: 'popup' }, data: { type: RESIZE_MESSAGE, height: 1 } }, OURS, frames)).toBeNull();
    expect(acceptFrameMessage({ origin: OURS, source: null, data: { type: RESIZE_MESSAGE, height: 1 } }, OURS, frames)).toBeNull();
  });

  it('ignores shapes we never send', () => {
    for (const data of ['tree-estimator:resize', { type: RESIZE_MESSAGE, height: '700' }, { type: RESIZE_MESSAGE, height: Infinity }, { type: 'other' }, { type: RESULT_EVENT }]) {
      expect(acceptFrameMessage({ origin: OURS, source: ourFrameWindow, data }, OURS, frames)).toBeNull();
    }
  });
});

describe('readFrameMessage', () => {
  it('passes the result and lead events on with their detail', () => {
    const detail = { slug: 'oak', analysisId: 3 };
    expect(readFrameMessage({ type: LEAD_EVENT, detail })).toEqual({ type: LEAD_EVENT, detail });
    expect(readFrameMessage({ type: RESULT_EVENT, detail })).toEqual({ type: RESULT_EVENT, detail });
  });
});

describe('clampFrameHeight', () => {
  it('rounds up and keeps within bounds', () => {
    expect(clampFrameHeight(700.2)).toBe(701);
    expect(clampFrameHeight(-5)).toBe(100);
    expect(clampFrameHeight(1e9)).toBe(MAX_FRAME_HEIGHT);
  });
});

describe('the measuring panel asking the host to show it', () => {
  it('is accepted from our frame, with its lengths', () => {
    const data = { type: SHOW_AREA_MESSAGE, top: 812.5, height: 430, frameHeight: 2400 };
    expect(acceptFrameMessage({ origin: OURS, source: ourFrameWindow, data }, OURS, frames)?.message).toEqual(data);
    expect(acceptFrameMessage({ origin: 'https://evil.example', source: ourFrameWindow, data }, OURS, frames)).toBeNull();
    expect(acceptFrameMessage({ origin: OURS, source: { name: 'popup' }, data }, OURS, frames)).toBeNull();
  });

  it('keeps an attacker\'s lengths within a frame, and refuses anything not a length', () => {
    expect(readFrameMessage({ type: SHOW_AREA_MESSAGE, top: -1e9, height: 1e12, frameHeight: 1e12 })).toEqual({
      type: SHOW_AREA_MESSAGE,
      top: 0,
      height: MAX_FRAME_HEIGHT,
      frameHeight: MAX_FRAME_HEIGHT,
    });
    expect(readFrameMessage({ type: SHOW_AREA_MESSAGE, top: MAX_FRAME_HEIGHT - 10, height: 500, frameHeight: 100 })).toMatchObject({ height: 10 });
    for (const bad of [
      { type: SHOW_AREA_MESSAGE, top: '10', height: 400, frameHeight: 900 },
      { type: SHOW_AREA_MESSAGE, top: 10, height: Number.NaN, frameHeight: 900 },
      { type: SHOW_AREA_MESSAGE, top: 10, height: 400 },
      { type: SHOW_AREA_MESSAGE, top: 10, height: 0, frameHeight: 900 },
      { type: SHOW_AREA_MESSAGE, top: 10, height: 400, frameHeight: Infinity },
    ]) {
      expect(readFrameMessage(bad)).toBeNull();
    }
  });
});

describe('scrollToShow', () => {
  /** A 740 px phone with a 64 px sticky header and a 180 px cookie banner: 496 px between them. */
  const BETWEEN_BARS = { top: 64, bottom: 560 };

  it('centres an area that fits between the bars', () => {
    // 400 px tall, now at 900 px down the viewport: it goes to 112..512, 48 px from either bar.
    expect(scrollToShow({ top: 900, bottom: 1300 }, BETWEEN_BARS)).toBe(900 - 112);
    expect(scrollToShow({ top: -300, bottom: 100 }, BETWEEN_BARS)).toBe(-300 - 112);
  });

  it('puts the top of a taller area just below the top bar', () => {
    expect(scrollToShow({ top: 900, bottom: 1500 }, BETWEEN_BARS)).toBe(900 - 64);
    expect(scrollToShow({ top: 900, bottom: 1390 }, BETWEEN_BARS)).toBe(900 - 64 - 6);
  });

  it('does nothing when nothing is visible or the area is empty', () => {
    expect(scrollToShow({ top: 900, bottom: 1300 }, { top: 600, bottom: 600 })).toBe(0);
    expect(scrollToShow({ top: 900, bottom: 900 }, BETWEEN_BARS)).toBe(0);
  });
});

describe('a focused field or button clear of the host bars (nearest)', () => {
  // A 844 px phone with a 64 px header and a 180 px cookie banner.
  const CLEAR = { top: 64, bottom: 664 };
  it('moves a control under the banner up just past it, one under the header down just below it, and a clear one not at all', () => {
    expect(scrollToShow({ top: 700, bottom: 744 }, CLEAR, 8, 'nearest')).toBe(744 - (664 - 8));
    expect(scrollToShow({ top: 40, bottom: 84 }, CLEAR, 8, 'nearest')).toBe(40 - (64 + 8));
    expect(scrollToShow({ top: 300, bottom: 344 }, CLEAR, 8, 'nearest')).toBe(0);
  });
  it('is carried by the frame message only as the literal true', () => {
    expect(readFrameMessage({ type: SHOW_AREA_MESSAGE, top: 10, height: 44, frameHeight: 900, nearest: true })).toMatchObject({ nearest: true });
    expect(readFrameMessage({ type: SHOW_AREA_MESSAGE, top: 10, height: 44, frameHeight: 900, nearest: 'yes' })).not.toHaveProperty('nearest');
  });
});
