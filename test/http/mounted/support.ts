import type { Express } from 'express';
import type { AppConfig, LlmClient } from '@research/core';
import { createLlmClients } from '@research/llm';
import type { Metrics } from '@research/observability';
import { createCrawler, type CrawlerOptions } from '@research/crawler';
import { createApp } from '@research/http';
import { createResearchTools, type ResearchTools } from '@research/runs';
import { createSilentLogger } from '@research/observability';
import { buildTestApp, type TestApp, type TestAppOptions } from '../support';

export interface MountedTestApp {
  readonly t: TestApp;
  readonly app: Express;
  readonly tools: ResearchTools;
  close(): Promise<void>;
}

/**
 * The test app (real Postgres, Redis, keys for owner/other/admin) with the mounted routes' tools built
 * from the same config: a crawler extracting on one pool thread (the compiled worker; jsdom cannot load under jest) without politeness delays (no
 * pool to leak between files), everything else as the service builds it.
 */
export async function buildMountedApp(
  label: string,
  options: TestAppOptions & {
    /** The LLM client the tools use (e.g. with short retry waits); default: the routes' client of the config. */
    llm?: (config: AppConfig, metrics: Metrics) => LlmClient | null;
    /** Crawler options beside the defaults below (e.g. a resolver playing DNS). */
    crawlerOptions?: CrawlerOptions;
  } = {},
): Promise<MountedTestApp> {
  const t = await buildTestApp(label, options);
  const crawler = createCrawler({
    config: t.ctx.config,
    logger: createSilentLogger(),
    metrics: t.ctx.metrics,
    db: t.db,
    options: { extraction: { threads: 1 }, politenessDelayMs: 0, robotsTtlMs: 1000, ...options.crawlerOptions },
  });
  const ownLlm = options.llm?.(t.ctx.config, t.ctx.metrics);
  // The clients a process's Services would build from the same config.
  const llms = createLlmClients(t.ctx.config, { metrics: t.ctx.metrics, logger: t.ctx.logger });
  const tools = createResearchTools({
    config: t.ctx.config,
    logger: t.ctx.logger,
    metrics: t.ctx.metrics,
    db: t.db,
    crawler: () => crawler,
    llm: ownLlm !== undefined ? () => ownLlm : llms.routes,
    vision: llms.vision,
  });
  const app = createApp({ ...t.ctx, tools });
  return {
    t,
    app,
    tools,
    async close() {
      await tools.close();
      await crawler.close();
      await t.close();
    },
  };
}
