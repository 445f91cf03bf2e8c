import type { Config } from '../config';
import { modelSettings } from '../model-settings';
import type { VisionProvider } from './types';
import { createLocalVisionProvider } from './vision-local';
import { createOpenAIVisionProvider } from './vision-openai';

/** The model that reads the photo, or the honest local provider (server/model-settings.ts chooses). */
export function createVisionProvider(config: Config): VisionProvider {
  const settings = modelSettings(config);
  return settings ? createOpenAIVisionProvider(settings) : createLocalVisionProvider();
}
