import { LEAD_EVENT, RESIZE_MESSAGE, RESULT_EVENT, type EmbedFrameMessage } from '../core/embed';
import { isRecord } from '../core/is-record';

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

export interface AcceptedMessage<F extends FrameLike> {
  frame: F;
  message: EmbedFrameMessage;
}

/** The message in one of our shapes, or null. */
export function readFrameMessage(data: unknown): EmbedFrameMessage | null {
  if (!isRecord(data)) return null;
  if (data.type === RESIZE_MESSAGE) {
    return typeof data.height === 'number' && Number.isFinite(data.height) ? { type: RESIZE_MESSAGE, height: data.height } : null;
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
