import type { Config } from '../config';
import { readsPhotos, type VisionProvider } from '../analysis/types';
import { modelSettings } from '../model-settings';
import { createLocalAssistant } from './local-answerer';
import { CHAT_TIMEOUT_MS, createOpenAIAssistant } from './openai-assistant';
import type { Assistant } from './types';

export interface Assistants {
  /** The model when one is configured (the same settings as vision), else null. */
  model: Assistant | null;
  /** Always there: answers when no model is configured, and when the model fails. */
  local: Assistant;
}

/**
 * Chosen once at start (CONVENTIONS 2) by the same choice as the vision provider
 * (server/model-settings.ts); the help text says whether that provider reads photos.
 */
export function createAssistants(config: Config, vision: VisionProvider): Assistants {
  const help = { visionModel: readsPhotos(vision), passDailyCap: config.passDailyCap };
  const local = createLocalAssistant(help);
  const settings = modelSettings(config);
  if (!settings) return { model: null, local };
  return {
    model: createOpenAIAssistant({ ...settings, timeoutMs: Math.min(settings.timeoutMs, CHAT_TIMEOUT_MS), help }),
    local,
  };
}

/**
 * The assistant's reply to one question: the model's when it answers, else the local
 * answerer's, so a visitor always gets help (it always replies: docs/product.md, Help assistant and admin log). The model's
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
