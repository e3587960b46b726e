import path from 'node:path';
import { z } from 'zod';

const booleanFlag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['true', 'false', '1', '0', 'yes', 'no', ''].includes(v), 'must be true or false')
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** A decimal amount of USD (at most a million), or unset when empty. */
const optionalPrice = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.coerce.number({ error: 'must be a decimal number' }).min(0).max(1_000_000).optional(),
);

const urlText = (protocols: string[]) =>
  optionalText.refine(
    (v) => v === undefined || protocols.some((p) => v.startsWith(`${p}:`)),
    `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
  );

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATABASE_URL: urlText(['postgres', 'postgresql']),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  REDIS_URL: urlText(['redis', 'rediss']),
  WORKER_CONCURRENCY: positiveInt(2),
  LLM_BASE_URL: urlText(['http', 'https']),
  LLM_API_KEY: optionalText,
  LLM_MODEL: optionalText,
  LLM_MAX_CONCURRENCY: positiveInt(4),
  LLM_ROUTES_MAX_CONCURRENCY: positiveInt(2),
  LLM_TIMEOUT_MS: positiveInt(60_000),
  VISION_BASE_URL: urlText(['http', 'https']),
  VISION_MODEL: optionalText,
  AUDIO_BASE_URL: urlText(['http', 'https']),
  AUDIO_MODEL: optionalText,
  // Vision and audio knobs beyond CONTRACT 2: keys (default: LLM_API_KEY when the LLM's base URL is used) and limits.
  VISION_API_KEY: optionalText,
  AUDIO_API_KEY: optionalText,
  VISION_MAX_IMAGE_BYTES: positiveInt(5 * 1024 * 1024),
  AUDIO_MAX_BYTES: positiveInt(25 * 1024 * 1024),
  AUDIO_MAX_DURATION_SECONDS: positiveInt(600),
  SEARCH_PROVIDER: z.string().trim().min(1).default('wikipedia'),
  SEARXNG_URL: urlText(['http', 'https']),
  BRAVE_API_KEY: optionalText,
  TAVILY_API_KEY: optionalText,
  LOCAL_CORPUS_DIR: optionalText,
  WIKIPEDIA_API_URL: optionalText,
  // Search knobs beyond CONTRACT 2: endpoints (tests point them at loopback fakes), timeouts, retries.
  BRAVE_API_URL: urlText(['http', 'https']),
  TAVILY_API_URL: urlText(['http', 'https']),
  SEARCH_TIMEOUT_MS: positiveInt(10_000),
  SEARCH_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  SEARCH_RETRY_BASE_MS: positiveInt(500),
  LOCAL_CORPUS_POLL_MS: z.coerce.number().int().min(0).default(30_000),
  CRAWLER_ALLOW_PRIVATE_NETWORKS: booleanFlag.default(false),
  CRAWLER_RESPECT_ROBOTS: booleanFlag.default(true),
  CRAWLER_TIMEOUT_MS: positiveInt(15_000),
  CRAWLER_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).default(86_400),
  DEBUG: booleanFlag.default(false),
  WEB_ROOT: z.string().trim().optional(),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  // Operational knobs beyond CONTRACT 2 (added, never renamed).
  REDIS_PREFIX: z.string().trim().min(1).default('research'),
  // A dead worker's run moves on within lock + stalled interval (≤ 15 s). BullMQ renews the lock every half
  // lock on a timer, so a live worker keeps its jobs unless its event loop stalls for 5 s at once (steps
  // stay far below: heavy work runs in threads or in bounded slices); were it to happen, the run's
  // advisory lock still keeps a second worker off the run.
  WORKER_LOCK_MS: positiveInt(10_000),
  WORKER_STALLED_INTERVAL_MS: positiveInt(5_000),
  RECONCILE_INTERVAL_MS: positiveInt(15_000),
  METRICS_PUBLISH_INTERVAL_MS: positiveInt(5_000),
  SHUTDOWN_TIMEOUT_MS: positiveInt(25_000),
  HTTP_HEADERS_TIMEOUT_MS: positiveInt(20_000),
  HTTP_REQUEST_TIMEOUT_MS: positiveInt(50_000),
  // Run event streams (GET /v1/research/{id}/events): how often an API process reads new events for its open
  // streams, and how often an idle stream gets a comment line so proxies keep it open.
  EVENTS_POLL_MS: positiveInt(100),
  EVENTS_KEEPALIVE_MS: positiveInt(15_000),
  PASSWORD_HASH_CONCURRENCY: positiveInt(4),
  WORKER_HEARTBEAT_FILE: optionalText,
  // Per-key quotas (0 turns one off). The defaults stop a client stuck in a loop, not scripted use: a burst of
  // a few hundred runs still passes; an operator with untrusted keys sets them lower.
  RUNS_PER_KEY_PER_MINUTE: z.coerce.number().int().min(0).default(300),
  RUNS_PER_KEY_PER_HOUR: z.coerce.number().int().min(0).default(2000),
  SEARCHES_PER_KEY_PER_MINUTE: z.coerce.number().int().min(0).default(120),
  // Webhooks: the key of their signatures (without it no run may name a callback_url), the first wait between
  // attempts (doubling) and each attempt's timeout.
  WEBHOOK_SECRET: optionalText,
  WEBHOOK_RETRY_BASE_MS: positiveInt(10_000),
  WEBHOOK_TIMEOUT_MS: positiveInt(10_000),
  // What the LLM provider charges, in USD per million tokens: a run's estimated price (null without both).
  LLM_PRICE_INPUT_PER_MTOK: optionalPrice,
  LLM_PRICE_OUTPUT_PER_MTOK: optionalPrice,
  // Plan review: how long a run created with review_plan may wait for its approval before it is cancelled.
  PLAN_REVIEW_TIMEOUT_SECONDS: positiveInt(86_400),
});

type Env = z.infer<typeof envSchema>;

/** This checkout's built web page: packages/core/{src,dist} → apps/web/dist. */
const DEFAULT_WEB_ROOT = path.resolve(__dirname, '..', '..', '..', 'apps', 'web', 'dist');

function webRootOf(value: string | undefined): string | null {
  if (value === undefined) return DEFAULT_WEB_ROOT;
  return value === '' ? null : path.resolve(value);
}

/** What the LLM provider charges, in USD per million tokens. */
export interface LlmPrices {
  readonly inputPerMtok: number;
  readonly outputPerMtok: number;
}

function llmPricesOf(input: number | undefined, output: number | undefined): LlmPrices | null {
  return input === undefined || output === undefined ? null : { inputPerMtok: input, outputPerMtok: output };
}

/** Everything the service reads from its environment, parsed once and frozen. */
export interface AppConfig {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly redisUrl: string | undefined;
  readonly redisPrefix: string;
  readonly workerConcurrency: number;
  readonly workerLockMs: number;
  readonly workerStalledIntervalMs: number;
  readonly reconcileIntervalMs: number;
  readonly metricsPublishIntervalMs: number;
  readonly shutdownTimeoutMs: number;
  readonly passwordHashConcurrency: number;
  readonly http: {
    /** From a request's first byte to the end of its headers; a slower client gets 408. */
    readonly headersTimeoutMs: number;
    /** From a request's first byte to the end of its body; a slower client gets 408. */
    readonly requestTimeoutMs: number;
    /** How often the process reads new run events for its open event streams. */
    readonly eventsPollMs: number;
    /** How often an idle event stream gets a keep-alive comment. */
    readonly eventsKeepAliveMs: number;
  };
  /** When set, a worker touches this file every few seconds (the container healthcheck reads its age). */
  readonly workerHeartbeatFile: string | undefined;
  readonly llm: {
    readonly baseUrl: string | undefined;
    readonly apiKey: string | undefined;
    readonly model: string | undefined;
    /** LLM requests at once of the research runs this process works on. */
    readonly maxConcurrency: number;
    /**
     * LLM requests at once of the mounted routes (planner, claims, synthesis, vision): a limit of their
     * own, so route traffic never waits in front of a run's calls.
     */
    readonly routesMaxConcurrency: number;
    readonly timeoutMs: number;
    /** USD per million prompt and completion tokens (LLM_PRICE_*_PER_MTOK); a run's price is null without both. */
    readonly prices: LlmPrices | null;
  };
  /** How many requests one API key may make in a window, counted across every API process (0: no limit). */
  readonly quotas: {
    readonly runsPerMinute: number;
    readonly runsPerHour: number;
    readonly searchesPerMinute: number;
  };
  readonly vision: {
    readonly baseUrl: string | undefined;
    readonly model: string | undefined;
    /** Bearer key; LLM_API_KEY when VISION_BASE_URL is unset (the LLM's endpoint is used). */
    readonly apiKey: string | undefined;
    /** Largest image analysed (decoded base64 or downloaded). */
    readonly maxImageBytes: number;
  };
  readonly audio: {
    readonly baseUrl: string | undefined;
    readonly model: string | undefined;
    /** Bearer key; LLM_API_KEY when AUDIO_BASE_URL is unset (the LLM's endpoint is used). */
    readonly apiKey: string | undefined;
    /** Largest audio file transcribed (upload or download). */
    readonly maxBytes: number;
    /** Longest audio transcribed, in seconds. */
    readonly maxDurationSeconds: number;
  };
  readonly search: {
    /** A name of the search package's provider registry (checked by loadConfig's `searchProviders`). */
    readonly provider: string;
    readonly searxngUrl: string | undefined;
    readonly braveApiKey: string | undefined;
    readonly tavilyApiKey: string | undefined;
    readonly localCorpusDir: string | undefined;
    readonly wikipediaApiUrl: string | undefined;
    /** Brave's web search endpoint; unset: https://api.search.brave.com/res/v1/web/search. */
    readonly braveApiUrl: string | undefined;
    /** Tavily's search endpoint; unset: https://api.tavily.com/search. */
    readonly tavilyApiUrl: string | undefined;
    /** Per request attempt to a search provider. */
    readonly timeoutMs: number;
    /** Retries after the first attempt (429, 5xx, timeouts, connection errors). */
    readonly maxRetries: number;
    /** First backoff step between retries (doubles each time, with jitter). */
    readonly retryBaseMs: number;
    /** mtime polling of LOCAL_CORPUS_DIR besides file events; 0 turns polling off. */
    readonly localCorpusPollMs: number;
  };
  readonly crawler: {
    readonly allowPrivateNetworks: boolean;
    readonly respectRobots: boolean;
    readonly timeoutMs: number;
    /** How long a fetched page is served from the page cache. */
    readonly cacheTtlSeconds: number;
  };
  readonly webhooks: {
    /** The HMAC key of X-Research-Signature; unset: callback_url is refused. Never logged or returned. */
    readonly secret: string | undefined;
    /** The wait before the second attempt; each later wait doubles. */
    readonly retryBaseMs: number;
    /** How long one attempt may take. */
    readonly timeoutMs: number;
  };
  readonly debug: boolean;
  /**
   * The built web page the API serves at `/` (apps/web/dist of this checkout unless WEB_ROOT names another
   * folder); null when WEB_ROOT is set empty, and `/` is then a 404 like any unknown path.
   */
  readonly webRoot: string | null;
  readonly logLevel: Env['LOG_LEVEL'];
  readonly logFormat: Env['LOG_FORMAT'];
  /** Seconds a run created with review_plan may wait for approval of its plan before it is cancelled. */
  readonly planReviewTimeoutSeconds: number;
}

/** Raised when the environment is invalid; lists every problem at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

export interface LoadConfigOptions {
  /**
   * The names SEARCH_PROVIDER may take: the search package's registry, passed in by the process that starts
   * (core cannot import search), so an unknown provider is named beside every other problem before anything
   * connects. Unset: any name passes here and the registry refuses it when the provider is built.
   */
  readonly searchProviders?: readonly string[];
}

function searchProviderProblem(name: string | undefined, known: readonly string[] | undefined): string[] {
  if (!known || name === undefined || known.includes(name.trim() || 'wikipedia')) return [];
  return [`SEARCH_PROVIDER: must be one of ${known.join(', ')}`];
}

/** Parses the environment (default: process.env) into the frozen AppConfig. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadConfigOptions = {}): AppConfig {
  const parsed = envSchema.safeParse(env);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)),
    ...searchProviderProblem(env.SEARCH_PROVIDER, options.searchProviders),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  // Node refuses a header deadline beyond the whole request's.
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError(['HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS']);
  }
  return deepFreeze<AppConfig>({
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    workerConcurrency: e.WORKER_CONCURRENCY,
    workerLockMs: e.WORKER_LOCK_MS,
    workerStalledIntervalMs: e.WORKER_STALLED_INTERVAL_MS,
    reconcileIntervalMs: e.RECONCILE_INTERVAL_MS,
    metricsPublishIntervalMs: e.METRICS_PUBLISH_INTERVAL_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    passwordHashConcurrency: e.PASSWORD_HASH_CONCURRENCY,
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      eventsPollMs: e.EVENTS_POLL_MS,
      eventsKeepAliveMs: e.EVENTS_KEEPALIVE_MS,
    },
    workerHeartbeatFile: e.WORKER_HEARTBEAT_FILE,
    llm: {
      baseUrl: e.LLM_BASE_URL?.replace(/\/+$/, ''),
      apiKey: e.LLM_API_KEY,
      model: e.LLM_MODEL,
      maxConcurrency: e.LLM_MAX_CONCURRENCY,
      routesMaxConcurrency: e.LLM_ROUTES_MAX_CONCURRENCY,
      timeoutMs: e.LLM_TIMEOUT_MS,
      prices: llmPricesOf(e.LLM_PRICE_INPUT_PER_MTOK, e.LLM_PRICE_OUTPUT_PER_MTOK),
    },
    quotas: {
      runsPerMinute: e.RUNS_PER_KEY_PER_MINUTE,
      runsPerHour: e.RUNS_PER_KEY_PER_HOUR,
      searchesPerMinute: e.SEARCHES_PER_KEY_PER_MINUTE,
    },
    vision: {
      baseUrl: (e.VISION_BASE_URL ?? e.LLM_BASE_URL)?.replace(/\/+$/, ''),
      model: e.VISION_MODEL,
      apiKey: e.VISION_API_KEY ?? (e.VISION_BASE_URL ? undefined : e.LLM_API_KEY),
      maxImageBytes: e.VISION_MAX_IMAGE_BYTES,
    },
    audio: {
      baseUrl: (e.AUDIO_BASE_URL ?? e.LLM_BASE_URL)?.replace(/\/+$/, ''),
      model: e.AUDIO_MODEL,
      apiKey: e.AUDIO_API_KEY ?? (e.AUDIO_BASE_URL ? undefined : e.LLM_API_KEY),
      maxBytes: e.AUDIO_MAX_BYTES,
      maxDurationSeconds: e.AUDIO_MAX_DURATION_SECONDS,
    },
    search: {
      provider: e.SEARCH_PROVIDER,
      searxngUrl: e.SEARXNG_URL,
      braveApiKey: e.BRAVE_API_KEY,
      tavilyApiKey: e.TAVILY_API_KEY,
      localCorpusDir: e.LOCAL_CORPUS_DIR,
      wikipediaApiUrl: e.WIKIPEDIA_API_URL,
      braveApiUrl: e.BRAVE_API_URL,
      tavilyApiUrl: e.TAVILY_API_URL,
      timeoutMs: e.SEARCH_TIMEOUT_MS,
      maxRetries: e.SEARCH_MAX_RETRIES,
      retryBaseMs: e.SEARCH_RETRY_BASE_MS,
      localCorpusPollMs: e.LOCAL_CORPUS_POLL_MS,
    },
    crawler: {
      allowPrivateNetworks: e.CRAWLER_ALLOW_PRIVATE_NETWORKS,
      respectRobots: e.CRAWLER_RESPECT_ROBOTS,
      timeoutMs: e.CRAWLER_TIMEOUT_MS,
      cacheTtlSeconds: e.CRAWLER_CACHE_TTL_SECONDS,
    },
    webhooks: {
      secret: e.WEBHOOK_SECRET,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
    },
    debug: e.DEBUG,
    webRoot: webRootOf(e.WEB_ROOT),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    planReviewTimeoutSeconds: e.PLAN_REVIEW_TIMEOUT_SECONDS,
  });
}
