import { Bot, Send, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { ASSISTANT_WELCOME, CHAT_ERROR, MAX_CHAT_MESSAGE_CHARS } from '../../../core/help-text-chat';
import { askAssistant } from '../../api/chat';
import { isApiError } from '../../api/client';
import { showErrorToast } from '../toast';
import { ChatMessages, type ChatMessage } from './chat-messages';

interface ChatPanelProps {
  id: string;
  open: boolean;
  onClose: () => void;
}

let nextId = 0;
function message(text: string, isBot: boolean): ChatMessage {
  nextId += 1;
  return { id: nextId, text, isBot, timestamp: new Date() };
}

/**
 * "TreeAnalyzer Assistant" (docs/product.md, Help assistant and admin log): a welcome message, Enter sends and Shift+Enter
 * adds a line, a typing indicator while waiting (input and send disabled), a timestamp on
 * each message, blank messages not sent, "Chat Error" on failure. A non-modal dialog: the
 * page stays usable beside it; focus moves in on open and Escape closes it.
 */
export function ChatPanel({ id, open, onClose }: ChatPanelProps) {
  const [messages, setMessages] = useState<ChatMessage[]>(() => [message(ASSISTANT_WELCOME, true)]);
  const [draft, setDraft] = useState('');
  const [waiting, setWaiting] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const titleId = useId();
  const inputId = useId();

  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);

  // Disabling the input while waiting drops its focus; it comes back with the reply.
  useEffect(() => {
    if (!waiting && open && (document.activeElement === document.body || document.activeElement === null)) inputRef.current?.focus();
  }, [waiting, open]);

  async function send(event?: FormEvent) {
    event?.preventDefault();
    const text = draft.trim();
    if (!text || waiting) return;
    setMessages((list) => [...list, message(text, false)]);
    setDraft('');
    setWaiting(true);
    try {
      const reply = await askAssistant(text);
      setMessages((list) => [...list, message(reply, true)]);
    } catch (error) {
      // Too many messages says how long to wait; anything else is the spec's apology.
      const description = isApiError(error, 'RATE_LIMITED') ? error.message : CHAT_ERROR.description;
      showErrorToast({ title: CHAT_ERROR.title, description });
      // The question stays in the box to send again.
      setDraft((current) => current || text);
    } finally {
      setWaiting(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }

  return (
    <section
      id={id}
      role="dialog"
      aria-labelledby={titleId}
      hidden={!open}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
      className="fixed right-4 bottom-22 left-4 z-40 flex max-h-[calc(100dvh-7rem)] flex-col overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-xl sm:left-auto sm:w-96 print:hidden [&[hidden]]:hidden"
    >
      <header className="flex items-center justify-between gap-3 bg-green-800 px-4 py-3 text-white">
        <h2 id={titleId} className="flex items-center gap-2 text-base font-semibold">
          <Bot aria-hidden="true" className="size-5" />
          TreeAnalyzer Assistant
        </h2>
        <button
          type="button"
          aria-label="Close chat"
          onClick={onClose}
          className="-m-1 rounded-lg p-1.5 text-white hover:bg-green-900 focus-visible:outline-white"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </header>
      <ChatMessages messages={messages} waiting={waiting} />
      <form onSubmit={(event) => void send(event)} className="flex items-end gap-2 border-t border-stone-200 p-3">
        <label htmlFor={inputId} className="sr-only">
          Your message
        </label>
        <textarea
          ref={inputRef}
          id={inputId}
          rows={2}
          value={draft}
          maxLength={MAX_CHAT_MESSAGE_CHARS}
          disabled={waiting}
          placeholder="Ask a question..."
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          className="max-h-32 min-h-11 flex-1 resize-none rounded-lg border border-stone-300 bg-white px-3 py-2 text-base text-stone-900 placeholder:text-stone-500 hover:border-stone-400 disabled:bg-stone-100 sm:text-sm"
        />
        <button
          type="submit"
          aria-label="Send message"
          disabled={waiting || draft.trim() === ''}
          className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-green-800 text-white hover:bg-green-900 disabled:cursor-not-allowed disabled:opacity-60"
        >
          <Send aria-hidden="true" className="size-5" />
        </button>
      </form>
    </section>
  );
}
