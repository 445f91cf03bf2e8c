import { Hono } from 'hono';
import { chatRequestSchema, type ChatReply } from '../../core/help-text-chat';
import { replyToQuestion } from '../assistant/create-assistant';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../http/context';
import { clientNetwork } from '../http/rate-limit';
import { readJson } from '../http/validate';
import { describeError } from '../log';

/**
 * POST /api/chatbot { message, context: "website_help" } -> { reply } (docs/product.md, API): the help
 * assistant, for signed-out visitors too. A same-origin POST like every dashboard
 * call, limited per client address. The assistants are chosen once, at start (AppDeps).
 */
export function chatbotRoutes({ assistants }: Pick<AppDeps, 'assistants'>) {
  return new Hono<AppEnv>().post('/', async (c) => {
    await c.var.limits.consume('chatMessagesPerAddress', clientNetwork(c), 'Too many messages. Please wait a few minutes and try again.');
    const { message } = await readJson(c, chatRequestSchema);
    const reply = await replyToQuestion(
      message,
      assistants,
      (error) => {
        c.var.deps.logger.warn(
          { requestId: c.var.requestId, error: describeError(error) },
          'help assistant model failed; answered from the help text',
        );
      },
      c.var.deps.stopping,
    );
    return c.json({ reply } satisfies ChatReply);
  });
}
