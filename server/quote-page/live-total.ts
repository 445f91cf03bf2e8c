/**
 * The quote page's only script (docs/product.md, Jobs and quotes: the customer's page): as the
 * customer ticks optional items, the totals change. The page works without it (the ticked items
 * go with the Accept form, and the server adds them up); with it, the figures follow the ticks.
 *
 * The sum is core/quote-totals.ts quoteTotals ported to a few lines of browser JavaScript, and the
 * money text core/money.ts formatGbp: the page has no bundle to import them into, and a bundle for
 * ten lines would cost more than it saves. live-total.test.ts runs this text against both, so a
 * change to either shows up there.
 */

/**
 * `totals(shownPence, vatMode, ratePercent)` -> [net, vat, gross] in pence, and `gbp(pence)` ->
 * "£1,234.56", as quoteTotals and formatGbp work them out (VAT on the total, halves up).
 */
export const TOTALS_JS = `function half(a,b){return Math.floor((2*a+b)/(2*b))}
function totals(shown,mode,rate){if(mode==='none')return[shown,0,shown];if(mode==='ex'){var a=half(shown*rate,100);return[shown,a,shown+a]}var v=half(shown*rate,100+rate);return[shown-v,v,shown]}
function gbp(p){return'\\u00a3'+String(Math.floor(p/100)).replace(/\\B(?=(\\d{3})+(?!\\d))/g,',')+'.'+String(p%100).padStart(2,'0')}`;

/**
 * Wires the totals to the page: the element with `data-quote` holds the VAT mode and rate and the
 * included items' pence; each optional item's box (`name="optional"`) its own pence; every
 * `[data-total=net|vat|gross|optional|deposit]` shows that figure, and `[data-row=optional]` shows only
 * when something optional is ticked. Where the copy asks a deposit (`data-deposit-hundredths` of
 * the total over `data-deposit-over-pence`, core/card-payments.ts depositOnAcceptance with
 * core/invoice-money.ts depositFromPercent's rounding), `[data-deposit-on]` shows while one is
 * asked and `[data-deposit-off]` while none is. Run once at start too, for boxes a browser restores.
 */
export const LIVE_TOTAL_SCRIPT = `(function(){${TOTALS_JS}
var q=document.querySelector('[data-quote]');if(!q)return;
var boxes=document.querySelectorAll('input[name="optional"]');
function update(){var opt=0;boxes.forEach(function(b){if(b.checked)opt+=Number(b.getAttribute('data-pence'))});
var t=totals(Number(q.getAttribute('data-included-pence'))+opt,q.getAttribute('data-vat-mode'),Number(q.getAttribute('data-vat-rate')));
var h=q.getAttribute('data-deposit-hundredths'),dep=h&&t[2]>Number(q.getAttribute('data-deposit-over-pence'))?half(t[2]*Number(h),10000):0;
var v={net:t[0],vat:t[1],gross:t[2],optional:opt,deposit:dep};
document.querySelectorAll('[data-deposit-on]').forEach(function(el){el.hidden=dep===0});
document.querySelectorAll('[data-deposit-off]').forEach(function(el){el.hidden=dep>0});
document.querySelectorAll('[data-total]').forEach(function(el){el.textContent=gbp(v[el.getAttribute('data-total')])});
document.querySelectorAll('[data-row="optional"]').forEach(function(el){el.hidden=opt===0})}
boxes.forEach(function(b){b.addEventListener('change',update)});update()})();`;
