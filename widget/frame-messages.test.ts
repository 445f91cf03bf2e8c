import { describe, expect, it } from 'vitest';
import { LEAD_EVENT, RESIZE_MESSAGE, RESULT_EVENT } from '../core/embed';
import { acceptFrameMessage, clampFrameHeight, MAX_FRAME_HEIGHT, readFrameMessage } from './frame-messages';

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
