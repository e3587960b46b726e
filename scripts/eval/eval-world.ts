// What both evaluations share: the loopback web of the data's pages with a BM25 engine in SearXNG's JSON shape,
// the real service pointed at it, several runs in flight at once, and the way figures are printed.
import fs from 'node:fs';
import path from 'node:path';
import { startFakeWeb, type FakeWeb, type FakeWebPage } from '../../test/fakes/fake-web';
import type { Bench } from '../bench/harness';
import { createBm25Index } from './bm25';
import type { EvalLlm } from './llm-choice';
import { fraction, mean, median, share } from './protocol';
import type { SetPart } from './question-sets';
import { startServiceStack, type RunOutcome, type ServiceStack } from './service-stack';

/** What an evaluation is asked to do (from the command line). */
export interface EvalSettings {
  bench: Bench;
  dataDir: string;
  /** The question set (`hotpot`; question-sets.ts), when the command named one. */
  set?: string | undefined;
  /** The part of the set evaluated, when the command named one. */
  part?: SetPart | undefined;
  /** Evaluate only the first `limit` items (of the part). */
  limit: number | undefined;
  depth: string;
  /** Runs in flight at once (the worker's WORKER_CONCURRENCY). */
  concurrency: number;
  /** A run not ended after this long is given up (and counts as not completed). */
  runTimeoutMs: number;
  llm: EvalLlm;
  logFile: string;
  /** Where each run's results and judgement are written as JSON (--save), if anywhere. */
  saveDir: string | undefined;
  /** Where saved runs are read from to write their reports again instead of running them (--replay; replay.ts). */
  replayDir?: string | undefined;
}

/** The service an evaluation's runs go to, and how to end it with whatever it runs on. */
export interface ServiceWorld {
  stack: ServiceStack;
  close(): Promise<void>;
}

export interface EvalWorld extends ServiceWorld {
  web: FakeWeb;
  /** The page a run's source URL is (undefined for any other URL). */
  pageOf(url: string): FakeWebPage | undefined;
  /** One search of the engine the runs use, as a user would send it: the top 10 pages with their snippets. */
  searchOnce(query: string): Promise<Array<{ page: FakeWebPage; snippet: string }>>;
}

