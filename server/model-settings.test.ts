import { describe, expect, it } from 'vitest';
import { createVisionProvider } from './analysis/vision';
import { createAssistants } from './assistant/create-assistant';
import { loadConfig } from './config';
import { DEFAULT_OPENAI_MODEL, modelSettings, OPENAI_API_URL } from './model-settings';

const config = (env: Record<string, string> = {}) => loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/model-settings-test', PORT: '3000', ...env });

describe('modelSettings: one choice of model for vision and the assistant', () => {
  it('is local with neither a key nor a base URL', () => {
    const local = config();
    expect(modelSettings(local)).toBeNull();
    expect(createVisionProvider(local).name).toBe('local');
    const assistants = createAssistants(local, createVisionProvider(local));
    expect(assistants.model).toBeNull();
    expect(assistants.local.name).toBe('local');
  });

  it("is OpenAI's API with a key, and a self-hosted server with a base URL and no key", () => {
    expect(modelSettings(config({ OPENAI_API_KEY: 'sk-test' }))).toEqual({
      apiKey: 'sk-test',
      baseURL: OPENAI_API_URL,
      model: DEFAULT_OPENAI_MODEL,
      timeoutMs: 60_000,
    });
    expect(modelSettings(config({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_MODEL: 'llava' }))).toMatchObject({
      apiKey: 'not-needed',
      baseURL: 'http://127.0.0.1:11434/v1',
      model: 'llava',
    });
  });

  it('gives vision and the assistant the same answer', () => {
    const withModel = config({ OPENAI_API_KEY: 'sk-test' });
    const vision = createVisionProvider(withModel);
    expect(vision.name).toBe('openai');
    expect(createAssistants(withModel, vision).model?.name).toBe('openai');
  });
});
