import crypto from 'node:crypto';
import { isCollectionUrl, queryKey, type SearchResultDraft, type SourceDraft } from '@research/core';
import type { NewRunEvent, SearchResultRow, SourceRow } from '@research/database';
import { hitUrlKey, isLocalUrl, readLocalDocument } from '@research/search';
import { searchResultRows, sourceRows, writeSearchResults, writeSources } from '../step-records';
import { defineStep, type SnapshotOf, type StepContext, type StepRecords, type StepRecordsInput } from '../steps';
import { searchLinkingNames } from './bridge';
import { readCollectionHits } from './collection-search';
import { nextCandidates, queryRoles, rankPool, type Candidate as PoolCandidate } from './select';
import { keepControlledSources } from './source-controls';

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/** `local:` hits read from the corpus folder, up to `room`; returns the sources and how many were unreadable. */
async function readLocalHits(
  ctx: StepContext,
  hits: readonly Candidate[],
  room: number,
): Promise<{ sources: SourceDraft[]; unreadable: number }> {
  const corpusDir = ctx.services.localCorpusDir;
  const sources: SourceDraft[] = [];
  let unreadable = 0;
  if (!corpusDir) return { sources, unreadable };
  for (const hit of hits.slice(0, room)) {
    try {
      const doc = await readLocalDocument(hit.url, corpusDir);
      // An HTML file is read as a fetched page is: its article, without the site around it.
      const article = doc.html ? await articleOf(ctx, doc.html, doc.url) : null;
      sources.push({
        id: crypto.randomUUID(),
        url: doc.url,
        title: article?.title || doc.title || hit.title,
        domain: 'local',
        source_type: 'other',
        retrieved_at: new Date().toISOString(),
        content: article?.content ?? doc.text,
        published_at: article?.publishedAt ?? null,
        language: article?.language ?? null,
      });
    } catch (error) {
      unreadable++;
      ctx.metrics.sourcesRejected('unreadable');
      ctx.logger.warn('local document unreadable', { url: hit.url, error });
    }
  }
  return { sources, unreadable };
}

/**
 * Characters an HTML file's article must hold to stand for the file (else its whole text does). Swept on the local
 * evaluation (`npm run eval -- local`): 100, 200 and 400 give the same figures (answering page cited 42/43, answer in
 * report 35/43, first 24/43; unanswered without findings 2/30): Readability's articles of the 130 pages are longer.
 */
const MIN_ARTICLE_CHARS = 200;

/**
 * The article of a local HTML file by the crawler's extraction, or null when it is too short to stand for the
 * file or cannot be read (the file's whole text is used then).
 */
async function articleOf(ctx: StepContext, html: Buffer, url: string) {
  try {
    const article = await ctx.services.crawler.extractPage(html, url, ctx.signal);
    return article.content.length >= MIN_ARTICLE_CHARS ? article : null;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return null;
  }
}

/**
 * Web pages through the crawler within the run's crawl budgets: `maxSources` given the sources `kept`,
 * max_pages_per_domain, and max_total_download_bytes through the run's persisted usage. `unread`: the URLs
 * not read because `maxSources` was reached (a later hop may read them).
 */
async function crawlHits(
  ctx: StepContext,
  hits: readonly Candidate[],
  kept: readonly HeldSource[],
  maxSources: number,
): Promise<{ sources: SourceDraft[]; unread: string[] }> {
  const urls = [...new Set(hits.filter((h) => !isLocalUrl(h.url) && !isCollectionUrl(h.url)).map((h) => h.url))];
  if (urls.length === 0 || kept.length >= maxSources) return { sources: [], unread: urls };
  const { budget } = ctx;
  const result = await ctx.services.crawler.fetchSources(
    urls,
    {
      max_sources: maxSources,
      max_pages_per_domain: budget.max_pages_per_domain,
      max_total_download_bytes: budget.max_total_download_bytes,
      used: {
        sources: kept.length,
        bytes: budget.usage.download_bytes ?? 0,
        pages_per_domain: countBy(kept.filter(isOwnPage), (s) => s.domain),
      },
    },
    { signal: ctx.signal, language: ctx.run.language, existing: kept.map((s) => ({ url: s.url, content: s.content })) },
  );
  budget.take('download_bytes', result.usage.bytes - (budget.usage.download_bytes ?? 0));
  // The report lists budgets that ran out among its uncertainties.
  if (result.rejected.some((r) => r.reason === 'budget_bytes')) {
    ctx.note({ kind: 'budget', resource: 'download_bytes', max: budget.max_total_download_bytes, dropped: 0 });
  }
  budget.take('sources_rejected', result.rejected.length);
  for (const { url, reason } of result.rejected) {
    ctx.progress({ type: 'source', round: ctx.round, url, outcome: 'rejected', reason });
  }
  const published = new Map(hits.map((h) => [h.url, h.published_at]));
  return {
    sources: result.sources.map((s) => ({ ...s, published_at: s.published_at ?? published.get(s.url) ?? null })),
    unread: result.rejected.filter((r) => r.reason === 'budget_sources').map((r) => r.url),
  };
}

