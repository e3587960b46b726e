import { VERSION, createPause, type Pause } from '@research/core';
import { CrawlError, isCrawlError } from './crawl-error';

/** The crawler's user agent: names the service and where to read about it. */
export const CRAWLER_USER_AGENT = `ResearchServiceBot/${VERSION} (+https://github.com/research-service/research-service; self-hosted research service)`;

/** The product token robots.txt groups are matched against. */
export const CRAWLER_AGENT_TOKEN = 'ResearchServiceBot';

/** Bytes of a robots.txt read and parsed at most; the rest is ignored (Google's limit, RFC 9309 2.5). */
export const MAX_ROBOTS_BYTES = 500 * 1024;

/**
 * What fetching a robots.txt gave: a status and its text (`truncated` when cut at MAX_ROBOTS_BYTES), or
 * a network failure (null).
 */
export type RobotsFetcher = (
  robotsUrl: string,
) => Promise<{ status: number; body: string; truncated?: boolean } | null>;

interface RobotsEntry {
  expiresAt: number;
  /** Characters of robots.txt rules the entry holds (what the cache's byte bound counts). */
  size: number;
  isAllowed: (url: string) => Promise<boolean>;
  crawlDelayMs: number | undefined;
}

/** Per-host robots.txt rules, fetched once per origin and kept for a time-to-live. */
export interface RobotsCache {
  /** True when robots.txt of the URL's origin lets the crawler fetch the URL. */
  isAllowed(url: string): Promise<boolean>;
  /** The Crawl-delay the origin asks of this crawler, in ms (capped), if any. */
  crawlDelayMs(url: string): Promise<number | undefined>;
  /** Origins held and the characters of rules they hold (for tests and diagnostics). */
  stats(): { entries: number; size: number };
}

const MAX_CRAWL_DELAY_MS = 10_000;

/**
 * Work one URL's robots.txt check may cost, in character comparisons (a rule counts 50 besides). A
 * plain pattern costs about its length; a pattern with `*` its length times the path's. A robots.txt
 * whose rules would cost more for a URL (hundreds of KB of wildcards: a hostile file) is taken as
 * disallowing it rather than spending seconds on it; the check pauses between rules either way.
 */
const MAX_ROBOTS_MATCH_COST = 10_000_000;
const RULE_COST = 50;

/** One allow or disallow rule, its pattern percent-encoded as paths are compared. */
interface RobotsRule {
  pattern: string;
  allow: boolean;
  wildcard: boolean;
}

/** The rules of a robots.txt that apply to the crawler. */
interface CrawlerRules {
  rules: RobotsRule[];
  /** Seconds, when the group asks for a delay. */
  crawlDelay: number | undefined;
  /** Characters the rules hold (what the cache's size bound counts). */
  size: number;
}

function splitDirective(line: string): { key: string; value: string } | null {
  const hash = line.indexOf('#');
  const content = hash >= 0 ? line.slice(0, hash) : line;
  const colon = content.indexOf(':');
  if (colon < 0) return null;
  const key = content.slice(0, colon).trim().toLowerCase();
  return key ? { key, value: content.slice(colon + 1).trim() } : null;
}

/** A user-agent line's name as groups are matched: lower case, without a version. */
function agentName(value: string): string {
  const lower = value.toLowerCase();
  const slash = lower.indexOf('/');
  return (slash >= 0 ? lower.slice(0, slash) : lower).trim();
}

/** Percent escapes in upper case, so `%c3%a9` and `%C3%A9` compare equal. */
function upperEscapes(text: string): string {
  return text.replace(/%[0-9a-fA-F]{2}/g, (escape) => escape.toUpperCase());
}

/** A pattern encoded as URL paths are (`é` → `%C3%A9`), escapes it already has kept. */
function encodePattern(pattern: string): string {
  try {
    return upperEscapes(encodeURI(pattern).replace(/%25/g, '%'));
  } catch {
    return pattern;
  }
}

/**
 * The rules of a robots.txt for the crawler's product token, as robots-parser (the library this replaced)
 * and Google read them: consecutive user-agent lines open a group; the groups naming the token are
 * combined, and when none of them holds a rule, the groups naming `*` apply instead. Only these are
 * kept, so a file of many crawlers' groups costs little memory. Reads a line at a time with `pause`.
 */
