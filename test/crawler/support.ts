import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type AppConfig } from '@research/core';
import { createMetrics, createSilentLogger, type Metrics } from '@research/observability';
import { createAddressPolicy, type AddressPolicy, type Resolver } from '@research/crawler';

/** A loopback HTTP server standing in for a web site; counts every request it gets. */
export interface FakeSite {
  readonly host: string;
  readonly port: number;
  /** `http://host:port` (IPv6 hosts bracketed). */
  readonly origin: string;
  /** Requests received, by path (query included). */
  readonly hits: Map<string, number>;
  totalHits(): number;
  hitsOf(path: string): number;
  /** Most requests in progress at once. */
  maxConcurrent(): number;
  close(): Promise<void>;
}

export type FakeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

/** Starts a fake site on a loopback address (default 127.0.0.1; `::` takes every loopback form). */
export async function startFakeSite(handler: FakeHandler, host = '127.0.0.1'): Promise<FakeSite> {
  const hits = new Map<string, number>();
  let active = 0;
  let peak = 0;
  const server = http.createServer((req, res) => {
    hits.set(req.url ?? '/', (hits.get(req.url ?? '/') ?? 0) + 1);
    active++;
    peak = Math.max(peak, active);
    res.on('close', () => active--);
    Promise.resolve(handler(req, res)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = host.includes(':') ? `http://[${host === '::' ? '::1' : host}]:${port}` : `http://${host}:${port}`;
  return {
    host,
    port,
    origin,
    hits,
    totalHits: () => [...hits.values()].reduce((a, b) => a + b, 0),
    hitsOf: (path) => hits.get(path) ?? 0,
    maxConcurrent: () => peak,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The service's config for crawler tests, with short timeouts. */
export function crawlerConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig({ CRAWLER_TIMEOUT_MS: '3000', ...env });
}

/** Builds fresh metrics and a reader of one counter's value. */
export function testMetrics(): {
  metrics: Metrics;
  counter(name: string, labels?: Record<string, string>): Promise<number>;
} {
  const metrics = createMetrics({ defaultMetrics: false });
  return {
    metrics,
    async counter(name, labels = {}) {
      const all = await metrics.fleetRegistry.getMetricsAsJSON();
      const metric = all.find((m) => m.name === name);
      if (!metric) return 0;
      return (metric.values as Array<{ value: number; labels: Record<string, string | number> }>)
        .filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
        .reduce((sum, v) => sum + v.value, 0);
    },
  };
}

export const silentLogger = createSilentLogger();

/**
 * A resolver that plays DNS for test host names (`*.test`) and asks the system for the rest.
 * Values are address lists, or a function for answers that change between lookups (rebinding).
 */
export function fakeResolver(table: Record<string, string[] | (() => string[])>): Resolver {
  return async (hostname) => {
    const entry = table[hostname.toLowerCase()];
    if (!entry) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const list = typeof entry === 'function' ? entry() : entry;
    return list.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
}

/**
 * The production policy (private networks refused), except that one loopback address stands in for a
 * public web server: the tests' "internet" lives on 127.0.0.2, everything else keeps its real verdict.
 */
export function policyWithPublicStandIn(standIn = '127.0.0.2'): AddressPolicy {
  const strict = createAddressPolicy({ allowPrivateNetworks: false });
  return (address) => (address === standIn ? { allowed: true } : strict(address));
}

/** Sends an HTML page. */
export function sendHtml(
  res: http.ServerResponse,
  html: string | Buffer,
  contentType = 'text/html; charset=utf-8',
): void {
  res.writeHead(200, { 'content-type': contentType });
  res.end(html);
}

/** A page of real-looking article text, long enough to be a source. */
export function articleHtml(title: string, paragraphs: string[], head = ''): string {
  return `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body>
<nav><a href="/">Home</a> <a href="/about">About</a> <a href="/contact">Contact</a></nav>
<article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</article>
<footer>Copyright 2026 Example Media. All rights reserved.</footer></body></html>`;
}

/** Paragraphs of distinct prose (seeded by a word) so pages are not near-duplicates of each other. */
export function prose(seed: string, count = 4): string[] {
  return Array.from(
    { length: count },
    (_, i) =>
      `The ${seed} study number ${i + 1} reported that measurements of ${seed} across ${i + 3} regions changed markedly, ` +
      `according to researchers who examined ${seed}-related records from ${1990 + i} to ${2020 + i} in detail, ` +
      `and they concluded that ${seed} effects depend on local conditions observed in paragraph ${i + 1}.`,
  );
}
