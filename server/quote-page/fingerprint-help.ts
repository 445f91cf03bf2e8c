import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { FINGERPRINT_HELP_PATH } from '../jobs/quote-flow';
import { escapeHtml, htmlDocument } from './html';
import { html, pageHeaders } from './page-response';

/**
 * How to check a quote's fingerprint, `/help/quote-fingerprint` (docs/product.md, Jobs and quotes:
 * evidence): the page the acceptance e-mail's "Fingerprint" line links to, in place of the
 * instructions it used to carry. The steps are core/quote-copy.ts's: the copy the link serves
 * without its answer, as canonical JSON (RFC 8785), then its SHA-256. One page for every
 * customer: it holds no token and nothing of any account.
 */
export const fingerprintHelpRoutes = new Hono<AppEnv>();

fingerprintHelpRoutes.use(FINGERPRINT_HELP_PATH, pageHeaders);

function fingerprintHelpPage(origin: string, nonce: string): string {
  const example = `${origin}/api/quotes/`;
  const body = `<main>
<h1>Checking the fingerprint of a quote you accepted</h1>
<div class="card">
<p>When you accept a quote online, the e-mail confirming it ends with a line like <code>Fingerprint: 3f2a9c1e…</code>. The fingerprint is worked out from the exact quote you were shown, so either side can later show that the quote was not changed after you accepted it. If even one character of the quote changed, the fingerprint would be completely different.</p>
<p>You do not need to do anything with it. Keep the e-mail and the PDF that came with it.</p>
</div>
<div class="card">
<h2>How to check it</h2>
<ol>
<li>Take the link to your quote from the e-mail, <code>${escapeHtml(origin)}/quote/</code> followed by a long code, and put <code>/api/quotes/</code> in place of <code>/quote/</code>: <code>${escapeHtml(example)}</code> followed by the same code.</li>
<li>Open that address. It answers the quote as data (JSON). Take the part named <code>"quote"</code>, and leave out its <code>"answer"</code> field.</li>
<li>Write that as JSON with every object's keys in alphabetical order and no spaces or line breaks (the canonical form of RFC 8785).</li>
<li>Work out the SHA-256 of that text, written in hexadecimal. It must be the same as the fingerprint in your e-mail.</li>
</ol>
<p>For example, on a computer with <code>curl</code>, <code>jq</code> and <code>sha256sum</code>:</p>
<p><code class="hash">curl -s "${escapeHtml(example)}YOUR-CODE" | jq -cjS '.quote | del(.answer)' | sha256sum</code></p>
<p class="hint">The link is yours alone: anyone holding it can read the quote, so share it only with someone you trust to check it.</p>
</div>
</main>`;
  return htmlDocument({ title: 'Checking a quote’s fingerprint', body, accentColor: null, nonce });
}

fingerprintHelpRoutes.get(FINGERPRINT_HELP_PATH, (c) => html(c, (nonce) => fingerprintHelpPage(c.var.deps.config.publicUrl.replace(/\/$/, ''), nonce)));
