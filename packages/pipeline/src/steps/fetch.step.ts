import crypto from 'node:crypto';
import type { SourceDraft } from '@research/core';
import type { SearchResultRow, SourceRow } from '@research/database';
import { isLocalUrl, readLocalDocument } from '@research/search';
import type { RunSnapshot, StepContext } from '../steps';
import { selectHits } from './select';

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/** `local:` hits read from the corpus folder, up to `room`; returns the sources and how many were unreadable. */
async function readLocalHits(
  ctx: StepContext,
  hits: readonly SearchResultRow[],
  room: number,
): Promise<{ sources: SourceDraft[]; unreadable: number }> {
  const corpusDir = ctx.services.localCorpusDir;
  const sources: SourceDraft[] = [];
  let unreadable = 0;
  if (!corpusDir) return { sources, unreadable };
  for (const hit of hits.slice(0, room)) {
    try {
      const doc = await readLocalDocument(hit.url, corpusDir);
      sources.push({
        id: crypto.randomUUID(),
        url: doc.url,
        title: doc.title ?? hit.title,
        domain: 'local',
        source_type: 'other',
        retrieved_at: new Date().toISOString(),
        content: doc.text,
        published_at: null,
        language: null,
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
 * Web pages through the crawler within the run's crawl budgets: `maxSources` given the sources `kept`,
 * max_pages_per_domain, and max_total_download_bytes through the run's persisted usage.
 */
async function crawlHits(
  ctx: StepContext,
  hits: readonly SearchResultRow[],
  kept: ReadonlyArray<Pick<SourceDraft, 'url' | 'content' | 'domain'>>,
  maxSources: number,
): Promise<SourceDraft[]> {
  const urls = [...new Set(hits.filter((h) => !isLocalUrl(h.url)).map((h) => h.url))];
  if (urls.length === 0 || kept.length >= maxSources) return [];
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
  const published = new Map(hits.map((h) => [h.url, h.published_at]));
  return result.sources.map((s) => ({ ...s, published_at: s.published_at ?? published.get(s.url) ?? null }));
}

/** Reads the hits selectHits chose for the round: local documents from the corpus folder, web pages through the crawler. */
export async function fetchStep(snapshot: RunSnapshot, ctx: StepContext): Promise<SourceDraft[]> {
  const known: readonly SourceRow[] = snapshot.sources;
  const { hits, maxSources } = selectHits(snapshot, ctx);
  if (hits.length === 0) {
    ctx.record({ kind: 'fetch', round: ctx.round, candidates: 0, accepted: 0 });
    return [];
  }
  const local = await readLocalHits(
    ctx,
    hits.filter((h) => isLocalUrl(h.url)),
    Math.max(0, maxSources - known.length),
  );
  const remote = await crawlHits(ctx, hits, [...known, ...local.sources], maxSources);
  const sources = [...local.sources, ...remote];
  ctx.record({
    kind: 'fetch',
    round: ctx.round,
    candidates: sources.length + local.unreadable,
    accepted: sources.length,
  });
  return sources;
}
