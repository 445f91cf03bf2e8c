/**
 * The quote page's photos after the first (docs/product.md, Jobs and quotes: the customer's page):
 * fetched as they scroll into view, not when the page opens. `loading="lazy"` alone does not do
 * it on a phone: Chromium starts a lazy image once it is within 1,250 px of the screen (2,500 px
 * on a slow connection; web.dev, "Browser-level image lazy loading for the web"), which on a
 * 390 px phone is every tree of a short quote, and 409 KiB was measured fetched at once for
 * three trees. So the page writes each later photo as an <img data-src> kept hidden, sized by its
 * width and height, with the plain <img> in a <noscript> for a browser without JavaScript; this
 * script shows the hidden ones (their boxes take their place before the first paint, so nothing
 * moves when a photo arrives) and gives each its address when it enters the screen.
 */
export const LATER_PHOTOS_SCRIPT = `(function(){var imgs=document.querySelectorAll('img[data-src]');if(!imgs.length)return;
function show(img){img.src=img.getAttribute('data-src');img.removeAttribute('data-src')}
imgs.forEach(function(img){img.hidden=false});
if(!('IntersectionObserver' in window)){imgs.forEach(show);return}
var near=new IntersectionObserver(function(seen){seen.forEach(function(e){if(e.isIntersecting){near.unobserve(e.target);show(e.target)}})});
imgs.forEach(function(img){near.observe(img)})})();`;

/** A later photo as the page writes it: hidden until the script shows it, the plain image for no JavaScript. */
export function laterPhoto(src: string, attributes: string): string {
  return `<img data-src="${src}" ${attributes} loading="lazy" hidden><noscript><img src="${src}" ${attributes} loading="lazy"></noscript>`;
}
