import { describe, expect, it } from 'vitest';
import { networkOf, siteOf } from './client-network';

describe('networkOf: what rate limits count by', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as one network', () => {
    const a = networkOf('2001:db8:85a3:12::1');
    const b = networkOf('2001:0db8:85a3:0012:ffff:ffff:ffff:fffe');
    const c = networkOf('2001:db8:85a3:12:abcd::9%eth0');
    expect(a).toBe('2001:db8:85a3:12::/64');
    expect(b).toBe(a);
    expect(c).toBe(a);
  });

  it('tells neighbouring /64s apart', () => {
    expect(networkOf('2001:db8:85a3:13::1')).not.toBe(networkOf('2001:db8:85a3:12::1'));
  });

  it('reads an IPv4 address written as IPv6 (a dual-stack socket) as the IPv4 address', () => {
    expect(networkOf('::ffff:198.51.100.4')).toBe('198.51.100.4');
    expect(networkOf('::ffff:c633:6404')).toBe('198.51.100.4');
  });

  it('expands :: wherever it stands', () => {
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('fe80::')).toBe('fe80:0:0:0::/64');
    expect(networkOf('[2001:db8::5]')).toBe('2001:db8:0:0::/64');
  });

  it('leaves what is not an address as its own key', () => {
    expect(networkOf('unknown')).toBe('unknown');
  });
});

describe('siteOf: the /56 a /64 key is counted in too', () => {
  it('writes the /56 around a /64, alone or at the head of a longer key', () => {
    expect(siteOf(networkOf('2001:db8:85a3:12::1'))).toBe('2001:db8:85a3:0::/56');
    expect(siteOf(networkOf('2001:db8:85a3:12ff::1'))).toBe('2001:db8:85a3:1200::/56');
    expect(siteOf(networkOf('2001:db8:85a3:1234::1'))).toBe(siteOf(networkOf('2001:db8:85a3:12fe::9')));
    expect(siteOf(networkOf('2001:db8:85a3:1334::1'))).not.toBe(siteOf(networkOf('2001:db8:85a3:1234::1')));
    expect(siteOf(`${networkOf('2001:db8:85a3:12ff::1')}|7|loads`)).toBe('2001:db8:85a3:1200::/56|7|loads');
  });

  it('has none for an IPv4 address, an account or a business', () => {
    for (const key of ['203.0.113.7', networkOf('::ffff:198.51.100.4'), '42', 'someone@example.com', '2001:db8::/64x']) expect(siteOf(key), key).toBeNull();
  });
});
