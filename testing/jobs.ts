import { expect } from 'vitest';
import { jobResponseSchema, type Job } from '../core/jobs';
import { analyze } from './analysis';
import type { TestClient } from './harness';

/** Jobs over HTTP in tests (docs/product.md, Jobs and quotes): the answers' checks every jobs test makes. */

/** The job an answer carries, once its status is the one expected (the body is shown when it is not). */
export async function jobOf(res: Response, status = 200): Promise<Job> {
  expect(res.status, await res.clone().text()).toBe(status);
  return jobResponseSchema.parse(await res.json()).job;
}

/** A new analysis of the client's (a real photo and `description`), by its id. */
export async function analysisIdOf(client: TestClient, description = 'oak, 16 inch trunk, 40 ft tall'): Promise<number> {
  const res = await analyze(client, { description });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { analysis: { id: number } }).analysis.id;
}
