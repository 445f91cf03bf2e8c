import { accentPalette } from '../../core/accent';

/**
 * The quote page's stylesheet, inline (no request before the first paint, nothing from outside):
 * made for a phone first, a 40rem column on anything wider, the system's own font, tap targets of
 * at least 48 px (WCAG 2.2 2.5.8 asks 24; Android's guidance is 48), and the business's accent
 * on the bar and buttons with text that reads on it (core/accent.ts). `accent` may be null: the
 * small pages for a link that opens nothing carry no business's colour. A photo not fetched yet
 * (later-photos.ts) is its grey box: the ::before covers Chromium's broken-image mark and alt text.
 */
export function pageStyle(accentColor: string | null): string {
  const { accent, onAccent, accentVisible } = accentPalette(accentColor);
  return `*{box-sizing:border-box}html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1c1917;background:#f5f5f4}
.bar{background:${accent};color:${onAccent}}.bar p{margin:0 auto;max-width:40rem;padding:.9rem 1rem;font-weight:700;font-size:1.125rem;overflow-wrap:anywhere}
main{display:block;max-width:40rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;line-height:1.25;margin:.25rem 0}h2{font-size:1.25rem;line-height:1.3;margin:0 0 .5rem}h3{font-size:1rem;margin:0 0 .25rem}
p{margin:0 0 .5rem}.meta{color:#57534e;margin:0 0 1rem}
.card{background:#fff;border:1px solid #e7e5e4;border-radius:12px;padding:1rem;margin:0 0 1rem;overflow-wrap:anywhere}
.parties{display:grid;gap:1rem}@media(min-width:36rem){.parties{grid-template-columns:1fr 1fr}}
.pre{white-space:pre-line}address{font-style:normal;margin:0 0 .5rem}
.items{list-style:none;margin:0;padding:0}.item{border-top:1px solid #e7e5e4;padding:1rem 0}.item:first-child{border-top:0;padding-top:0}
.logo{display:block;max-width:12rem;max-height:4rem;width:auto;height:auto;margin:0 0 .75rem}
.item img{display:block;width:100%;height:13rem;object-fit:cover;border-radius:8px;background:#e7e5e4;margin:0 0 .75rem}
.item img[data-src]{position:relative}.item img[data-src]::before{content:"";position:absolute;inset:0;background:#e7e5e4;border-radius:8px}
.line{display:flex;justify-content:space-between;gap:1rem;align-items:baseline}.line p{margin:0}
.price{font-weight:700;white-space:nowrap;font-variant-numeric:tabular-nums}
.tag{display:inline-block;margin-top:.5rem;padding:.125rem .5rem;border-radius:999px;background:#f5f5f4;border:1px solid #d6d3d1;font-size:.875rem;font-weight:600}
.opt{display:flex;gap:.75rem;align-items:center;min-height:48px;margin:.75rem 0 0;padding:.5rem .75rem;border:1px solid #a8a29e;border-radius:8px;background:#fafaf9;font-weight:600;cursor:pointer}
input[type=checkbox]{width:1.5rem;height:1.5rem;flex:none;margin:0;accent-color:${accentVisible}}
.totals{margin:1rem 0 .5rem;border-top:2px solid #1c1917;padding-top:.5rem}.totals div{display:flex;justify-content:space-between;gap:1rem;padding:.2rem 0}
.totals dd{margin:0;font-variant-numeric:tabular-nums;white-space:nowrap}.totals .strong{font-weight:700;font-size:1.25rem}
.hint{color:#57534e;font-size:.9375rem}
fieldset{border:0;margin:0;padding:0;min-width:0}legend{font-size:1.25rem;font-weight:700;padding:0;margin:0 0 .25rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
.check{display:flex;gap:.75rem;align-items:flex-start;margin:.75rem 0 0}.check input{margin-top:.75rem}.check label{margin:0;padding:.6rem 0;flex:1}.check .hint{margin:0}
input[type=text],textarea{display:block;width:100%;font:inherit;padding:.7rem .75rem;min-height:48px;border:1px solid #78716c;border-radius:8px;background:#fff;color:inherit}
textarea{resize:vertical}
button{display:block;width:100%;font:inherit;font-weight:700;min-height:48px;margin:1rem 0 0;padding:.7rem 1.25rem;border:2px solid ${accent};border-radius:8px;background:${accent};color:${onAccent};cursor:pointer}
button.secondary{background:#fff;color:${accentVisible};border-color:${accentVisible}}
a{color:${accentVisible}}:focus-visible{outline:3px solid ${accentVisible};outline-offset:2px}
.error{color:#b91c1c;font-weight:600;margin:.25rem 0 0}[aria-invalid=true]{border:2px solid #b91c1c}
.status{border-left:6px solid ${accentVisible}}.status.declined{border-left-color:#78716c}
details{border-top:1px solid #e7e5e4}details:first-of-type{border-top:0}summary{cursor:pointer;font-weight:600;padding:.75rem 0;min-height:48px;color:${accentVisible}}
.rights p{font-size:.9375rem}
.words{border-left:3px solid #d6d3d1;padding:.25rem 0 .25rem .75rem;margin:.75rem 0}.words p{margin:0 0 .5rem}
.lead{font-size:1.25rem;margin:0 0 1rem}.details{margin:0}.detail{display:grid;grid-template-columns:1fr auto;align-items:center;column-gap:.75rem;border-top:1px solid #e7e5e4;padding:.4rem 0}.detail:first-child{border-top:0}
.detail dt{grid-column:1;color:#57534e}.detail dd{display:contents}.detail dd span{grid-column:1;font-weight:700;font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
button.copy{grid-column:2;grid-row:1/span 2;width:auto;min-height:44px;margin:0;padding:.3rem .9rem;font-size:.9375rem}
[hidden]{display:none!important}.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`;
}
