import { grantTo } from './analysis';
import { startFakePlanning } from './fake-planning';
import { startTestServer } from './harness';
import { ownerWithProfile } from './quote-links';

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
