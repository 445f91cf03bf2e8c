import { chatReplySchema } from '../../core/help-text-chat';
import { request } from './client';

/** POST /api/chatbot: the help assistant's reply to one message. Signed in or not. */
export async function askAssistant(message: string): Promise<string> {
  const { reply } = await request('POST', '/api/chatbot', {
    body: { message, context: 'website_help' },
    schema: chatReplySchema,
  });
  return reply;
}
