import crypto from 'node:crypto';
import type { SourceDraft } from '@research/core';
import type { RunSnapshot, StepContext } from '../steps';
import { htmlTitle, htmlToText } from './html';
import { PageRejected, fetchPage } from './page-fetcher';

export interface FetchSettings {
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  /** Origin of the configured wiki: its pages are trusted like its API. */
  trustedOrigin: string;
}

const LANES = 4;
const PAGE_CAP_BYTES = 2_000_000;
const MAX_CONTENT_CHARS = 200_000;

function domainOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/**
 * Fetches the pages this round's search found, within the run's budgets: max_sources overall,
 * max_pages_per_domain, max_total_download_bytes (usage.download_bytes, counted chunk by chunk across
 * parallel fetches). Refused or unreadable pages count in sources_rejected_total.
 */
export async function fetchStep(
  ctx: StepContext,
  snapshot: RunSnapshot,
  settings: FetchSettings,
): Promise<SourceDraft[]> {
  const { budget } = ctx;
  const known = new Set(snapshot.sources.map((s) => s.url));
  const candidates = snapshot.searchResults.filter((r) => r.round === ctx.round && !known.has(r.url));
  const perDomain = new Map<string, number>();
  for (const s of snapshot.sources) perDomain.set(s.domain, (perDomain.get(s.domain) ?? 0) + 1);
  const room = Math.max(0, budget.max_sources - snapshot.sources.length);
  let downloaded = ctx.usage.download_bytes ?? 0;
  // Counted per received chunk across all lanes: the run never stores more than its download budget.
  const meter = {
    take(bytes: number) {
      if (downloaded + bytes > budget.max_total_download_bytes) return false;
      downloaded += bytes;
      return true;
    },
  };
  const accepted: Array<{ index: number; draft: SourceDraft }> = [];
  let inFlight = 0;
  let next = 0;
  let budgetNoted = false;

  const reject = (reason: string) => ctx.metrics.sourcesRejected(reason);
  const noteBudget = () => {
    if (!budgetNoted)
      ctx.notes.push(
        `Download budget of ${budget.max_total_download_bytes} bytes reached; some pages were not fetched.`,
      );
    budgetNoted = true;
  };

  async function lane(): Promise<void> {
    while (next < candidates.length && accepted.length + inFlight < room) {
      ctx.signal.throwIfAborted();
      const index = next++;
      const candidate = candidates[index]!;
      const domain = domainOf(candidate.url);
      if ((perDomain.get(domain) ?? 0) >= budget.max_pages_per_domain) {
        reject('domain_limit');
        continue;
      }
      if (downloaded >= budget.max_total_download_bytes) {
        reject('download_budget');
        noteBudget();
        continue;
      }
      perDomain.set(domain, (perDomain.get(domain) ?? 0) + 1);
      inFlight++;
      try {
        const page = await fetchPage({
          url: candidate.url,
          timeoutMs: settings.timeoutMs,
          maxBytes: PAGE_CAP_BYTES,
          meter,
          allowPrivateNetworks: settings.allowPrivateNetworks,
          trustedOrigin: settings.trustedOrigin,
          signal: ctx.signal,
        });
        const isHtml = !/^text\/plain/i.test(page.contentType);
        const content = (isHtml ? htmlToText(page.body) : page.body.trim()).slice(0, MAX_CONTENT_CHARS);
        if (content.length < 40) throw new PageRejected('empty', 'No readable text');
        const isWiki = candidate.provider === 'wikipedia' || /(^|\.)wikipedia\.org$/i.test(domain);
        accepted.push({
          index,
          draft: {
            id: crypto.randomUUID(),
            url: candidate.url,
            title: (isHtml ? htmlTitle(page.body) : null) ?? candidate.title,
            domain,
            source_type: isWiki ? 'reference' : 'other',
            retrieved_at: new Date().toISOString(),
            content,
            published_at: null,
            language: ctx.run.language,
          },
        });
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        perDomain.set(domain, (perDomain.get(domain) ?? 1) - 1);
        reject(error instanceof PageRejected ? error.reason : 'network');
        if (error instanceof PageRejected && error.reason === 'download_budget') noteBudget();
        ctx.logger.info('page rejected', {
          url: candidate.url,
          reason: error instanceof PageRejected ? error.reason : 'network',
          error,
        });
      } finally {
        inFlight--;
      }
    }
  }

  await Promise.all(Array.from({ length: LANES }, () => lane()));
  ctx.usage.download_bytes = downloaded;
  ctx.usage.pages_fetched = (ctx.usage.pages_fetched ?? 0) + accepted.length;
  // Discovery order, whatever order the lanes finished in: resumes and reruns store the same sources.
  return accepted.sort((a, b) => a.index - b.index).map((a) => a.draft);
}