function urlKey(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/**
 * Starts the service with the search settings `search` (SEARCH_PROVIDER and its settings) and what every
 * evaluation sets: WORKER_CONCURRENCY runs in flight, warnings and errors logged, the chosen model.
 */
export function startEvalStack(settings: EvalSettings, search: Record<string, string>): Promise<ServiceStack> {
  return startServiceStack({
    logFile: settings.logFile,
    env: {
      ...search,
      WORKER_CONCURRENCY: String(settings.concurrency),
      LOG_LEVEL: 'warn',
      ...settings.llm.env,
    },
  });
}

/**
 * Serves `pages` (each on its own loopback host) with a BM25 search engine (k1 1.2, b 0.75) over title + text
 * of all of them, and starts the service against it: SEARCH_PROVIDER=searxng, private networks allowed to the
 * crawler, robots.txt obeyed (the loopback sites allow everything).
 */
export async function startEvalWorld(pages: FakeWebPage[], settings: EvalSettings): Promise<EvalWorld> {
  const index = createBm25Index(pages, (page) => `${page.title} ${page.paragraphs.join(' ')}`);
  const web = await startFakeWeb({ pages, rank: (query) => index.search(query, 10).map((hit) => hit.doc) });
  const byUrl = new Map(pages.map((page) => [urlKey(web.urlOf(page)), page]));
  let stack: ServiceStack;
  try {
    stack = await startEvalStack(settings, {
      SEARCH_PROVIDER: 'searxng',
      SEARXNG_URL: web.searchUrl.replace(/\/search$/, ''),
      CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
      CRAWLER_RESPECT_ROBOTS: 'true',
    });
  } catch (error) {
    await web.close();
    throw error;
  }
  return {
    web,
    stack,
    pageOf: (url) => byUrl.get(urlKey(url)),
    async searchOnce(query) {
      const response = await fetch(`${web.searchUrl}?q=${encodeURIComponent(query)}&format=json`);
      const body = (await response.json()) as { results: Array<{ url: string; content: string }> };
      return body.results.flatMap((r) => {
        const page = byUrl.get(urlKey(r.url));
        return page ? [{ page, snippet: r.content }] : [];
      });
    },
    async close() {
      await stack.stop();
      await web.close();
    },
  };
}

/** Runs `work` on every item, `concurrency` at a time, in the items' order; results in the same order. */
export async function inPool<T, R>(items: readonly T[], concurrency: number, work: (item: T, i: number) => Promise<R>) {
  const results = new Array<R>(items.length);
  let next = 0;
  async function lane(): Promise<void> {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!, i);
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return results;
}

/** How one evaluation turns its items into runs: the question asked, the judgement, the saved name, the printed line. */
export interface RunEach<I, J> {
  question(item: I): string;
  judge(item: I, run: RunOutcome): Promise<J>;
  name(item: I, i: number): string;
  line(item: I, i: number, run: RunOutcome, judgement: J): string;
}

/**
 * Researches every item's question on the world's service, `settings.concurrency` at a time, judging, saving
 * and printing each run as it ends; closes the world when all have ended (or one failed).
 */
export async function researchEach<I, J>(
  world: ServiceWorld,
  settings: EvalSettings,
  items: readonly I[],
  each: RunEach<I, J>,
): Promise<{ outcomes: RunOutcome[]; judgements: J[] }> {
  const outcomes: RunOutcome[] = [];
  const judgements: J[] = [];
  try {
    let done = 0;
    await inPool(items, settings.concurrency, async (item, i) => {
      const run = await world.stack.research(each.question(item), {
        depth: settings.depth,
        language: 'en',
        timeoutMs: settings.runTimeoutMs,
      });
      const judgement = await each.judge(item, run);
      outcomes[i] = run;
      judgements[i] = judgement;
      saveRun(settings, each.name(item, i), { item, run, judgement });
      console.log(`  [${String(++done).padStart(2)}/${items.length}] ${each.line(item, i, run, judgement)}`);
    });
  } finally {
    await world.close();
  }
  return { outcomes, judgements };
}

/** Writes one run's results, stored texts and judgement to `<saveDir>/<name>.json` when --save asked for it. */
export function saveRun(
  settings: EvalSettings,
  name: string,
  data: { item: unknown; run: RunOutcome; judgement: unknown },
) {
  if (!settings.saveDir) return;
  fs.mkdirSync(settings.saveDir, { recursive: true });
  const run = { ...data.run, storedText: Object.fromEntries(data.run.storedText) };
  fs.writeFileSync(path.join(settings.saveDir, `${name}.json`), `${JSON.stringify({ ...data, run }, null, 2)}\n`);
}

/** "33/53  62.3 %" */
export function counted(part: number, whole: number): string {
  return whole > 0 ? `${part}/${whole}  ${(share(part, whole) * 100).toFixed(1)} %` : 'n/a';
}

/** Prints rows of label and values as aligned columns. */
export function printTable(rows: Array<[string, ...string[]]>): void {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  for (const row of rows) console.log(`  ${row.map((cell, c) => cell.padEnd(widths[c]!)).join('   ')}`.trimEnd());
}

/** Claims whose evidence span occurs, character for character, in their source's stored text. */
export function groundedClaims(outcomes: readonly RunOutcome[]): { grounded: number; claims: number } {
  let grounded = 0;
  let claims = 0;
  for (const run of outcomes) {
    for (const claim of run.claims) {
      claims++;
      if (run.storedText.get(claim.source_id)?.includes(claim.evidence_span)) grounded++;
    }
  }
  return { grounded, claims };
}

/** The figures and table rows every evaluation reports about its runs: completion, time, LLM use, grounding. */
export function runCostRows(outcomes: readonly RunOutcome[], settings: EvalSettings): Array<[string, string]> {
  const { bench } = settings;
  const completed = outcomes.filter((o) => o.state === 'completed').length;
  const seconds = outcomes.map((o) => o.seconds);
  const per = (key: string) => mean(outcomes.map((o) => o.usage[key] ?? 0));
  const { grounded, claims } = groundedClaims(outcomes);
  bench.figure('completed', fraction(completed, outcomes.length));
  bench.figure('grounding', fraction(grounded, claims));
  bench.figure('run_seconds_median', Number(median(seconds).toFixed(1)));
  bench.figure('run_seconds_mean', Number(mean(seconds).toFixed(1)));
  bench.figure('llm_calls_per_run', Number(per('llm_requests').toFixed(1)));
  bench.figure('llm_tokens_in_per_run', Math.round(per('llm_tokens_input')));
  bench.figure('llm_tokens_out_per_run', Math.round(per('llm_tokens_output')));
  const seen = settings.llm.requestsSeen();
  return [
    ['runs completed', counted(completed, outcomes.length)],
    ['grounding (evidence span in the stored text)', counted(grounded, claims)],
    ['run time, median / mean (worker, s)', `${median(seconds).toFixed(1)} / ${mean(seconds).toFixed(1)}`],
    [
      'LLM calls per run (run usage)',
      `${per('llm_requests').toFixed(1)}${seen === undefined ? '' : `   (fake server saw ${(seen / Math.max(1, outcomes.length)).toFixed(1)})`}`,
    ],
    [
      'LLM tokens per run, in / out',
      `${Math.round(per('llm_tokens_input'))} / ${Math.round(per('llm_tokens_output'))}`,
    ],
  ];
}

/** The figures of `runCostRows`, which every suite declares. */
export const RUN_COST_FIGURES = [
  'completed',
  'grounding',
  'run_seconds_median',
  'run_seconds_mean',
  'llm_calls_per_run',
  'llm_tokens_in_per_run',
  'llm_tokens_out_per_run',
];
