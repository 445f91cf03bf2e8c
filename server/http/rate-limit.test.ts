import { describe, expect, it } from 'vitest';
import { networkOf } from './client-network';
import { RateLimits, SITE_ALLOWANCE } from './rate-limit';

/** The /56 beside the /64 (rate-limit.ts SITE_ALLOWANCE), through every way a limit is used. */
describe('RateLimits counts an IPv6 /64 and its /56', () => {
  const limits = () => new RateLimits({ leadsPerAddress: { points: 2, windowSeconds: 60 } });
  const network = (n: number) => networkOf(`2001:db8:7:12${n.toString(16).padStart(2, '0')}::1`);

  it('refuses a check, a consume and a spend once the /56 is spent, and gives both back', async () => {
    const rate = limits();
    for (let n = 0; n < SITE_ALLOWANCE; n += 1) for (let i = 0; i < 2; i += 1) await rate.consume('leadsPerAddress', network(n));
    const fresh = network(SITE_ALLOWANCE);
    await expect(rate.check('leadsPerAddress', fresh)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(rate.consume('leadsPerAddress', fresh)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(await rate.spend('leadsPerAddress', fresh)).toBe(false);
    expect(await rate.exhausted('leadsPerAddress', fresh)).toBe(true);
    // Refused for its /56, the fresh /64 kept its own points.
    expect(await rate.count('leadsPerAddress', fresh)).toBe(0);
    // A point given back frees the /56 for anyone in it.
    await rate.giveBack('leadsPerAddress', network(0));
    expect(await rate.spend('leadsPerAddress', fresh)).toBe(true);
    // Another /56 and an IPv4 address were never held back.
    expect(await rate.spend('leadsPerAddress', networkOf('2001:db8:7:1300::1'))).toBe(true);
    expect(await rate.spend('leadsPerAddress', '203.0.113.9')).toBe(true);
  });

  it('resets both', async () => {
    const rate = limits();
    for (let n = 0; n < SITE_ALLOWANCE; n += 1) for (let i = 0; i < 2; i += 1) await rate.consume('leadsPerAddress', network(n));
    await rate.reset('leadsPerAddress', network(0));
    expect(await rate.spend('leadsPerAddress', network(SITE_ALLOWANCE))).toBe(true);
  });
});
