import { expect } from 'vitest';
import { invoiceResponseSchema, type Invoice } from '../core/invoices';

/** Invoices over HTTP in tests (docs/product.md, Getting paid): the invoice an answer carries, once its status is the one expected. */
export async function invoiceOf(res: Response, status = 200): Promise<Invoice> {
  expect(res.status, await res.clone().text()).toBe(status);
  return invoiceResponseSchema.parse(await res.json()).invoice;
}
