import { AppError, Semaphore, type AppConfig, type LlmClient } from '@research/core';
import { createCrawler, type Crawler } from '@research/crawler';
import type { Database } from '@research/database';
import type { Logger, Metrics } from '@research/observability';
import { createCollectionLibrary, type ResearchServices } from '@research/pipeline';
import {
  createSearchProvider,
  isSearchProviderConfigured,
  type SearchProvider,
  type SearchProviderName,
} from '@research/search';

/** Outbound work (crawler fetches, vision, audio) one caller may have in flight at once. */
export const OUTBOUND_PER_CALLER = 4;
/** Outbound work of the mounted routes the process does at once (more callers wait their turn). */
export const OUTBOUND_PER_PROCESS = 16;

/**
 * The pipeline's own parts, for the mounted routes: the search providers and the guarded crawler, built
 * lazily from the same config and factories the worker uses, so a route calls the same code as the
 * pipeline, and the process's LLM clients for the routes. `close()` releases what was built.
 */
export interface ResearchTools {
  /** The provider `name` (default SEARCH_PROVIDER); 422 when that provider has no settings here. */
  searchProvider(name?: SearchProviderName): SearchProvider;
  /** Whether a provider has what it needs (URL, key, folder) in this service's configuration. */
  isSearchProviderConfigured(name: SearchProviderName): boolean;
  crawler(): Crawler;
  /**
   * The planner/claims/report LLM (LLM_BASE_URL) with the routes' own LLM_ROUTES_MAX_CONCURRENCY, or null:
   * the extractive engine.
   */
  llm(): LlmClient | null;
  /** The vision model as an LLM client (VISION_BASE_URL + VISION_MODEL), or null when not configured. */
  vision(): LlmClient | null;
  /**
   * These tools as the services a pipeline step reaches, for a step a route runs: the routes' LLM client,
   * and the default search provider and the crawler, built only when a step first uses them.
   */
  researchServices(): ResearchServices;
  /** Runs outbound work under the per-caller and per-process limits; 429 when the caller has too much in flight. */
  limitOutbound<T>(callerId: string, task: () => Promise<T>): Promise<T>;
  /**
   * Reserves up to `wanted` of the caller's outbound slots, as many as are free (at least one; 429 when
   * none is), until the lease is released: for a request that does several pieces of outbound work, or
   * that must be refused before its body is read.
   */
  reserveOutbound(callerId: string, wanted?: number): OutboundLease;
  close(): Promise<void>;
}

/** Some of one caller's outbound slots, held from reserveOutbound until release. */
export interface OutboundLease {
  /** How many of the caller's slots the lease holds: the pieces of work it may run at once. */
  readonly slots: number;
  /** Runs one piece of outbound work under the process-wide limit. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Gives the slots back once no work of the lease is running any more; calling it again does nothing. */
  release(): void;
}

export interface ResearchToolsDeps {
  config: AppConfig;
  logger: Logger;
  metrics: Metrics;
  db?: Database;
  /**
   * Parts the process shares with its worker (the crawler: one extraction pool, one politeness state), or
   * that tests build: called on first use instead of building them, and left for their owner to close.
   */
  crawler?: () => Crawler;
  /**
   * The process's LLM clients for the routes (its Services build them once: createLlmClients), never
   * built here; null means no LLM (the extractive engine) and no vision.
   */
  llm: () => LlmClient | null;
  vision: () => LlmClient | null;
}

/** The 429 of a caller over its share of the process's outbound work. */
function tooManyRequests(): AppError {
  return new AppError(
    'too_many_requests',
    `Too many crawler, vision or audio requests in flight: at most ${OUTBOUND_PER_CALLER} per caller at once. ` +
      'Retry when one has finished.',
  );
}

/** Builds the route's tools over a process's config; nothing opens until a route first needs it. */
export function createResearchTools(deps: ResearchToolsDeps): ResearchTools {
  const { config, logger, metrics } = deps;
  const providers = new Map<string, SearchProvider>();
  let crawler: Crawler | undefined;
  let ownCrawler: Crawler | undefined;
  const perCaller = new Map<string, number>();
  const outbound = new Semaphore(OUTBOUND_PER_PROCESS);

  function reserveOutbound(callerId: string, wanted = 1): OutboundLease {
    const mine = perCaller.get(callerId) ?? 0;
    const slots = Math.min(wanted, OUTBOUND_PER_CALLER - mine);
    if (slots < 1) throw tooManyRequests();
    perCaller.set(callerId, mine + slots);
    let running = 0;
    let released = false;
    let returned = false;
    const giveBack = () => {
      if (returned || !released || running > 0) return;
      returned = true;
      const left = (perCaller.get(callerId) ?? slots) - slots;
      if (left > 0) perCaller.set(callerId, left);
      else perCaller.delete(callerId);
    };
    return {
      slots,
      async run(task) {
        running++;
        try {
          return await outbound.run(task);
        } finally {
          running--;
          giveBack();
        }
      },
      release() {
        released = true;
        giveBack();
      },
    };
  }

  const tools: ResearchTools = {
    isSearchProviderConfigured: (name) => isSearchProviderConfigured(config.search, name),
    searchProvider(name: string = config.search.provider) {
      const existing = providers.get(name);
      if (existing) return existing;
      if (!isSearchProviderConfigured(config.search, name)) {
        throw new AppError('validation', `provider: ${name} is not configured on this service`);
      }
      // The same factory the worker uses, with only the provider's name changed.
      const provider = createSearchProvider(config, { logger }, name);
      providers.set(name, provider);
      return provider;
    },
    crawler() {
      crawler ??= deps.crawler
        ? deps.crawler()
        : (ownCrawler = createCrawler({ config, logger, metrics, db: deps.db }));
      return crawler;
    },
    llm: deps.llm,
    vision: deps.vision,
    researchServices: () => ({
      llm: deps.llm(),
      get searchProvider() {
        return tools.searchProvider();
      },
      get crawler() {
        return tools.crawler();
      },
      localCorpusDir: config.search.localCorpusDir,
      ...(deps.db ? { collections: createCollectionLibrary(deps.db) } : {}),
    }),
    reserveOutbound,
    async limitOutbound(callerId, task) {
      const lease = reserveOutbound(callerId);
      try {
        return await lease.run(task);
      } finally {
        lease.release();
      }
    },
    async close() {
      await ownCrawler?.close();
      await Promise.all([...providers.values()].map((p) => p.close?.()));
      providers.clear();
    },
  };
  return tools;
}
