import type { Plugin } from 'vite';
import { shadowSafeCss } from '../shadow-css';

/**
 * Applies widget/shadow-css.ts to the estimator's stylesheet. A plugin without `enforce`
 * runs after @tailwindcss/vite (enforce: 'pre') has compiled the CSS and before Vite
 * turns the `?inline` import into a JS string, so it sees plain CSS.
 */
export function shadowCssPlugin(stylesheet: RegExp): Plugin {
  return {
    name: 'tree-estimator:shadow-css',
    transform(code, id) {
      if (!stylesheet.test(id)) return null;
      return { code: shadowSafeCss(code), map: null };
    },
  };
}
