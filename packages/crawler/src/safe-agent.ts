import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { CrawlError, unresolvableHost } from './crawl-error';
import { isForbiddenHostname, parseIpAddress, type AddressPolicy } from './url-policy';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (injectable so tests can play DNS). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The operating system's resolver (getaddrinfo), all addresses, in the order it gives them. */
export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function refuse(host: string, reason?: string): never {
  throw new CrawlError('blocked_address', `The address of ${host} is not allowed${reason ? ` (${reason})` : ''}.`);
}

/** Checks an IP-literal host against the policy; returns false when the host is a name. */
export function checkLiteralHost(hostname: string, policy: AddressPolicy): boolean {
  const literal = parseIpAddress(hostname);
  if (!literal) return false;
  const verdict = policy(literal.toString());
  if (!verdict.allowed) refuse(hostname, verdict.reason);
  return true;
}

/**
 * Resolves a host and checks EVERY address it resolves to: one refused address refuses the host, so
 * a resolver that mixes a public and a private answer cannot steer the connection.
 */
export async function resolveCheckedAddresses(
  hostname: string,
  resolver: Resolver,
  policy: AddressPolicy,
): Promise<ResolvedAddress[]> {
  if (isForbiddenHostname(hostname)) refuse(hostname, 'reserved host name');
  const literal = parseIpAddress(hostname);
  if (literal) {
    checkLiteralHost(hostname, policy);
    return [{ address: literal.toString(), family: literal.kind() === 'ipv6' ? 6 : 4 }];
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolver(hostname);
  } catch (error) {
    throw unresolvableHost(
      hostname,
      `not resolved: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  if (addresses.length === 0) throw unresolvableHost(hostname, 'no address');
  for (const { address } of addresses) {
    const verdict = policy(address);
    if (!verdict.allowed)
      throw unresolvableHost(hostname, `resolves to refused address ${address} (${verdict.reason})`);
  }
  return addresses;
}

/**
 * A `lookup` for sockets that resolves, checks every address and hands the socket exactly the checked
 * addresses: the address connected to is the address checked, so DNS rebinding has no window.
 */
export function createGuardedLookup(resolver: Resolver, policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolveCheckedAddresses(hostname, resolver, policy).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = wanted === 0 ? addresses : addresses.filter((a) => a.family === wanted);
        if (usable.length === 0) {
          callback(Object.assign(new Error(`No IPv${wanted} address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}

/** The http and https agents every crawler request goes through. */
export interface GuardedAgents {
  readonly http: http.Agent;
  readonly https: https.Agent;
  destroy(): void;
}

/** Builds keep-alive agents whose every new connection goes through the guarded lookup. */
export function createGuardedAgents(options: { resolver: Resolver; policy: AddressPolicy }): GuardedAgents {
  const lookup = createGuardedLookup(options.resolver, options.policy);
  const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64, lookup });
  const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64, lookup });
  return {
    http: httpAgent,
    https: httpsAgent,
    destroy() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
