import type { Config } from './config';

/** The model asked when OPENAI_MODEL is not set. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

/** OpenAI's own API, when OPENAI_BASE_URL is not set. */
export const OPENAI_API_URL = 'https://api.openai.com/v1';

/** How to reach an OpenAI-compatible model: what the vision provider and the help assistant take. */
export interface ModelSettings {
  apiKey: string;
  /** Always explicit, so the SDK never reads OPENAI_BASE_URL behind config's back. */
  baseURL: string;
  model: string;
  timeoutMs: number;
}

/**
 * The one choice between a model and the local providers, made once at start (CONVENTIONS 2)
 * for vision and the help assistant alike: a model when a key or a self-hosted base URL is
 * configured, else null and both use their honest local implementation.
 */
export function modelSettings(config: Config): ModelSettings | null {
  const { apiKey, baseUrl, model, timeoutMs } = config.openai;
  if (!apiKey && !baseUrl) return null;
  return {
    // Self-hosted servers (Ollama, vLLM, llama.cpp) accept any key.
    apiKey: apiKey ?? 'not-needed',
    baseURL: baseUrl ?? OPENAI_API_URL,
    model: model ?? DEFAULT_OPENAI_MODEL,
    timeoutMs,
  };
}
