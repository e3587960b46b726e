import axios from 'axios';
import { VERSION } from '@research/core';

export const USER_AGENT = `research-service/${VERSION} (self-hosted research service)`;

export interface WikiEndpoints {
  /** The search API (…/w/api.php). */
  api: string;
  /** Where pages live: `${origin}/wiki/<title>`. */
  origin: string;
}

/** A safe Wikipedia language code from the run's language (default English when it is not one). */
export function wikiLanguage(language: string | null | undefined): string {
  const code = (language ?? '').trim().toLowerCase();
  return /^[a-z]{2,3}(-[a-z]{2,8})?$/.test(code) ? code : 'en';
}

/** The configured MediaWiki (WIKIPEDIA_API_URL) or the run language's Wikipedia. */
export function wikiEndpoints(apiUrl: string | undefined, language: string): WikiEndpoints {
  if (apiUrl) return { api: apiUrl, origin: new URL(apiUrl).origin };
  const origin = `https://${wikiLanguage(language)}.wikipedia.org`;
  return { api: `${origin}/w/api.php`, origin };
}

export function wikiPageUrl(origin: string, title: string): string {
  return `${origin}/wiki/${encodeURIComponent(title.replace(/ /g, '_')).replace(/%3A/gi, ':').replace(/%2F/gi, '/')}`;
}

export interface WikiHit {
  title: string;
  url: string;
  snippet: string | null;
  timestamp: string | null;
}

interface SearchResponse {
  error?: { code?: string; info?: string };
  query?: { search?: Array<{ title?: unknown; snippet?: unknown; timestamp?: unknown }> };
}

function plainSnippet(snippet: unknown): string | null {
  if (typeof snippet !== 'string') return null;
  const text = snippet
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text || null;
}

/** One MediaWiki full-text search (action=query&list=search), in the API's documented JSON shape. */
export async function searchMediaWiki(params: {
  endpoints: WikiEndpoints;
  query: string;
  limit: number;
  timeoutMs: number;
  signal: AbortSignal;
}): Promise<WikiHit[]> {
  const response = await axios.get<SearchResponse>(params.endpoints.api, {
    params: { action: 'query', list: 'search', srsearch: params.query, format: 'json', srlimit: params.limit, utf8: 1 },
    timeout: params.timeoutMs,
    signal: params.signal,
    headers: { 'User-Agent': USER_AGENT, Accept: 'application/json' },
    maxContentLength: 5_000_000,
    responseType: 'json',
  });
  const data = response.data;
  if (!data || typeof data !== 'object') throw new Error('Search API answered without JSON');
  if (data.error) throw new Error(`Search API error: ${data.error.info ?? data.error.code ?? 'unknown'}`);
  const hits = Array.isArray(data.query?.search) ? data.query!.search! : [];
  return hits
    .filter(
      (h): h is { title: string; snippet?: unknown; timestamp?: unknown } =>
        typeof h.title === 'string' && h.title.length > 0,
    )
    .map((h) => ({
      title: h.title,
      url: wikiPageUrl(params.endpoints.origin, h.title),
      snippet: plainSnippet(h.snippet),
      timestamp: typeof h.timestamp === 'string' ? h.timestamp : null,
    }));
}
