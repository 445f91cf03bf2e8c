import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeResponseSchema } from '../../core/analysis';
import { QUOTE_CUSTOMER_NAME_MAX, QUOTE_SITE_ADDRESS_MAX } from '../../core/quote';
import { analyze, grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';

/** The quote's query and its prefill, refused: too long, or not the user's analysis. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function ownAnalysisId() {
  const { client, account } = await registerClient(server);
  grantTo(server, account.username, 10);
  const res = await analyze(client, { description: 'oak, 16 inch trunk, 40 ft tall' });
  return { client, id: analyzeResponseSchema.parse(await res.json()).analysis.id };
}

describe('the quote PDF refuses', () => {
  it('a customer name or site address past its bound, naming the field', async () => {
    const { client, id } = await ownAnalysisId();
    const cases: [string, string][] = [
      ['customerName', 'N'.repeat(QUOTE_CUSTOMER_NAME_MAX + 1)],
      ['siteAddress', 'A'.repeat(QUOTE_SITE_ADDRESS_MAX + 1)],
    ];
    for (const [field, value] of cases) {
      const res = await client.get(`/api/analysis/${id}/report.pdf?${new URLSearchParams({ [field]: value })}`);
      expect(res.status, field).toBe(400);
      const body = await res.json();
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(body.details)).toEqual([field]);
    }
    // At the bound, it prints.
    const ok = await client.get(`/api/analysis/${id}/report.pdf?${new URLSearchParams({ customerName: 'N'.repeat(QUOTE_CUSTOMER_NAME_MAX) })}`);
    expect(ok.status).toBe(200);
  });

  it("another user's analysis: neither its quote nor its lead's name, and nothing without a session", async () => {
    const { id } = await ownAnalysisId();
    const { client: stranger } = await registerClient(server);
    expect((await stranger.get(`/api/analysis/${id}/quote-recipient`)).status).toBe(404);
    expect((await stranger.get(`/api/analysis/${id}/report.pdf?customerName=x`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/analysis/${id}/quote-recipient`)).status).toBe(401);
  });
});
