import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { normalizeUrl } from '@research/core';
import { CrawlError } from './crawl-error';

/**
 * Host names that reach a cloud provider's instance metadata service. The addresses behind them are
 * refused by range anyway; naming them refuses them even where a resolver maps them elsewhere.
 */
const METADATA_HOSTS = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);

/**
 * Cloud metadata addresses. Most sit in ranges refused anyway (link-local, unique-local, CGNAT); they are
 * also refused when private networks are allowed, because no research source lives there. Azure's
 * wireserver (168.63.129.16) is a public-looking address, so it must be named.
 */
const METADATA_ADDRESSES = new Set(
  ['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200', '168.63.129.16', '192.0.0.192'].map((a) =>
    ipaddr.parse(a).toNormalizedString(),
  ),
);

/** The verdict on one URL or address. */
export interface PolicyVerdict {
  allowed: boolean;
  /** Short, stable reason code when refused (also the `reason` label of `sources_rejected_total`). */
  reason?: string;
}

/** Decides whether the crawler may connect to one resolved IP address. */
export type AddressPolicy = (address: string) => PolicyVerdict;

/** Parses an absolute http(s) URL, refusing other schemes and credentials; throws CrawlError. */
export function parseCrawlUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(String(raw).trim());
  } catch {
    throw new CrawlError('invalid_url', 'The URL cannot be parsed.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CrawlError('scheme', `Only http and https URLs are fetched, not ${url.protocol.replace(/:$/, '')}.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new CrawlError('credentials', 'URLs with credentials are refused.');
  }
  if (url.hostname === '') throw new CrawlError('invalid_url', 'The URL has no host.');
  return url;
}

/**
 * The normalised form (core's normalizeUrl) of a URL the crawler may fetch; throws CrawlError saying
 * why it may not, so the refusal keeps its reason (the `reason` label, the HTTP detail).
 */
export function normalizeCrawlUrl(raw: string): string {
  const normalized = normalizeUrl(parseCrawlUrl(raw));
  // parseCrawlUrl admits only http(s) URLs with a host, which always normalise.
  if (normalized === null) throw new CrawlError('invalid_url', 'The URL cannot be parsed.');
  return normalized;
}

/** The key two URLs share when they are the same page: normalised, without scheme and `www.`. */
export function urlIdentityKey(normalized: string): string {
  const url = new URL(normalized);
  const host = url.hostname.replace(/^www\./, '');
  const port = url.port ? `:${url.port}` : '';
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  return `${host}${port}${path}${url.search}`;
}

/** The host of a URL without IPv6 brackets, ready for DNS or address parsing. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/** True when a host name names a metadata service or the local machine whatever DNS says. */
export function isForbiddenHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  return METADATA_HOSTS.has(host) || host === 'localhost' || host.endsWith('.localhost');
}

/**
 * Parses an IP address in any form a resolver or URL could hand over, including the legacy
 * inet_aton forms (2130706433, 0x7f000001, 0177.0.0.1, 127.1); null when it is no address.
 */
export function parseIpAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const host = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (net.isIP(host) !== 0) return ipaddr.parse(host);
  if (/^[0-9a-fx.]+$/i.test(host) && ipaddr.IPv4.isValid(host)) {
    try {
      return ipaddr.IPv4.parse(host);
    } catch {
      return null;
    }
  }
  return null;
}

/** The IPv4 address an IPv6 address carries (mapped, NAT64, 6to4, compatible), if any. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  const parts = address.parts;
  const range = address.range();
  const fromWords = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  // NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48) reaches the IPv4 address in the last 32 bits.
  if (range === 'rfc6052' || (parts[0] === 0x64 && parts[1] === 0xff9b)) return fromWords(parts[6], parts[7]);
  // 6to4 (2002::/16) carries the IPv4 address in bits 16-48.
  if (range === '6to4') return fromWords(parts[1], parts[2]);
  // IPv4-compatible (::a.b.c.d, deprecated) and IPv4-translated (::ffff:0:a.b.c.d).
  if (parts.slice(0, 6).every((p) => p === 0) || range === 'rfc6145') return fromWords(parts[6], parts[7]);
  return null;
}

/**
 * Classifies an address: `public` for global unicast, otherwise the reason it is refused
 * (loopback, private, link_local, cgnat, multicast, unspecified, metadata, reserved, ...).
 */
export function classifyAddress(text: string): string {
  const parsed = parseIpAddress(text);
  if (!parsed) return 'invalid_address';
  let address: ipaddr.IPv4 | ipaddr.IPv6 = parsed;
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    if (METADATA_ADDRESSES.has(v6.toNormalizedString())) return 'metadata';
    const inner = v6.range() === 'loopback' || v6.range() === 'unspecified' ? null : embeddedIpv4(v6);
    if (inner) address = inner;
  }
  if (METADATA_ADDRESSES.has(address.toNormalizedString())) return 'metadata';
  const range = address.range();
  switch (range) {
    case 'unicast':
      return 'public';
    case 'loopback':
      return 'loopback';
    case 'private':
    case 'uniqueLocal':
      return 'private';
    case 'linkLocal':
      return 'link_local';
    case 'carrierGradeNat':
      return 'cgnat';
    case 'multicast':
    case 'broadcast':
      return 'multicast';
    case 'unspecified':
      return 'unspecified';
    default:
      // Reserved, documentation, benchmarking, AS112, Teredo, ORCHID ...: nothing a web page lives on.
      return 'reserved';
  }
}

/**
 * The default address policy: only public unicast addresses unless private networks are allowed;
 * cloud metadata addresses are refused in both cases.
 */
export function createAddressPolicy(options: { allowPrivateNetworks: boolean }): AddressPolicy {
  return (address) => {
    const kind = classifyAddress(address);
    if (kind === 'public') return { allowed: true };
    if (kind === 'metadata' || kind === 'invalid_address') return { allowed: false, reason: 'blocked_address' };
    return options.allowPrivateNetworks ? { allowed: true } : { allowed: false, reason: 'blocked_address' };
  };
}
