import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { jobOf } from '../../testing/jobs';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';

/*
 * The customer's quote e-mail from the real app (quote-emails.ts quoteLinkEmail): it speaks of
 * optional items only when the quote has some. A walk through the product found "choose any optional items" in the
 * e-mail of a quote that had none.
 */
let server: TestServer;
let owner: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  owner = (await registerClient(server)).client;
});
afterAll(() => server.close());

/** The quote e-mail the customer `to` receives for a job of `lines`, as sent. */
async function quoteEmailFor(to: string, lines: { description: string; price: string; optional?: boolean }[]): Promise<string> {
  const job = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Jo Ash', email: to } }), 201);
  for (const line of lines) await jobOf(await owner.post(`/api/jobs/${job.id}/lines`, line), 201);
  await jobOf(await owner.post(`/api/jobs/${job.id}/send`, {}));
  await mailSettled(server);
  const mail = outboxMessages(server.dataDir).find((m) => addressedTo(m.text, to));
  expect(mail, to).toBeDefined();
  return mail!.text;
}

describe("the customer's quote e-mail", () => {
  it('says nothing of optional items when the quote has none', async () => {
    const text = await quoteEmailFor('no.options@example.com', [{ description: 'Fell the leylandii', price: '600' }]);
    expect(text).toContain('Read it and accept, decline or ask for a change here:');
    expect(text).not.toMatch(/optional/i);
  });

  it('asks the customer to choose the optional items when there are some', async () => {
    const text = await quoteEmailFor('with.options@example.com', [
      { description: 'Fell the leylandii', price: '600' },
      { description: 'Reduce the beech hedge by 1 m', price: '175', optional: true },
    ]);
    expect(text).toContain('with optional items you can add.');
    expect(text).toContain('Read it, choose any optional items and accept, decline or ask for a change here:');
  });
});
