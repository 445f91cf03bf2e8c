import type { Config } from '../config';
import type { VisionProvider } from './types';
import { createLocalVisionProvider } from './vision-local';
import { createOpenAIVisionProvider } from './vision-openai';

/**
 * Chosen once at start (CONVENTIONS 2): an OpenAI-compatible model when a key or a
 * self-hosted base URL is configured, else the honest local provider.
 */
export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

export function createVisionProvider(config: Config): VisionProvider {
  const { apiKey, baseUrl, model, timeoutMs } = config.openai;
  if (!apiKey && !baseUrl) return createLocalVisionProvider();
  return createOpenAIVisionProvider({
    // Self-hosted servers (Ollama, vLLM, llama.cpp) accept any key.
    apiKey: apiKey ?? 'not-needed',
    baseURL: baseUrl,
    model: model ?? DEFAULT_OPENAI_MODEL,
    timeoutMs,
  });
}
