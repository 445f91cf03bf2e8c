import { Copy, ExternalLink } from 'lucide-react';
import { useId, useRef } from 'react';
import { iframeSnippet, scriptSnippet } from '../../../core/embed';
import { showErrorToast, showToast } from '../toast';
import { buttonStyles } from '../ui';

/**
 * Copies to the clipboard; when the browser refuses (no permission, a page not served
 * over https), the code box is selected instead so the user can copy it by hand.
 */
async function copySnippet(text: string, box: HTMLTextAreaElement | null): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    showToast({ title: 'Copied!', description: 'Embed code copied to clipboard' });
  } catch {
    box?.focus();
    box?.select();
    showErrorToast({ title: 'Could not copy', description: 'The code is selected: press Ctrl+C (or ⌘C) to copy it.' });
  }
}

function Snippet({ label, hint, code, copyLabel, rows }: { label: string; hint: string; code: string; copyLabel: string; rows: number }) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <label htmlFor={id} className="text-sm font-medium text-stone-800">
            {label}
          </label>
          <p id={`${id}-hint`} className="text-xs text-stone-600">
            {hint}
          </p>
        </div>
        <button type="button" className={buttonStyles.secondary} onClick={() => void copySnippet(code, box.current)}>
          <Copy aria-hidden="true" className="size-4" />
          {copyLabel}
        </button>
      </div>
      {/*
        Read-only, so it can still be focused and selected by hand; selecting it all on focus
        saves a drag. It grows to its code where the browser can (field-sizing), else `rows`.
      */}
      <textarea
        ref={box}
        id={id}
        readOnly
        rows={rows}
        value={code}
        spellCheck={false}
        aria-describedby={`${id}-hint`}
        onFocus={(event) => event.currentTarget.select()}
        className="field-sizing-content max-h-60 w-full resize-none rounded-lg border border-stone-300 bg-stone-50 px-3 py-2 font-mono text-xs leading-relaxed break-all text-stone-900"
      />
    </div>
  );
}

/**
 * docs/product.md, Embed widget: both ways to put the estimator on a website,
 * with the code in view, and a Preview of /embed/{slug} in a new tab.
 */
export function EmbedCode({ slug, name }: { slug: string; name: string }) {
  // The snippets point at the address this dashboard is served from, which is the server's.
  const origin = window.location.origin;
  return (
    <div className="flex flex-col gap-4">
      <Snippet
        label="Embed code (iframe)"
        hint="Paste into any web page. Works everywhere, including site builders."
        code={iframeSnippet(origin, slug)}
        copyLabel="Copy Embed"
        rows={4}
      />
      <Snippet
        label="Script tag"
        hint="Puts the estimator straight into your page, sized to fit."
        code={scriptSnippet(origin, slug)}
        copyLabel="Copy Script Tag"
        rows={3}
      />
      <a href={`/embed/${slug}`} target="_blank" rel="noopener" className={`${buttonStyles.secondary} self-start`}>
        <ExternalLink aria-hidden="true" className="size-4" />
        Preview
        <span className="sr-only">{` the estimator for ${name} (opens in a new tab)`}</span>
      </a>
    </div>
  );
}
