import type { SearchResultDraft } from '@research/core';
import type { Metrics } from '@research/observability';
import { runSearches, SEARCH_PROVIDER_NAMES, type SearchProviderName } from '@research/search';
import type { ResearchTools } from './research-tools';

/** The providers a search may name (the `provider` of POST /research/search). */
export { SEARCH_PROVIDER_NAMES, type SearchProviderName };

export interface SearchInput {
  query: string;
  provider?: SearchProviderName;
  language: string;
  max_results: number;
}

/**
 * One query through a configured provider, the way the pipeline's search step sends it (runSearches:
 * normalised, de-duplicated hits, search_queries_total counted). A provider that fails after its
 * retries is a 503 naming the provider. `admit` (the caller's quota) runs once the provider is known to
 * be configured, before it is asked.
 */
export async function searchOnce(request: {
  tools: ResearchTools;
  metrics: Metrics;
  input: SearchInput;
  signal: AbortSignal;
  admit?: () => Promise<void>;
}): Promise<{ provider: string; hits: SearchResultDraft[] }> {
  const { tools, metrics, input, signal, admit = async () => {} } = request;
  const provider = tools.searchProvider(input.provider);
  await admit();
  const result = await runSearches({
    provider,
    queries: [input.query],
    maxQueries: 1,
    language: input.language,
    limit: input.max_results,
    signal,
    metrics,
  });
  if (result.allFailed) throw result.lastError;
  return { provider: provider.name, hits: result.hits.slice(0, input.max_results) };
}
