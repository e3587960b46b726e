import { isIP } from 'node:net';
import type { SearchFilter } from './search-provider';

/** How long a query an engine takes (Brave: 400 characters and 50 words). */
export interface QueryLimits {
  maxChars: number;
  maxWords: number;
}

function fits(query: string, limits: QueryLimits): boolean {
  return query.length <= limits.maxChars && query.split(/\s+/).filter(Boolean).length <= limits.maxWords;
}

/**
 * `query` with the filter's hosts as `site:` and `-site:` operators, for engines that read them (Brave,
 * SearxNG's engines), within the engine's query limits. The included hosts go all or none (`(site:a OR
 * site:b)`; a part of them would steer every hit to the first few); excluded hosts as many as fit. IPv6
 * literals have no operator form. What is left out is enforced by the pipeline all the same.
 */
export function withSiteOperators(query: string, filter: SearchFilter | undefined, limits: QueryLimits): string {
  if (!filter) return query;
  let out = query;
  const included = filter.include_domains;
  if (included.length > 0 && included.every((host) => isIP(host) !== 6)) {
    const sites = included.map((host) => `site:${host}`);
    const operator = sites.length === 1 ? sites[0]! : `(${sites.join(' OR ')})`;
    if (fits(`${out} ${operator}`, limits)) out = `${out} ${operator}`;
  }
  for (const host of filter.exclude_domains) {
    if (isIP(host) === 6) continue;
    if (!fits(`${out} -site:${host}`, limits)) break;
    out = `${out} -site:${host}`;
  }
  return out;
}
