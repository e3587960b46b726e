import crypto from 'node:crypto';
import type { SearchResultDraft, SourceDraft } from '@research/core';
import type { SearchResultRow, SourceRow } from '@research/database';
import { isLocalUrl, readLocalDocument } from '@research/search';
import { nameKey, nameKeys, namedPageWeight } from '@research/engine';
import type { RunSnapshot, StepContext } from '../steps';
import { bridgeHop, snippetHop, type NamesSearched } from './bridge';
import { orderByWorth, selectHits, worthAt, type Weighed } from './select';
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

/** Characters an HTML file's article must hold to stand for the file (else its whole text does). */
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
  kept: ReadonlyArray<Pick<SourceDraft, 'url' | 'content' | 'domain'>>,
  maxSources: number,
): Promise<{ sources: SourceDraft[]; unread: string[] }> {
  const urls = [...new Set(hits.filter((h) => !isLocalUrl(h.url)).map((h) => h.url))];
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
        pages_per_domain: countBy(kept, (s) => s.domain),
      },
    },
    { signal: ctx.signal, language: ctx.run.language, existing: kept.map((s) => ({ url: s.url, content: s.content })) },
  );
  budget.take('download_bytes', result.usage.bytes - (budget.usage.download_bytes ?? 0));
  // The report lists budgets that ran out among its uncertainties.
  if (result.rejected.some((r) => r.reason === 'budget_bytes')) {
    ctx.record({ kind: 'budget', resource: 'download_bytes', max: budget.max_total_download_bytes, dropped: 0 });
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

type Candidate = Pick<SearchResultRow, 'url' | 'title' | 'published_at'>;
/** A source the run holds (stored, or read earlier in this step). */
type HeldSource = Pick<SourceDraft, 'url' | 'content' | 'domain' | 'title'>;

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
  const remote = await crawlHits(ctx, hits, [...kept, ...local.sources], maxSources);
  const read = [...local.sources, ...remote.sources];
  const sources = keepControlledSources(ctx, read);
  return { sources, unreadable: local.unreadable + read.length - sources.length, unread: remote.unread };
}

/**
 * The second hop's candidates, best first: a name's own top hits before the first hop's leftovers (hits not
 * tried yet, and those the first hop left for want of room, not those that failed); its lower ranks after.
 */
function secondHopCandidates(
  hits: readonly SearchResultRow[],
  first: { tried: ReadonlySet<string>; unread: readonly string[] },
  held: readonly HeldSource[],
  found: readonly SearchResultDraft[],
): Array<Weighed<Candidate>> {
  const read = new Set(held.map((s) => s.url));
  const unread = new Set(first.unread);
  const waiting = hits
    .map((item, index) => ({ item: item as Candidate, worth: worthAt(index) }))
    .filter(
      ({ item }) => !read.has(item.url) && (!first.tried.has(item.url) || unread.has(item.url) || isLocalUrl(item.url)),
    );
  const names = nameKeys(found.map((item) => item.query));
  const named = found.map((item) => ({
    item: item as Candidate,
    worth: worthAt(item.rank - 1) * namedPageWeight(item.title, names),
  }));
  return [...named, ...waiting].sort((a, b) => b.worth - a.worth);
}

/**
 * The page of each name a hop searched: its best-ranked hit titled as the name, one a name (other pages
 * titled the same wait with the name's other hits).
 */
function pagesOfNames(searched: NamesSearched): SearchResultDraft[] {
  const names = nameKeys(searched.queries);
  const taken = new Set<string>();
  return [...searched.hits]
    .sort((a, b) => a.rank - b.rank)
    .filter((hit) => {
      const key = nameKey(hit.title ?? '');
      if (!names.has(key) || taken.has(key)) return false;
      taken.add(key);
      return true;
    });
}

/**
 * Reads the round in two hops: the hits selectHits chose, up to the round's room less the second hop's
 * reserve, after the pages titled as a name the best hits' snippets give (snippetHop); then the names those
 * pages give that the question needs (bridgeHop) are searched, and their top hits, then the first hop's hits
 * not read yet, fill the room.
 */
export async function fetchStep(snapshot: RunSnapshot, ctx: StepContext): Promise<FetchOutput> {
  const known: readonly SourceRow[] = snapshot.sources;
  const { hits, maxSources, offTopic, repeats } = selectHits(snapshot, ctx);
  if (hits.length === 0) {
    ctx.record({ kind: 'fetch', round: ctx.round, candidates: 0, accepted: 0 });
    return { sources: [], searchResults: [] };
  }
  const firstMax = maxSources - ctx.budget.bridgeReserve(maxSources - known.length);
  // The first hop tries twice its room at most (replacements for pages that fail); the rest wait for the second.
  // A hit whose title and snippet say nothing of the question waits for the second hop, after the names' pages,
  // and so does a repeat of a subject its site gave (its site's last page may be a name's).
  const tried = hits.filter((h) => !offTopic.has(h.url) && !repeats.has(h.url)).slice(0, 2 * (firstMax - known.length));
  const seen = new Set([...snapshot.searchResults.map((r) => r.url), ...known.map((s) => s.url)]);
  const early = await snippetHop(snapshot, ctx, tried, seen);
  const first = await readHits(ctx, [...pagesOfNames(early), ...tried], known, firstMax);
  const held: HeldSource[] = [...known, ...first.sources];
  for (const hit of early.hits) seen.add(hit.url);
  const late = await bridgeHop(snapshot, ctx, held, { seen, early });
  const found = [...early.hits, ...late];
  const candidates = secondHopCandidates(
    hits,
    { tried: new Set(tried.map((h) => h.url)), unread: first.unread },
    held,
    found,
  );
  const second = await readHits(ctx, orderByWorth(candidates, held).items, held, maxSources);
  const sources = [...first.sources, ...second.sources];
  ctx.record({
    kind: 'fetch',
    round: ctx.round,
    candidates: sources.length + first.unreadable + second.unreadable,
    accepted: sources.length,
  });
  return { sources, searchResults: found };
}
