import { expect } from '@playwright/test';

/** An API answer's JSON, once its status is the one expected (the body is shown when it is not). */
export async function ok<T>(response: Promise<{ status(): number; text(): Promise<string>; json(): Promise<unknown> }>, status = 200): Promise<T> {
  const res = await response;
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}
