const PRODUCT_NAME = 'TreeAnalyzer Pro';

/** "History · TreeAnalyzer Pro": each screen names itself first, for tabs, history and screen readers. */
export function documentTitle(pageTitle: string): string {
  return `${pageTitle} · ${PRODUCT_NAME}`;
}
