import type { AppConfig } from '@research/core';
import type { ResearchEngine } from '../steps';
import { analyzeStep } from './analyze.step';
import { compareStep } from './compare.step';
import { fetchStep } from './fetch.step';
import { wikiEndpoints } from './mediawiki';
import { planStep } from './plan.step';
import { searchStep } from './search.step';
import { synthesizeStep } from './synthesize.step';

export type PlainEngineConfig = Pick<AppConfig, 'search' | 'crawler'>;

/**
 * The built-in extractive engine (no LLM): plans from the query's terms, searches a MediaWiki API,
 * fetches pages as plain text, quotes sentences as claims, scores them with simple formulas and
 * writes a report. A placeholder that writes real records until the evidence engine replaces it.
 */
export function createPlainEngine(config: PlainEngineConfig): ResearchEngine {
  const timeoutMs = config.crawler.timeoutMs;
  return {
    name: 'plain',
    async plan(ctx) {
      return planStep(ctx);
    },
    search(ctx, snapshot) {
      return searchStep(ctx, snapshot, { wikipediaApiUrl: config.search.wikipediaApiUrl, timeoutMs });
    },
    fetch(ctx, snapshot) {
      return fetchStep(ctx, snapshot, {
        timeoutMs,
        allowPrivateNetworks: config.crawler.allowPrivateNetworks,
        trustedOrigin: wikiEndpoints(config.search.wikipediaApiUrl, ctx.run.language).origin,
      });
    },
    async analyze(ctx, snapshot) {
      return analyzeStep(ctx, snapshot);
    },
    async compare(ctx, snapshot) {
      return compareStep(ctx, snapshot);
    },
    async synthesize(ctx, snapshot) {
      return synthesizeStep(ctx, snapshot);
    },
  };
}
