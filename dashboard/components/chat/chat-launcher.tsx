import { MessageCircle, X } from 'lucide-react';
import { lazy, Suspense, useId, useRef, useState } from 'react';

/*
 * The panel, the help client and its schema load on the first open, outside every page's
 * first load (build/first-load.test.ts keeps /login under budget).
 */
const ChatPanel = lazy(() => import('./chat-panel').then((m) => ({ default: m.ChatPanel })));

/**
 * The floating chat button on every dashboard page (docs/product.md,
 * Screens), for guests and signed-in users alike. The embed is a page of its own
 * (widget/), so it never shows this. Once opened, the panel stays mounted (hidden when
 * closed) so the conversation survives closing it and moving between pages.
 */
export function ChatLauncher() {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  function close() {
    setOpen(false);
    buttonRef.current?.focus();
  }

  return (
    <>
      {opened ? (
        <Suspense fallback={null}>
          <ChatPanel id={panelId} open={open} onClose={close} />
        </Suspense>
      ) : null}
      <button
        ref={buttonRef}
        type="button"
        aria-label="Chat with TreeAnalyzer Assistant"
        aria-expanded={open}
        aria-controls={opened ? panelId : undefined}
        onClick={() => {
          if (open) return close();
          setOpened(true);
          setOpen(true);
        }}
        className="fixed right-4 bottom-4 z-40 flex size-14 items-center justify-center rounded-full bg-green-800 text-white shadow-lg hover:bg-green-900 print:hidden"
      >
        {open ? <X aria-hidden="true" className="size-6" /> : <MessageCircle aria-hidden="true" className="size-6" />}
      </button>
    </>
  );
}
