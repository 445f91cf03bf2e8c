import { pageStyle } from './page-style';

/** Text and attribute values made safe inside HTML: every name, address and term is someone's typing. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** What goes into one page: its title, body, accent, and the one script (the quote page's live total) if any. */
export interface PageParts {
  title: string;
  body: string;
  accentColor: string | null;
  /** This answer's CSP nonce, on the inline <style> and <script> (routes.ts writes the policy). */
  nonce: string;
  script?: string;
}

/** A whole page: never indexed, never followed back by a referrer, no resource from anywhere. */
export function htmlDocument(parts: PageParts): string {
  const nonce = escapeHtml(parts.nonce);
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(parts.title)}</title>
<style nonce="${nonce}">${pageStyle(parts.accentColor)}</style>
</head>
<body>
${parts.body}
${parts.script ? `<script nonce="${nonce}">${parts.script}</script>` : ''}
</body>
</html>`;
}

/** Whom to ask on a page for a link that is gone: the business's name and phone as the quote had them. */
function senderLines(sender: { name: string; phone: string }): string {
  const name = sender.name ? `<p><strong>${escapeHtml(sender.name)}</strong></p>` : '';
  const phone = sender.phone ? `<p>Phone: <a href="tel:${escapeHtml(sender.phone.replace(/[^\d+]/g, ''))}">${escapeHtml(sender.phone)}</a></p>` : '';
  return `<h2>Who sent it</h2>${name}${phone}`;
}

/**
 * The small page for a link that opens nothing (404 unknown, 410 withdrawn, replaced or expired)
 * or an answer that could not be taken (429, 413, 415...): the plain message and nothing of any
 * account, not even the business's colour. A link that was real but is gone (410) names the
 * business and its phone (`sender`), since its message tells the customer to ask them; an
 * unknown one names nobody.
 */
export function messagePage(heading: string, message: string, nonce: string, back?: string, sender?: { name: string; phone: string } | null): string {
  const link = back ? `<p><a href="${escapeHtml(back)}">Back to the quote</a></p>` : '';
  return htmlDocument({
    title: heading,
    accentColor: null,
    nonce,
    body: `<main><div class="card"><h1>${escapeHtml(heading)}</h1><p>${escapeHtml(message)}</p>${link}${sender ? senderLines(sender) : ''}</div></main>`,
  });
}
