import type { Resolver } from './safe-agent';
import { resolveCheckedAddresses } from './safe-agent';
import { bareHostname, parseCrawlUrl, type AddressPolicy } from './url-policy';

/**
 * Checks a URL the service will call back (a webhook) by the crawler's own rules: http(s) only, no
 * credentials, a host that resolves, and only to addresses the policy allows (every one of them). Throws
 * CrawlError saying why not; returns the parsed URL. The request itself must still go through the guarded
 * agents (createGuardedAgents), so the address connected to is the address checked.
 */
export async function checkCallbackUrl(
  raw: string,
  guard: { resolver: Resolver; policy: AddressPolicy },
): Promise<URL> {
  const url = parseCrawlUrl(raw);
  await resolveCheckedAddresses(bareHostname(url), guard.resolver, guard.policy);
  return url;
}
