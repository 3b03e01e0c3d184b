/**
 * The SSRF guard: a webhook may only reach public unicast addresses, unless the allow-list
 * (DOCFLOW_WEBHOOK_ALLOWED_HOSTS: host names, addresses, CIDRs) names the host or the address.
 * Checked at registration and again at each delivery, on the addresses the connection really uses.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export interface AllowList {
  hosts: Set<string>;
  ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
}

export function parseAllowList(entries: readonly string[]): AllowList {
  const allow: AllowList = { hosts: new Set(), ranges: [] };
  for (const entry of entries) {
    const value = entry.trim().toLowerCase();
    if (!value) continue;
    if (value.includes('/')) allow.ranges.push(ipaddr.parseCIDR(value));
    else if (ipaddr.isValid(value)) {
      const address = ipaddr.parse(value);
      allow.ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else allow.hosts.add(value);
  }
  return allow;
}

/** An IPv4-mapped IPv6 address counts as the IPv4 address it carries. */
function normalised(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed;
}

/**
 * Why `address` may not be reached (its range: `loopback`, `private`, `linkLocal`, `uniqueLocal`,
 * `multicast`, `unspecified`, …), or undefined when it may: a public unicast address, or one the
 * allow-list names.
 */
export function refusedRange(address: string, allow: AllowList): string | undefined {
  const ip = normalised(address);
  if (allow.ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits))) return undefined;
  const range = ip.range();
  return range === 'unicast' ? undefined : range;
}

/** URL host names are lowercase; an IPv6 literal comes in brackets. */
export const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Why `url`'s host, an address, is refused, or undefined: an allowed name, or a name (its addresses
 * are checked when it is resolved).
 */
export function refusedLiteral(url: URL, allow: AllowList): string | undefined {
  const host = bareHost(url);
  if (allow.hosts.has(host)) return undefined;
  return ipaddr.isValid(host) ? refusedRange(host, allow) : undefined;
}

export class RefusedTarget extends Error {
  constructor(host: string, range: string) {
    super(`${host} is a ${range} address, not allowed as a webhook target`);
  }
}

/** Every address `host` resolves to must be allowed (a name the allow-list holds passes as it is). */
export async function checkResolvedHost(host: string, allow: AllowList): Promise<void> {
  if (allow.hosts.has(host)) return;
  const addresses = ipaddr.isValid(host)
    ? [{ address: host }]
    : await lookup(host, { all: true, verbatim: true });
  for (const { address } of addresses) {
    const range = refusedRange(address, allow);
    if (range) throw new RefusedTarget(host, range);
  }
}
