import { SAFETY_DISCLAIMER } from '../../core/upload-rules';
import { createContext, Suspense, useContext, useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { AppHeader } from './app-header';
import { Spinner } from './spinner';

/** True inside the one signed-in frame that routes.tsx keeps mounted across pages. */
const InSignedInShell = createContext(false);

/**
 * The frame of every signed-in page: skip link, header, content and the safety disclaimer.
 * routes.tsx mounts it once around all signed-in pages, so moving between them keeps the
 * header in place and only the content area waits for a page's code.
 */
export function SignedInShell({ children }: { children: ReactNode }) {
  const [pathname] = useLocation();
  const main = useRef<HTMLElement>(null);
  const shownPath = useRef(pathname);

  // A new page starts at its top, and keyboard and screen-reader users start at its content
  // rather than on the link they followed. The first page keeps the browser's own focus.
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    window.scrollTo(0, 0);
    main.current?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    // The footer's disclaimer steps aside on a screen that already shows it beside its
    // numbers (the results), so it is said once per screen.
    <div className="group/shell flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only rounded-lg bg-green-800 px-4 py-2 font-semibold text-white focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50"
      >
        Skip to main content
      </a>
      <AppHeader />
      <main
        ref={main}
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 outline-none group-has-[[data-safety-disclaimer]]/shell:pb-24 sm:px-6 sm:py-10 sm:group-has-[[data-safety-disclaimer]]/shell:pb-24"
      >
        <InSignedInShell.Provider value={true}>
          <Suspense fallback={<PageLoading />}>{children}</Suspense>
        </InSignedInShell.Provider>
      </main>
      {/* The page ends with room for the chat button (chat-launcher.tsx), so scrolled to the
          bottom it covers nothing: the footer's own padding, or the content's when the footer steps aside. */}
      <footer className="border-t border-stone-200 bg-white pb-20 group-has-[[data-safety-disclaimer]]/shell:hidden print:pb-0">
        <p className="mx-auto max-w-6xl px-4 py-4 text-center text-xs text-stone-600 sm:px-6">{SAFETY_DISCLAIMER}</p>
      </footer>
    </div>
  );
}

/** What the content area shows while a page's code loads; the header stays. */
function PageLoading() {
  return (
    <div className="flex justify-center py-16">
      <Spinner label="Loading the page" />
    </div>
  );
}

/**
 * A signed-in page's content. Inside the shell (every route in routes.tsx) it adds nothing;
 * on its own it brings the whole frame, so a page also renders correctly outside the router.
 */
export function SignedInLayout({ children }: { children: ReactNode }) {
  return useContext(InSignedInShell) ? children : <SignedInShell>{children}</SignedInShell>;
}

/** The safety disclaimer inside a screen's content, in place of the footer's copy. */
export function SafetyDisclaimer({ className = '' }: { className?: string }) {
  return (
    <p data-safety-disclaimer className={`rounded-xl bg-stone-100 px-4 py-3 text-sm text-stone-700 ${className}`}>
      {SAFETY_DISCLAIMER}
    </p>
  );
}

// The title and back link live in their own module, so the crew's app (dashboard/crew/main.tsx) uses
// them without this frame's header.
export { BackLink, PageTitle } from './page-title';
