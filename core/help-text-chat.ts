import { z } from 'zod';

/**
 * The help assistant's API over the help text (POST /api/chatbot { message, context }
 * answers { reply }; docs/product.md, API), shared by the server and the chat panel.
 */

/** Long enough for any question about the product; a pasted essay is refused (400). */
export const MAX_CHAT_MESSAGE_CHARS = 1000;

export const chatRequestSchema = z.object({
  message: z
    .string({ message: 'Please type a message' })
    .trim()
    .min(1, 'Please type a message')
    .max(MAX_CHAT_MESSAGE_CHARS, `Please keep your message under ${MAX_CHAT_MESSAGE_CHARS} characters`),
  /** The dashboard sends "website_help"; the only context there is. */
  context: z.literal('website_help').default('website_help'),
});
export type ChatRequest = z.input<typeof chatRequestSchema>;

export const chatReplySchema = z.object({ reply: z.string().min(1) });
export type ChatReply = z.infer<typeof chatReplySchema>;

/** The chat panel's first message (docs/product.md, Help assistant and admin log: a welcome message). */
export const ASSISTANT_WELCOME =
  "Hello! I'm the TreeAnalyzer Assistant. Ask me how estimates work, about credits and plans, embedding the estimator on your website, or tree-work safety.";

/** The toast when the assistant cannot answer. */
export const CHAT_ERROR = { title: 'Chat Error', description: "Sorry, I couldn't respond right now. Please try again." } as const;
