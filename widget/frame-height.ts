/**
 * The height the framing page should give our /embed/{slug} iframe: the page's body with
 * its margins. Not documentElement.scrollHeight: that never drops below the frame's own
 * height, so a frame that grew for the results could never shrink back for the upload view.
 */
export function documentContentHeight(): number {
  const body = document.body;
  const style = getComputedStyle(body);
  return Math.ceil(body.getBoundingClientRect().height + parseFloat(style.marginTop) + parseFloat(style.marginBottom));
}