/** What a round read: its sources, and the search hits its second hop found (stored with them). */
export interface FetchOutput {
  sources: SourceDraft[];
  searchResults: SearchResultDraft[];
}

/** The hits so far (the pool, the queries sent) and the sources held, with their text (the names they give). */
type FetchReads = SnapshotOf<'searchResults' | 'sources'>;

type Candidate = Pick<SearchResultRow, 'url' | 'title' | 'published_at'>;
/** A source the run holds (stored, or read earlier in this step). */
type HeldSource = Pick<SourceDraft, 'url' | 'content' | 'domain' | 'title'> & { round?: number };

/**
 * Whether a source the run holds counts toward max_pages_per_domain: not those a follow-up inherited from its
 * parent (round 0: never read again), or a follow-up of a run that filled a site (every Wikipedia page is one)
 * could read nothing new there. Its max_sources already counts them (raised by as many at its creation).
 */
function isOwnPage(source: HeldSource): boolean {
  return source.round !== 0;
}

/**
 * Reads `hits` in order until the run holds `maxSources`: local documents from the corpus folder, web pages
 * through the crawler; keeps what the run's source controls allow of what was read. `unreadable`: documents
 * that could not be read or that the controls refused.
 */
async function readHits(
  ctx: StepContext,
  hits: readonly Candidate[],
  kept: readonly HeldSource[],
  maxSources: number,
): Promise<{ sources: SourceDraft[]; unreadable: number; unread: string[] }> {
  const local = await readLocalHits(
    ctx,
    hits.filter((h) => isLocalUrl(h.url)),
    Math.max(0, maxSources - kept.length),
  );
  const stored = await readCollectionHits(ctx, hits, Math.max(0, maxSources - kept.length - local.sources.length));
  const remote = await crawlHits(ctx, hits, [...kept, ...local.sources, ...stored.sources], maxSources);
  const read = [...local.sources, ...stored.sources, ...remote.sources];
  const sources = keepControlledSources(ctx, read);
  const unreadable = local.unreadable + stored.unreadable + read.length - sources.length;
  return { sources, unreadable, unread: remote.unread };
}

/**
 * Hops a round reads in: the first reads the pool's best pages (the question's own, the pages of the names it
 * gives), each later one the pages of the names those pages gave. A round's sources are spread evenly over its
 * hops: a site's few pages (max_pages_per_domain, one of them kept for the last hop: SITE_PAGES_KEPT_FOR_LAST_HOP)
 * and the round's room are spent on pages the pool ranked knowing more. Swept on the tune sets (150 HotpotQA, 100
 * 2Wiki, 61 MuSiQue questions; all gold pages fetched): 2 hops 76.7/67.0/45.9 %, 3 hops 81.3/74.0/50.8 %, 4 hops
 * 81.3/72.0/47.5 %; again with a page of each site kept (first 300 of each): 3 hops 87.0/88.3/60.7 %, 4 hops
 * 88.0/82.0/59.0 %.
 */
export const HOPS_PER_ROUND = 3;

/**
 * Pages of each site that wait for a round's last hop: the hops before it read at most max_pages_per_domain less
 * these of a site (never less than one), so that the pages the hops' names lead to still find room on the sites
 * the question's own pages filled (every gold page the tune runs found and did not read was on a full site).
 * Swept on the tune sets (first 300 of each; every gold page read, answer in the report, HotpotQA / 2Wiki /
 * MuSiQue): none 85.3 / 80.0 / 54.1 % and 79.6 / 74.7 / 31.1 %; in the first hop only 86.0 / 86.3 / 59.0 % and
 * 81.3 / 78.8 / 29.5 %; in every hop before the last 87.0 / 88.3 / 60.7 % and 82.0 / 81.8 / 36.1 %.
 */
