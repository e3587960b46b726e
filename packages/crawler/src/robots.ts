import robotsParser from 'robots-parser';
import { VERSION } from '@research/core';
import { CrawlError, isCrawlError } from './crawl-error';

/** The crawler's user agent: names the service and where to read about it. */
export const CRAWLER_USER_AGENT = `ResearchServiceBot/${VERSION} (+https://github.com/research-service/research-service; self-hosted research service)`;

/** The product token robots.txt groups are matched against. */
export const CRAWLER_AGENT_TOKEN = 'ResearchServiceBot';

/** What fetching a robots.txt gave: a status and its text, or a network failure (null). */
export type RobotsFetcher = (robotsUrl: string) => Promise<{ status: number; body: string } | null>;

interface RobotsEntry {
  expiresAt: number;
  isAllowed: (url: string) => boolean;
  crawlDelayMs: number | undefined;
}

/** Per-host robots.txt rules, fetched once per origin and kept for a time-to-live. */
export interface RobotsCache {
  /** True when robots.txt of the URL's origin lets the crawler fetch the URL. */
  isAllowed(url: string): Promise<boolean>;
  /** The Crawl-delay the origin asks of this crawler, in ms (capped), if any. */
  crawlDelayMs(url: string): Promise<number | undefined>;
}

const MAX_CRAWL_DELAY_MS = 10_000;

/**
 * Builds the cache. Follows RFC 9309: a 4xx robots.txt allows everything; a 5xx or an unreachable
 * one disallows everything (for the TTL of a failure, which is shorter).
 */
export function createRobotsCache(options: {
  fetch: RobotsFetcher;
  ttlMs: number;
  failureTtlMs?: number;
  now?: () => number;
}): RobotsCache {
  const now = options.now ?? Date.now;
  const entries = new Map<string, RobotsEntry>();
  const pending = new Map<string, Promise<RobotsEntry>>();

  async function load(origin: string): Promise<RobotsEntry> {
    const robotsUrl = `${origin}/robots.txt`;
    let answer: { status: number; body: string } | null;
    try {
      answer = await options.fetch(robotsUrl);
    } catch (error) {
      // A robots.txt the guard refuses (e.g. redirected to a private address) cannot grant anything.
      answer = isCrawlError(error) && error.reason === 'http_status' ? { status: 404, body: '' } : null;
    }
    const failureTtl = options.failureTtlMs ?? Math.min(options.ttlMs, 60_000);
    if (answer === null || answer.status >= 500) {
      return { expiresAt: now() + failureTtl, isAllowed: () => false, crawlDelayMs: undefined };
    }
    if (answer.status >= 400)
      return { expiresAt: now() + options.ttlMs, isAllowed: () => true, crawlDelayMs: undefined };
    const rules = robotsParser(robotsUrl, answer.body);
    const delay = rules.getCrawlDelay(CRAWLER_AGENT_TOKEN);
    return {
      expiresAt: now() + options.ttlMs,
      isAllowed: (url) => rules.isAllowed(url, CRAWLER_AGENT_TOKEN) !== false,
      crawlDelayMs: delay !== undefined && delay > 0 ? Math.min(delay * 1000, MAX_CRAWL_DELAY_MS) : undefined,
    };
  }

  async function entryFor(url: string): Promise<RobotsEntry> {
    const origin = new URL(url).origin;
    const cached = entries.get(origin);
    if (cached && cached.expiresAt > now()) return cached;
    let loading = pending.get(origin);
    if (!loading) {
      // Concurrent pages of one host share one robots.txt request.
      loading = load(origin).finally(() => pending.delete(origin));
      pending.set(origin, loading);
    }
    const entry = await loading;
    entries.set(origin, entry);
    return entry;
  }

  return {
    async isAllowed(url) {
      return (await entryFor(url)).isAllowed(url);
    },
    async crawlDelayMs(url) {
      return (await entryFor(url)).crawlDelayMs;
    },
  };
}

/** Throws the robots refusal for a URL robots.txt disallows. */
export async function assertRobotsAllow(cache: RobotsCache, url: string): Promise<void> {
  if (!(await cache.isAllowed(url))) throw new CrawlError('robots', 'robots.txt disallows this page.');
}
