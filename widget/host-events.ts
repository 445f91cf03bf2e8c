import { LEAD_EVENT, RESIZE_MESSAGE, RESULT_EVENT, type EstimateEventDetail, type LeadEventDetail } from '../core/embed';

/**
 * What the estimator tells the page it sits in: DOM events on the element (they cross the
 * shadow boundary), and, inside our /embed/{slug} frame, the same news by postMessage to
 * the framing page, where widget.js re-dispatches it on the iframe (widget/loader.ts).
 * The target origin is '*' because any site may frame the page; nothing sent is private
 * (no contact details: LeadEventDetail has none).
 */
export type HostEvent =
  | { type: typeof RESULT_EVENT; detail: EstimateEventDetail }
  | { type: typeof LEAD_EVENT; detail: LeadEventDetail };

function framed(): boolean {
  return window.parent !== window;
}

export function announceToHost(host: Element | null, inFrame: boolean, { type, detail }: HostEvent): void {
  host?.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  if (inFrame && framed()) window.parent.postMessage({ type, detail }, '*');
}

export function postFrameHeight(height: number): void {
  if (framed()) window.parent.postMessage({ type: RESIZE_MESSAGE, height }, '*');
}
