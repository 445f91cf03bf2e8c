import { useEffect, useRef } from 'react';

/** A chat message has an id, text, whether the bot said it, and a timestamp. */
export interface ChatMessage {
  id: number;
  text: string;
  isBot: boolean;
  timestamp: Date;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/**
 * The conversation as a live log (screen readers announce each new message), newest at the
 * bottom and scrolled into view, with the typing indicator while a reply is on its way.
 */
export function ChatMessages({ messages, waiting }: { messages: ChatMessage[]; waiting: boolean }) {
  const logRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages, waiting]);

  return (
    <div
      ref={logRef}
      role="log"
      aria-label="Conversation"
      // Scrollable content must be reachable by keyboard (axe: scrollable-region-focusable).
      tabIndex={0}
      className="flex min-h-40 flex-1 flex-col gap-3 overflow-y-auto bg-stone-50 p-4"
    >
      {messages.map((m) => (
        <div key={m.id} className={`flex max-w-[85%] flex-col gap-1 ${m.isBot ? 'self-start' : 'items-end self-end'}`}>
          <p
            className={`rounded-2xl px-3 py-2 text-sm whitespace-pre-wrap break-words ${
              m.isBot ? 'rounded-bl-sm border border-stone-200 bg-white text-stone-800' : 'rounded-br-sm bg-green-800 text-white'
            }`}
          >
            <span className="sr-only">{m.isBot ? 'Assistant: ' : 'You: '}</span>
            {m.text}
          </p>
          <time dateTime={m.timestamp.toISOString()} className="px-1 text-xs text-stone-600">
            {timeFormat.format(m.timestamp)}
          </time>
        </div>
      ))}
      {waiting ? (
        <div role="status" className="flex items-center gap-1 self-start rounded-2xl rounded-bl-sm border border-stone-200 bg-white px-3 py-3">
          <span className="sr-only">TreeAnalyzer Assistant is typing</span>
          {[0, 150, 300].map((delay) => (
            <span
              key={delay}
              aria-hidden="true"
              style={{ animationDelay: `${delay}ms` }}
              className="size-2 animate-bounce rounded-full bg-stone-500"
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}