export const SITE_PAGES_KEPT_FOR_LAST_HOP = 1;

/**
 * The question's own first hits that a hop before the last reads although their site already gave a page (the
 * page kept for the last hop goes to them): the page the question's search ranks first is the likeliest to answer
 * it, and was held back when a page of its site ranked higher in the pool (a name's page, a sibling the question's
 * words fit better). Swept on the tune sets (first 300 of each, quick, no model; every gold page read / answer in
 * the report / in the first sentence, HotpotQA, 2Wiki, MuSiQue): 0: 264/237/134, 269/167/134, 38/26/13; 1:
 * 268/239/133, 268/166/133, 38/26/13; 2: 265/238/132, 266/162/129, 38/26/14.
 */
export const FIRST_HITS_UNRESERVED = 1;

/** What a round has read and searched so far, hop after hop. */
interface RoundReading {
  held: HeldSource[];
  sources: SourceDraft[];
  /** The hops' hits. */
  found: SearchResultDraft[];
  /** Pages read or tried (by hitUrlKey): they leave the pool. */
  tried: Set<string>;
  /** Queries the run sent, and the names searched (by queryKey). */
  asked: Set<string>;
  /** The hops' name queries (by queryKey) with their names and weights. */
  names: Map<string, { name: string; weight: number }>;
  /** Pages read or refused (the fetch event's candidates). */
  candidates: number;
  hopsDone: number;
  budgetNoted: boolean;
}

/**
 * Reads the round in hops from one pool of every hit of every query the run sent (rankPool): each hop reads the
 * pool's best pages that sites have room for (nextCandidates), then the pages read so far give the names the
 * question needs next (searchNextNames), whose hits join the pool, ranked again before the next hop. Returns
 * the sources and the hops' hits, committed together.
 */
export async function fetchStep(snapshot: FetchReads, ctx: StepContext): Promise<FetchOutput> {
  const known: readonly SourceRow[] = snapshot.sources;
  const allowance = ctx.budget.sourceAllowance(known.length, ctx.round, ctx.rounds);
  const maxSources = Math.min(ctx.budget.max_sources, known.length + Math.max(0, allowance));
  const round: RoundReading = {
    held: [...known],
    sources: [],
    found: [],
    tried: new Set(known.map((s) => hitUrlKey(s.url) ?? s.url)),
    asked: new Set(snapshot.searchResults.map((r) => queryKey(r.query))),
    names: new Map(),
    candidates: 0,
    hopsDone: 0,
    budgetNoted: false,
  };
  while (round.held.length < maxSources && (await readHop(snapshot, ctx, round, maxSources))) {
    if (round.held.length < maxSources) await searchNextNames(snapshot, ctx, round);
  }
  ctx.note({ kind: 'fetch', round: ctx.round, candidates: round.candidates, accepted: round.sources.length });
  return { sources: round.sources, searchResults: round.found };
}

/**
 * One hop: the pool ranked again, and its best pages read, the round's room left spread over the hops to come.
 * False when the pool has nothing left to read; a hop before the last that finds nothing on a site with room
 * reads nothing and leaves its room to the hops after it.
 */
