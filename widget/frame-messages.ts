import { LEAD_EVENT, RESIZE_MESSAGE, RESULT_EVENT, type EmbedFrameMessage } from '../core/embed';
import { isRecord } from '../core/is-record';
import { SHOW_AREA_MESSAGE, type ShowAreaMessage } from './show-area-message';

/**
 * The host side of the /embed/{slug} frame's postMessage protocol, used by widget.js.
 * Any window can post to the host page, so a message counts only when it comes from our
 * origin AND from one of the page's own iframes, and only in the shapes we send.
 */

/** Frames never grow past this, whatever a message says (a tall results page is ~2,500 px at 320 px wide). */
export const MAX_FRAME_HEIGHT = 10_000;
export const MIN_FRAME_HEIGHT = 100;

/** The parts of a MessageEvent the rule looks at (so tests need no browser). */
export interface IncomingMessage {
  origin: string;
  source: unknown;
  data: unknown;
}

export interface FrameLike {
  contentWindow: unknown;
}

/** Everything the frame may say: the core protocol and the measuring panel's "show this part of me". */
export type FrameMessage = EmbedFrameMessage | ShowAreaMessage;

export interface AcceptedMessage<F extends FrameLike> {
  frame: F;
  message: FrameMessage;
}

/** A length in a message: a finite number, kept within a frame's possible height. */
const lengthIn = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(Math.max(value, 0), MAX_FRAME_HEIGHT) : null;

/** The message in one of our shapes, or null. */
export function readFrameMessage(data: unknown): FrameMessage | null {
  if (!isRecord(data)) return null;
  if (data.type === RESIZE_MESSAGE) {
    return typeof data.height === 'number' && Number.isFinite(data.height) ? { type: RESIZE_MESSAGE, height: data.height } : null;
  }
  if (data.type === SHOW_AREA_MESSAGE) {
    const [top, height, frameHeight] = [lengthIn(data.top), lengthIn(data.height), lengthIn(data.frameHeight)];
    if (top === null || height === null || frameHeight === null || height === 0) return null;
    return { type: SHOW_AREA_MESSAGE, top, height: Math.min(height, MAX_FRAME_HEIGHT - top), frameHeight, ...(data.nearest === true ? { nearest: true } : {}) };
  }
  if ((data.type === RESULT_EVENT || data.type === LEAD_EVENT) && isRecord(data.detail)) {
    return data as unknown as EmbedFrameMessage;
  }
  return null;
}

/** The iframe that sent `event` and what it said, when both are ours; else null. */
export function acceptFrameMessage<F extends FrameLike>(
  event: IncomingMessage,
  ourOrigin: string,
  frames: Iterable<F>,
): AcceptedMessage<F> | null {
  if (event.origin !== ourOrigin || event.source == null) return null;
  let frame: F | undefined;
  for (const candidate of frames) {
    if (candidate.contentWindow === event.source) {
      frame = candidate;
      break;
    }
  }
  if (!frame) return null;
  const message = readFrameMessage(event.data);
  return message ? { frame, message } : null;
}

/** A frame height in whole px, kept within sane bounds. */
export function clampFrameHeight(height: number): number {
  return Math.min(MAX_FRAME_HEIGHT, Math.max(MIN_FRAME_HEIGHT, Math.ceil(height)));
}

/** A stretch of the host's viewport, top to bottom, in CSS px. */
export interface Band {
  top: number;
  bottom: number;
}

/** Breathing room between the area shown and the host's bars. */
export const SHOW_AREA_MARGIN = 8;

/**
 * How far the host page should scroll (positive: down) so `area` sits in `visible`, the part
 * of its viewport its fixed and sticky bars leave: centred when it fits, else its top just below
 * the top bar (the step line first, then as much of the photo as fits). Both in viewport px.
 * 'nearest' moves no more than it takes to clear the bars, and not at all when the area is clear.
 */
export function scrollToShow(area: Band, visible: Band, margin = SHOW_AREA_MARGIN, align: 'center' | 'nearest' = 'center'): number {
  const room = visible.bottom - visible.top;
  const height = area.bottom - area.top;
  if (!(room > 0) || !(height > 0)) return 0;
  if (align === 'nearest' && height + 2 * margin <= room) {
    if (area.bottom > visible.bottom - margin) return Math.round(area.bottom - (visible.bottom - margin));
    if (area.top < visible.top + margin) return Math.round(area.top - (visible.top + margin));
    return 0;
  }
  const top = height + 2 * margin <= room ? visible.top + (room - height) / 2 : visible.top + Math.min(margin, Math.max(room - height, 0));
  return Math.round(area.top - top);
}
