/**
 * "Show this part of me": sent by our /embed/{slug} frame to the page framing it when the
 * visitor opens measuring on the photo, so the host scrolls the step line and the photo into
 * the part of its screen that its own fixed and sticky bars leave (widget/loader.ts). Lengths
 * are CSS px in the frame's document: the area's top and height, and the frame's content height
 * (applied first, so the host can scroll as far as the area needs).
 * No imports: the measuring chunk and widget.js both take it.
 */
export const SHOW_AREA_MESSAGE = 'tree-estimator:show-area';

export interface ShowAreaMessage {
  type: typeof SHOW_AREA_MESSAGE;
  top: number;
  height: number;
  frameHeight: number;
  /**
   * Scroll only as far as it takes to bring the area clear of the bars (a field or button that
   * took focus), instead of centring it (measuring's step line and photo).
   */
  nearest?: boolean;
}
