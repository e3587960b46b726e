import { z } from 'zod';
import { boundedText } from '../validation';
import { MAX_BATCH_URLS } from '@research/runs';

const url = boundedText(1, 2048).meta({ description: 'An http(s) URL.', example: 'https://example.org/article' });
const language = boundedText(1, 64).optional().meta({ description: 'Sent as Accept-Language.', example: 'de' });
const maxChars = z
  .number()
  .int('must be an integer')
  .min(1, 'must be at least 1')
  .max(200_000, 'must be at most 200000')
  .default(50_000)
  .meta({ description: 'Characters of extracted text returned at most (the rest is cut; `truncated` says so).' });

/** POST /crawler/fetch. */
export const crawlerFetchBodySchema = z
  .object({ url, language, max_chars: maxChars })
  .meta({ id: 'CrawlerFetchRequest' });
export type CrawlerFetchBody = z.output<typeof crawlerFetchBodySchema>;

/** POST /crawler/fetch/batch. */
export const crawlerBatchBodySchema = z
  .object({
    urls: z
      .array(url)
      .min(1, 'must have at least 1 item')
      .max(MAX_BATCH_URLS, `must have at most ${MAX_BATCH_URLS} items`)
      .meta({ example: ['https://example.org/a', 'https://example.org/b'] }),
    language,
    max_chars: maxChars,
  })
  .meta({ id: 'CrawlerBatchRequest' });
export type CrawlerBatchBody = z.output<typeof crawlerBatchBodySchema>;

/** POST /crawler/validate-url. */
export const validateUrlBodySchema = z.object({ url }).meta({ id: 'ValidateUrlRequest' });

export const crawledDocumentSchema = z
  .object({
    url: z.string().meta({ description: 'The URL that answered, after redirects, normalised.' }),
    requested_url: z.string(),
    title: z.string().nullable(),
    byline: z.string().nullable(),
    site_name: z.string().nullable(),
    language: z.string().nullable(),
    published_at: z.string().nullable(),
    excerpt: z.string().nullable(),
    domain: z.string(),
    source_type: z.string(),
    content_kind: z.string().meta({ description: '`html`, `pdf` or `text`.' }),
    content: z.string(),
    content_length: z.number().int().meta({ description: 'Characters of the whole extracted text.' }),
    truncated: z.boolean(),
    retrieved_at: z.string(),
    bytes: z.number().int().meta({ description: 'Bytes downloaded (0 when served from the page cache).' }),
    from_cache: z.boolean(),
  })
  .meta({
    id: 'CrawledDocument',
    example: {
      url: 'https://example.org/article',
      requested_url: 'https://example.org/article',
      title: 'An article',
      byline: null,
      site_name: 'Example',
      language: 'en',
      published_at: '2026-05-01T00:00:00.000Z',
      excerpt: 'The first lines …',
      domain: 'example.org',
      source_type: 'news',
      content_kind: 'html',
      content: 'The main text of the page …',
      content_length: 5120,
      truncated: false,
      retrieved_at: '2026-11-22T10:00:00.000Z',
      bytes: 48211,
      from_cache: false,
    },
  });
export type CrawledDocument = z.infer<typeof crawledDocumentSchema>;

export const crawlFailureSchema = z
  .object({
    reason: z.string().meta({
      description:
        'invalid_url, scheme, credentials, blocked_address, dns, robots, too_many_redirects, timeout, too_large, http_status, unsupported_type, network, extraction, empty, budget_bytes. `blocked_address`: an IP address or reserved host name the crawler never fetches; `dns`: a host name that does not resolve or resolves to such an address (one answer for both, so that names inside the network cannot be told from missing ones).',
    }),
    message: z.string(),
  })
  .meta({ id: 'CrawlFailure' });

export const crawlerBatchResponseSchema = z
  .object({
    results: z.array(
      z.object({
        url: z.string(),
        ok: z.boolean(),
        document: crawledDocumentSchema.nullable(),
        error: crawlFailureSchema.nullable(),
      }),
    ),
    total: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
  })
  .meta({ id: 'CrawlerBatchResponse' });
export type CrawlerBatchResponse = z.infer<typeof crawlerBatchResponseSchema>;

export const validateUrlResponseSchema = z
  .object({
    url: z.string(),
    normalized_url: z.string().nullable(),
    allowed: z.boolean(),
    reason: z.string().nullable().meta({
      description:
        'Why it is refused: scheme, blocked_address (an IP address or reserved name), dns (a name that does not resolve, or resolves to a refused address: one answer for both), robots, …',
    }),
  })
  .meta({
    id: 'ValidateUrlResponse',
    example: {
      url: 'http://127.0.0.1/admin',
      normalized_url: 'http://127.0.0.1/admin',
      allowed: false,
      reason: 'blocked_address',
    },
  });
export type ValidateUrlResponse = z.infer<typeof validateUrlResponseSchema>;
