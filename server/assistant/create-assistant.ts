import type { Config } from '../config';
import { DEFAULT_OPENAI_MODEL } from '../analysis/vision';
import type { HelpOptions } from '../../core/help-text';
import { createLocalAssistant } from './local-answerer';
import { CHAT_TIMEOUT_MS, createOpenAIAssistant } from './openai-assistant';
import type { Assistant } from './types';

export interface Assistants {
  /** The model when one is configured (the same settings as vision), else null. */
  model: Assistant | null;
  /** Always there: answers when no model is configured, and when the model fails. */
  local: Assistant;
}

/** Chosen once at start (CONVENTIONS 2), from the same OPENAI_* settings as the vision provider. */
export function createAssistants(config: Config, help: HelpOptions): Assistants {
  const local = createLocalAssistant(help);
  const { apiKey, baseUrl, model, timeoutMs } = config.openai;
  if (!apiKey && !baseUrl) return { model: null, local };
  return {
    model: createOpenAIAssistant({
      // Self-hosted servers (Ollama, vLLM, llama.cpp) accept any key.
      apiKey: apiKey ?? 'not-needed',
      baseURL: baseUrl ?? 'https://api.openai.com/v1',
      model: model ?? DEFAULT_OPENAI_MODEL,
      timeoutMs: Math.min(timeoutMs, CHAT_TIMEOUT_MS),
      help,
    }),
    local,
  };
}

/**
 * The assistant's reply to one question: the model's when it answers, else the local
 * answerer's, so a visitor always gets help (DECISIONS: always replying). The model's
 * failure goes to `onModelFailure` for the operator's log.
 */
export async function replyToQuestion(
  question: string,
  assistants: Assistants,
  onModelFailure: (error: unknown) => void,
  signal?: AbortSignal,
): Promise<string> {
  if (!assistants.model) return assistants.local.answer(question);
  try {
    return await assistants.model.answer(question, signal);
  } catch (error) {
    onModelFailure(error);
    return assistants.local.answer(question);
  }
}
