/**
 * Whether a request for the customer's page is a person opening it, so that it counts as the
 * quote's first view and tells the owner (docs/product.md, Jobs and quotes: the customer's page).
 *
 * Mail security scanners (link checkers in business mail, previewers, chat unfurlers) fetch every
 * link in an e-mail as it arrives; counting those would tell the surgeon "opened" before anyone
 * had. A browser opening the link, from a mail app or a click, sends the Fetch Metadata of a
 * user's top-level navigation (Sec-Fetch-Mode: navigate, Sec-Fetch-Dest: document,
 * Sec-Fetch-User: ?1); an HTTP client does not. Known robots are refused by name as well. What
 * this cannot tell apart, a scanner that drives a whole browser, still counts: a view is a hint
 * to the surgeon, never evidence (an answer is). A browser too old to send Fetch Metadata (before
 * Safari 16.4) is not counted; its answer still is, and the JSON API's GET counts as ever.
 */
const ROBOT = /bot\b|bot\/|crawl|spider|slurp|preview|scanner|safelinks|proofpoint|mimecast|barracuda|linkcheck|facebookexternalhit|whatsapp|curl|wget|python|java\/|go-http|okhttp|axios|node-fetch|undici|libwww/i;

export function openedByPerson(header: (name: string) => string | undefined): boolean {
  if (header('sec-fetch-mode') !== 'navigate' || header('sec-fetch-dest') !== 'document' || header('sec-fetch-user') !== '?1') return false;
  return !ROBOT.test(header('user-agent') ?? '');
}
