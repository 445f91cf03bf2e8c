/**
 * The help assistant (docs/product.md, Help assistant and admin log): a model when one is configured, else the
 * local answerer over the product's help text. Both answer a visitor's question with text.
 */
export interface Assistant {
  name: 'openai' | 'local';
  answer(question: string, signal?: AbortSignal): Promise<string>;
}

/** A model assistant that could not answer; the cause (timeout, HTTP status) is for the log only. */
export class AssistantError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'AssistantError';
  }
}
