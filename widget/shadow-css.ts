/**
 * Build-time rewrites that make Tailwind v4's compiled CSS safe inside a shadow root on
 * somebody else's page. Pure string work on the compiled CSS (formatted or minified), so
 * it is unit tested without a browser and run by the widget's Vite build.
 */

/**
 * Tailwind v4 declares its `--tw-*` variables with `@property` (initial values such as
 * `--tw-border-style: solid`). `@property` is ignored inside a shadow root, so Tailwind
 * also emits plain fallbacks, but only under an `@supports` guard that targets browsers
 * without `@property`: in Chromium and Firefox the guard is false, the variables stay
 * unset and borders, shadows and rings vanish (tailwindcss#15005). This unwraps that
 * guard and adds `:host` to the fallback rule's selector, so the values always apply.
 */
export function unconditionalPropertyFallbacks(css: string): string {
  let out = '';
  let index = 0;
  for (;;) {
    const at = css.indexOf('@supports', index);
    if (at === -1) break;
    const open = findOpeningBrace(css, at);
    if (open === -1) break;
    const close = matchingBrace(css, open);
    if (close === -1) break;
    const body = css.slice(open + 1, close);
    out += css.slice(index, at);
    out += declaresOnlyTailwindVariables(body) ? withHostSelector(body) : css.slice(at, close + 1);
    index = close + 1;
  }
  return out + css.slice(index);
}

/** A `@supports` block whose rules set nothing but `--tw-*` variables is Tailwind's fallback. */
function declaresOnlyTailwindVariables(body: string): boolean {
  const declarations = [...body.matchAll(/[{;]\s*([^{};:]+?)\s*:/g)].map((m) => m[1] ?? '');
  return declarations.length > 0 && declarations.every((property) => property.startsWith('--tw-'));
}

/** `*, ::before, ::after, ::backdrop` (in any spacing, `:before` too) gains `:host`. */
function withHostSelector(rules: string): string {
  return rules.replace(/(^|})(\s*)([^{}]+)\{/g, (whole, before: string, space: string, selector: string) => {
    const parts = selector.split(',').map((part) => part.trim());
    if (!parts.includes('*') || parts.includes(':host')) return whole;
    return `${before}${space}:host,${selector.trim()}{`;
  });
}

/**
 * Every `rem` length becomes px at a 16px base: a host page's `html { font-size }`
 * scales rem even inside a shadow root, and the estimator must look the same anywhere.
 * Selectors are left alone (an escaped class such as `.w-\[2rem\]` must keep matching
 * its element); declarations and at-rule preludes (`@media (width >= 40rem)`) change.
 */
export function remToPx(css: string, base = 16): string {
  let out = '';
  let segmentStart = 0;
  let quote: string | null = null;
  for (let i = 0; i < css.length; i++) {
    const ch = css[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      continue;
    }
    if (ch === '{' || ch === '}' || ch === ';') {
      const segment = css.slice(segmentStart, i);
      const isSelector = ch === '{' && !segment.trimStart().startsWith('@');
      out += (isSelector ? segment : convertRem(segment, base)) + ch;
      segmentStart = i + 1;
    }
  }
  return out + convertRem(css.slice(segmentStart), base);
}

/** A number (not part of a word or escape) directly followed by `rem`. */
const REM_LENGTH = /(?<![\w\\.-])(-?)(\d*\.?\d+)rem\b/g;

/** Quoted strings (`content: "3rem"`) are text, not lengths. */
const QUOTED = /("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/;

function convertRem(text: string, base: number): string {
  return text
    .split(QUOTED)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(REM_LENGTH, (_whole, sign: string, amount: string) => {
            const px = Number((Number(amount) * base).toFixed(4));
            return `${sign}${px}px`;
          }),
    )
    .join('');
}

/** Both rewrites, in the order the build applies them. */
export function shadowSafeCss(css: string): string {
  return remToPx(unconditionalPropertyFallbacks(css));
}

function findOpeningBrace(css: string, from: number): number {
  for (let i = from; i < css.length; i++) {
    if (css[i] === '{') return i;
    if (css[i] === ';' || css[i] === '}') return -1;
  }
  return -1;
}

/** The `}` closing the block opened at `open`, skipping quoted strings. */
function matchingBrace(css: string, open: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < css.length; i++) {
    const ch = css[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '{') {
      depth++;
    } else if (ch === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}