async function crawlerRules(
  robotsTxt: string,
  token = CRAWLER_AGENT_TOKEN,
  pause: Pause = createPause(),
): Promise<CrawlerRules> {
  const own = agentName(token);
  const groups = { own: [] as Array<{ key: string; value: string }>, any: [] as Array<{ key: string; value: string }> };
  let agents: string[] = [];
  let inAgentLines = false;
  for (const line of robotsTxt.split(/\r\n|\r|\n/)) {
    await pause();
    const directive = splitDirective(line);
    if (!directive) continue;
    if (directive.key === 'user-agent') {
      if (!inAgentLines) agents = [];
      if (directive.value) agents.push(agentName(directive.value));
      inAgentLines = true;
      continue;
    }
    inAgentLines = false;
    if (directive.key !== 'allow' && directive.key !== 'disallow' && directive.key !== 'crawl-delay') continue;
    if (agents.includes(own)) groups.own.push(directive);
    if (agents.includes('*')) groups.any.push(directive);
  }
  const chosen = groups.own.length > 0 ? groups.own : groups.any;
  const out: CrawlerRules = { rules: [], crawlDelay: undefined, size: 0 };
  for (const { key, value } of chosen) {
    if (key === 'crawl-delay') {
      const delay = Number(value);
      if (!Number.isNaN(delay)) out.crawlDelay = delay;
    } else if (value) {
      const pattern = encodePattern(value);
      out.rules.push({ pattern, allow: key === 'allow', wildcard: pattern.includes('*') });
      out.size += pattern.length;
    }
  }
  return out;
}

/**
 * Whether a pattern matches a path from its start: `*` matches any run of characters, a final `$` the
 * end of the path. Tracks every path length the pattern read so far can have matched, in `ends`
 * (ascending; `spare` is scratch of the same size), so it never backtracks: length × path at worst.
 */
function patternMatches(pattern: string, path: string, ends: Int32Array, spare: Int32Array): boolean {
  let count = 1;
  ends[0] = 0;
  for (let p = 0; p < pattern.length; p++) {
    const c = pattern[p];
    if (c === '$' && p === pattern.length - 1) return ends[count - 1] === path.length;
    if (c === '*') {
      const first = ends[0]!;
      count = path.length - first + 1;
      for (let i = 0; i < count; i++) ends[i] = first + i;
      continue;
    }
    let next = 0;
    for (let i = 0; i < count; i++) {
      const at = ends[i]!;
      if (at < path.length && path[at] === c) spare[next++] = at + 1;
    }
    if (next === 0) return false;
    ends.set(spare.subarray(0, next));
    count = next;
  }
  return true;
}

/**
 * Whether the rules let the crawler fetch `url`: the longest matching pattern decides, an allow winning
 * over a disallow of the same length; no match allows. False when matching would cost more than
 * MAX_ROBOTS_MATCH_COST. Pauses between rules.
 */
async function rulesAllow(rules: CrawlerRules, url: string, pause: Pause = createPause()): Promise<boolean> {
  let path: string;
  try {
    const parsed = new URL(url);
    path = upperEscapes(parsed.pathname + parsed.search);
  } catch {
    return true;
  }
  let cost = 0;
  for (const rule of rules.rules)
    cost += RULE_COST + (rule.wildcard ? rule.pattern.length * (path.length + 1) : rule.pattern.length);
  if (cost > MAX_ROBOTS_MATCH_COST) return false;
  const ends = new Int32Array(path.length + 1);
  const spare = new Int32Array(path.length + 1);
  let best: RobotsRule | null = null;
  for (const rule of rules.rules) {
    if (rule.wildcard) await pause();
    if (!patternMatches(rule.pattern, path, ends, spare)) continue;
    if (!best || rule.pattern.length > best.pattern.length) best = rule;
    else if (rule.pattern.length === best.pattern.length && rule.allow && !best.allow) best = rule;
  }
  return !best || best.allow;
}

interface RobotsCacheOptions {
  fetch: RobotsFetcher;
  ttlMs: number;
  failureTtlMs?: number;
  /** Origins kept at most (least recently used go first). */
  maxEntries?: number;
  /** Characters of rules kept at most over all origins. */
  maxSize?: number;
  now?: () => number;
}

