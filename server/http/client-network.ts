import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network a client address belongs to, as rate limits count it (docs/security.md, Abuse of
 * the public estimator): an IPv4 address is itself (one household or office behind its NAT); an
 * IPv6 address is its /64, the block an ISP hands one subscriber (RFC 6177) and from which a host
 * picks addresses at will (RFC 8981), so counting whole addresses would give one client
 * unlimited keys. An IPv4 address written as IPv6 (`::ffff:192.0.2.1`, as a dual-stack socket
 * reports it) is the IPv4 address. Anything else (no address at all) is its own key: the
 * client's address is always a socket's or a checked X-Forwarded-For hop (rate-limit.ts).
 */
export function networkOf(address: string): string {
  const plain = address.trim().toLowerCase().replace(/^\[|\]$/g, '').split('%')[0]!;
  if (isIPv4(plain)) return plain;
  if (!isIPv6(plain)) return address;
  const groups = ipv6Groups(plain);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (checked by isIPv6 first), `::` and a dotted tail expanded. */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** A key that starts with an IPv6 /64 as networkOf writes it (alone, or before "|" and more). */
const SIXTY_FOUR = /^([0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}:)([0-9a-f]{1,4})::\/64(?=$|\|)/;

/**
 * The /56 around a /64 key (docs/security.md, Abuse of the public estimator), the same key with
 * its /64 written as that /56, or null for any other key (IPv4, an account, a business). RFC
 * 6177 lets an ISP give a home up to a /56, so one client can move across 256 /64s; rate limits
 * count that /56 too, with a larger allowance (rate-limit.ts SITE_ALLOWANCE).
 */
export function siteOf(key: string): string | null {
  const match = SIXTY_FOUR.exec(key);
  if (!match) return null;
  const fourth = (parseInt(match[2]!, 16) & 0xff00).toString(16);
  return `${match[1]}${fourth}::/56${key.slice(match[0].length)}`;
}
