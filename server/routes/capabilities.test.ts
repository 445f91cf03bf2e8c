import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilitiesSchema } from '../../core/tree-details';
import { startTestServer, type TestServer } from '../../testing/harness';

let local: TestServer;
let model: TestServer;
beforeAll(async () => {
  local = await startTestServer();
  // A self-hosted model server needs no key; the base URL alone configures it. Nothing is called here.
  model = await startTestServer({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
});
afterAll(async () => {
  await local.close();
  await model.close();
});

describe('GET /api/capabilities', () => {
  it('says, without a session, whether a vision model reads the photo', async () => {
    const none = await fetch(`${local.url}/api/capabilities`);
    expect(none.status).toBe(200);
    expect(capabilitiesSchema.parse(await none.json())).toEqual({ visionModel: false });
    const configured = await fetch(`${model.url}/api/capabilities`);
    expect(capabilitiesSchema.parse(await configured.json())).toEqual({ visionModel: true });
  });
});
