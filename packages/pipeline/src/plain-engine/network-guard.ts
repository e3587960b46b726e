import dns from 'node:dns';
import net from 'node:net';

// CONTRACT 2 (CRAWLER_ALLOW_PRIVATE_NETWORKS=false): loopback, private, link-local and metadata addresses
// are refused after DNS resolution and on every redirect. The crawler issue replaces this placeholder.
const BLOCKED = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  BLOCKED.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(address, prefix, 'ipv6');
}

export class RefusedAddressError extends Error {
  constructor(host: string) {
    super(`Refused to fetch from a private network address (${host})`);
    this.name = 'RefusedAddressError';
  }
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1]!, 'ipv4');
  const family = net.isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) return BLOCKED.check(address, 'ipv6');
  return false;
}

/** Throws when a URL's host is an IP literal in a refused range (names are checked at lookup). */
export function assertPublicHost(hostname: string): void {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isPrivateAddress(host)) throw new RefusedAddressError(host);
}

/** Resolves a host name and refuses private answers: used for every connection, redirects included. */
export async function guardedLookup(hostname: string): Promise<[Array<{ address: string; family: 4 | 6 }>]> {
  const addresses = await dns.promises.lookup(hostname, { all: true });
  if (addresses.length === 0) throw Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' });
  if (addresses.some((a) => isPrivateAddress(a.address))) throw new RefusedAddressError(hostname);
  // axios spreads the tuple into (error, addresses): every checked address stays a candidate.
  return [addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))];
}
