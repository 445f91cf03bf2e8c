import { grantTo } from './analysis';
import { startFakePlanning } from './fake-planning';
import { startTestServer, type TestClient, type TestServer } from './harness';
import { mailSettled } from './mail';
import { acceptQuote, ownerWithProfile, sentLinesJob } from './quote-links';

/**
 * The protected-trees tests' world: the fake services, an app asking them, and an owner with a
 * company profile and 100 credits. `close` stops both.
 */
export async function startProtectionWorld() {
  const fake = await startFakePlanning();
  const server = await startTestServer({ POSTCODE_LOOKUP_URL: fake.url, PLANNING_DATA_URL: fake.url });
  const registered = await ownerWithProfile(server);
  grantTo(server, registered.account.username, 100);
  return {
    fake,
    server,
    owner: registered.client,
    close: async () => {
      await server.close();
      await fake.close();
    },
  };
}

/**
 * A one-line job for Sam Hill at `siteAddress`, sent to `email` and accepted by the customer's link;
 * its id. The customer asks to start within their 14 days, so only a protected tree's hold decides
 * the dates these tests book (the cancellation period's own tests: jobs.early-start.test.ts).
 */
export async function acceptedLineJob(server: TestServer, owner: TestClient, email: string, siteAddress: string, line: string): Promise<number> {
  const { job, token } = await sentLinesJob(server, owner, { name: 'Sam Hill', email, siteAddress }, [{ description: line, price: '400' }]);
  const accepted = await acceptQuote(server, token, [], true);
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${await accepted.text()}`);
  await mailSettled(server);
  return job.id;
}

/** POST /api/jobs/{id}/book, its e-mail (if any) settled before the answer is looked at. */
export async function bookJob(server: TestServer, owner: TestClient, jobId: number, body: unknown): Promise<Response> {
  const res = await owner.post(`/api/jobs/${jobId}/book`, body);
  await mailSettled(server);
  return res;
}