async function readHop(snapshot: FetchReads, ctx: StepContext, round: RoundReading, maxSources: number) {
  const hits = [...snapshot.searchResults, ...round.found];
  const pool = rankPool(ctx, hits, queryRoles(ctx, new Set(hits.map((h) => h.query)), round.names), round.tried);
  const room = maxSources - round.held.length;
  const hop = Math.ceil(room / Math.max(1, HOPS_PER_ROUND - round.hopsDone));
  const perSite = sitePagesForHop(ctx.budget.max_pages_per_domain, round.hopsDone);
  round.hopsDone++;
  // The question's first hits may take the page a site keeps for the last hop (FIRST_HITS_UNRESERVED).
  const pagesOfSite = (c: PoolCandidate) =>
    c.questionRank !== null && c.questionRank <= FIRST_HITS_UNRESERVED ? ctx.budget.max_pages_per_domain : perSite;
  // Twice the hop's room at most: replacements for pages that fail; the rest wait in the pool.
  const batch = nextCandidates(pool, 2 * hop, sitesOf(round.held.filter(isOwnPage)), pagesOfSite);
  // A hop the kept pages leave nothing to read passes its room on to the hops after it.
  if (batch.length === 0) return perSite < ctx.budget.max_pages_per_domain;
  const read = await readHits(
    ctx,
    batch.map((c) => c.hit as Candidate),
    round.held,
    round.held.length + hop,
  );
  const unread = new Set(read.unread.map((url) => hitUrlKey(url) ?? url));
  for (const c of batch) if (!unread.has(c.key)) round.tried.add(c.key);
  for (const s of read.sources) round.tried.add(hitUrlKey(s.url) ?? s.url);
  round.sources.push(...read.sources);
  round.held.push(...read.sources);
  round.candidates += read.sources.length + read.unreadable;
  return true;
}

/**
 * The names the pages read so far give, searched with the round's queries left (the search step's link reserve
 * and what its own share did not need) spread over the hops to come; their hits join the round's. When the run's
 * budget is spent, searchLinkingNames says so once.
 */
async function searchNextNames(snapshot: FetchReads, ctx: StepContext, round: RoundReading): Promise<void> {
  const queriesLeft = ctx.budget.queryAllowance(ctx.round, ctx.rounds);
  const spent = ctx.budget.remaining('search_queries') < 1;
  if (queriesLeft < 1 || (spent && round.budgetNoted)) return;
  round.budgetNoted ||= spent;
  const next = await searchLinkingNames(ctx, round.held, {
    seen: new Set(round.held.map((s) => s.url)),
    found: [...snapshot.searchResults, ...round.found].map((h) => h.url),
    asked: round.asked,
    limit: Math.ceil(queriesLeft / Math.max(1, HOPS_PER_ROUND - round.hopsDone)),
  });
  for (const { name, query, weight } of next.names) {
    round.names.set(queryKey(query), { name, weight });
    round.asked.add(queryKey(query));
    round.asked.add(queryKey(name));
  }
  round.found.push(...next.hits);
}

/**
 * How many pages of one site the run may hold once hop number `hopsDone` (0 for the first) is read: in a round's
 * last hop and those after it, max_pages_per_domain; in the hops before, SITE_PAGES_KEPT_FOR_LAST_HOP fewer, never
 * less than one.
 */
function sitePagesForHop(maxPagesPerDomain: number, hopsDone: number): number {
  if (hopsDone >= HOPS_PER_ROUND - 1) return maxPagesPerDomain;
  return Math.max(1, maxPagesPerDomain - SITE_PAGES_KEPT_FOR_LAST_HOP);
}

/** How many pages each site gave the run. */
function sitesOf(held: readonly HeldSource[]): Map<string, number> {
  return new Map(Object.entries(countBy(held, (s) => s.domain)));
}

/** A progress event per source read. */
function sourceEvents(round: number, rows: readonly SourceRow[]): NewRunEvent[] {
  return rows.map((s) => ({
    type: 'source',
    data: {
      round,
      url: s.url,
      outcome: 'fetched',
      source_id: s.id,
      title: s.title,
      domain: s.domain,
      content_sha256: s.content_sha256,
    },
  }));
}

/** The round's sources and the hops' hits, stored together. */
function fetchRecords(
  read: FetchOutput,
  { ctx, snapshot, now }: StepRecordsInput<'searchResults' | 'sources'>,
): StepRecords {
  const hits = searchResultRows(ctx.run, ctx.round, read.searchResults, snapshot);
  const rows = sourceRows(ctx.run, ctx.round, read.sources, { snapshot, budget: ctx.budget, now });
  return {
    write: async (trx) => {
      await writeSearchResults(trx, hits);
      await writeSources(trx, rows);
    },
    events: sourceEvents(ctx.round, rows),
  };
}

/** Fetching: the round's pages read in hops, with the hits the hops' names found. */
export const fetchModule = defineStep({
  name: 'fetch',
  state: 'fetching',
  reads: ['searchResults', 'sources'],
  compute: fetchStep,
  records: fetchRecords,
});