/**
 * Builds the cache. Follows RFC 9309: a 4xx robots.txt allows everything; a 5xx or an unreachable
 * one disallows everything (for the TTL of a failure, which is shorter). Bounded: at most `maxEntries`
 * origins and `maxSize` characters of rules (least recently used first out), expired entries dropped.
 */
export function createRobotsCache(options: RobotsCacheOptions): RobotsCache {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 1000;
  const maxSize = options.maxSize ?? 8 * 1024 * 1024;
  // Insertion order is recency order: a hit moves its origin to the end.
  const entries = new Map<string, RobotsEntry>();
  const pending = new Map<string, Promise<RobotsEntry>>();
  let size = 0;
  let sweptAt = now();

  function drop(origin: string): void {
    const entry = entries.get(origin);
    if (!entry) return;
    entries.delete(origin);
    size -= entry.size;
  }

  function keep(origin: string, entry: RobotsEntry): void {
    drop(origin);
    if (entry.size > maxSize) return;
    entries.set(origin, entry);
    size += entry.size;
    const at = now();
    // Expired entries of origins never asked again would otherwise stay until pushed out.
    if (at - sweptAt >= Math.min(options.ttlMs, 60_000)) {
      sweptAt = at;
      for (const [key, held] of entries) if (held.expiresAt <= at) drop(key);
    }
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries && size <= maxSize) break;
      drop(oldest);
    }
  }

  async function load(origin: string): Promise<RobotsEntry> {
    const robotsUrl = `${origin}/robots.txt`;
    let answer: Awaited<ReturnType<RobotsFetcher>>;
    try {
      answer = await options.fetch(robotsUrl);
    } catch (error) {
      // A robots.txt the guard refuses (e.g. redirected to a private address) cannot grant anything.
      answer = isCrawlError(error) && error.reason === 'http_status' ? { status: 404, body: '' } : null;
    }
    const failureTtl = options.failureTtlMs ?? Math.min(options.ttlMs, 60_000);
    if (answer === null || answer.status >= 500) {
      return { expiresAt: now() + failureTtl, size: 0, isAllowed: async () => false, crawlDelayMs: undefined };
    }
    if (answer.status >= 400)
      return { expiresAt: now() + options.ttlMs, size: 0, isAllowed: async () => true, crawlDelayMs: undefined };
    // A file cut at the size limit ends with a partial line: a rule cut short says something else.
    const body = answer.truncated ? answer.body.slice(0, Math.max(0, answer.body.lastIndexOf('\n'))) : answer.body;
    const rules = await crawlerRules(body);
    const delay = rules.crawlDelay;
    return {
      expiresAt: now() + options.ttlMs,
      size: rules.size,
      isAllowed: (url) => rulesAllow(rules, url),
      crawlDelayMs: delay !== undefined && delay > 0 ? Math.min(delay * 1000, MAX_CRAWL_DELAY_MS) : undefined,
    };
  }

  async function entryFor(url: string): Promise<RobotsEntry> {
    const origin = new URL(url).origin;
    const cached = entries.get(origin);
    if (cached && cached.expiresAt > now()) {
      entries.delete(origin);
      entries.set(origin, cached);
      return cached;
    }
    let loading = pending.get(origin);
    if (!loading) {
      // Concurrent pages of one host share one robots.txt request.
      loading = load(origin)
        .then((entry) => {
          keep(origin, entry);
          return entry;
        })
        .finally(() => pending.delete(origin));
      pending.set(origin, loading);
    }
    return loading;
  }

  return {
    async isAllowed(url) {
      return (await entryFor(url)).isAllowed(url);
    },
    async crawlDelayMs(url) {
      return (await entryFor(url)).crawlDelayMs;
    },
    stats: () => ({ entries: entries.size, size }),
  };
}

/** Throws the robots refusal for a URL robots.txt disallows. */
export async function assertRobotsAllow(cache: RobotsCache, url: string): Promise<void> {
  if (!(await cache.isAllowed(url))) throw new CrawlError('robots', 'robots.txt disallows this page.');
}
