import type { Readable } from 'node:stream';
import axios, { type AxiosResponse } from 'axios';
import { deadlineSignal } from '@research/core';
import { CrawlError, isCrawlError, unresolvableHost } from './crawl-error';
import { checkLiteralHost, type GuardedAgents } from './safe-agent';
import { bareHostname, isForbiddenHostname, normalizeCrawlUrl, parseCrawlUrl, type AddressPolicy } from './url-policy';

/**
 * Content kinds the crawler reads; anything else is refused before its body is downloaded. `image` and
 * `audio` are only accepted when a caller asks for them (the vision and audio routes' guarded media
 * fetch), never for pages.
 */
export type ContentKind = 'html' | 'pdf' | 'text' | 'image' | 'audio';

/** Raster image types the guarded media fetch accepts (no SVG: it is scriptable XML, not a picture). */
export const IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Audio types the guarded media fetch accepts (what OpenAI-compatible transcription servers read). */
export const AUDIO_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'audio/mpeg',
  'audio/mp3',
  'audio/mp4',
  'audio/m4a',
  'audio/x-m4a',
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/ogg',
  'audio/webm',
  'audio/flac',
  'audio/x-flac',
]);

export const DEFAULT_MAX_PAGE_BYTES = 5 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;

export interface FetchPageOptions {
  agents: GuardedAgents;
  policy: AddressPolicy;
  userAgent: string;
  timeoutMs: number;
  /** Per-page cap, enforced while the body streams in. */
  maxBytes?: number;
  /** Keep the first `maxBytes` of a longer body instead of refusing it (robots.txt: the rest is ignored). */
  truncate?: boolean;
  maxRedirects?: number;
  signal?: AbortSignal;
  acceptLanguage?: string;
  /** Content kinds accepted (default: html, pdf, text). `robots.txt` asks for text only. */
  accept?: readonly ContentKind[];
  /** The Accept request header (default: documents). */
  acceptHeader?: string;
  /** Called with every chunk's size before it is kept; returning false aborts the download (run budget). */
  onBytes?: (bytes: number) => boolean;
  /** Return non-2xx answers (robots.txt needs their status) instead of refusing them. */
  allowErrorStatus?: boolean;
  /** Called before each hop with its URL; may throw CrawlError to refuse it (e.g. robots.txt). */
  beforeHop?: (url: string) => Promise<void>;
}

/** A fetched response body and what the crawler needs to read it. */
export interface FetchedPage {
  /** The requested URL, normalised. */
  requestedUrl: string;
  /** The URL that answered, after redirects, normalised. */
  finalUrl: string;
  status: number;
  contentType: string;
  kind: ContentKind;
  body: Buffer;
  /** Bytes received (after content decoding). */
  bytes: number;
  /** True when the body was cut at `maxBytes` (only with `truncate`). */
  truncated: boolean;
  redirects: string[];
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** The content kind of a media type, or null when the crawler does not read it. */
export function contentKindOf(mediaType: string): ContentKind | null | undefined {
  const type = mediaType.split(';')[0].trim().toLowerCase();
  if (type === '') return undefined;
  if (HTML_TYPES.has(type)) return 'html';
  if (type === 'application/pdf' || type === 'application/x-pdf') return 'pdf';
  if (type === 'text/plain') return 'text';
  if (IMAGE_MEDIA_TYPES.has(type)) return 'image';
  if (AUDIO_MEDIA_TYPES.has(type)) return 'audio';
  return null;
}

/** Guesses the kind of a body served without a media type. */
function sniffKind(body: Buffer): ContentKind {
  const head = body.subarray(0, 512).toString('latin1').trimStart().toLowerCase();
  if (head.startsWith('%pdf-')) return 'pdf';
  if (head.startsWith('<!doctype html') || head.startsWith('<html') || /<(head|body|title|p|div)[\s>]/.test(head))
    return 'html';
  return 'text';
}

function combineSignals(signals: Array<AbortSignal | undefined>): AbortSignal {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  return present.length === 1 ? present[0] : AbortSignal.any(present);
}

async function readCapped(
  stream: Readable,
  maxBytes: number,
  onBytes: ((bytes: number) => boolean) | undefined,
  truncate = false,
): Promise<{ body: Buffer; bytes: number; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let truncated = false;
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      if (onBytes && !onBytes(buffer.length)) {
        throw new CrawlError('budget_bytes', 'The run has no download budget left.');
      }
      if (bytes + buffer.length > maxBytes && truncate) {
        chunks.push(buffer.subarray(0, maxBytes - bytes));
        bytes = maxBytes;
        truncated = true;
        break;
      }
      bytes += buffer.length;
      if (bytes > maxBytes) throw new CrawlError('too_large', `The page is larger than ${maxBytes} bytes.`);
      chunks.push(buffer);
    }
  } finally {
    // Stops the download at once (a stream that never ends included).
    stream.destroy();
  }
  return { body: Buffer.concat(chunks), bytes, truncated };
}

function classifyAxiosError(error: unknown, host: string, timedOut: boolean, callerAborted: boolean): CrawlError {
  if (isCrawlError(error)) return error;
  if (callerAborted) return new CrawlError('aborted', 'The fetch was cancelled.');
  if (timedOut) return new CrawlError('timeout', 'The page did not answer in time.');
  // The guarded lookup raises CrawlError inside the socket; axios wraps it, so look through the cause.
  const cause = (error as { cause?: unknown })?.cause;
  if (isCrawlError(cause)) return cause;
  const code = (error as { code?: string })?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return unresolvableHost(host, `not resolved: ${code}`);
  return new CrawlError('network', `The page could not be fetched${code ? ` (${code})` : ''}.`);
}

/** A timeout over the whole redirect chain, combined with the caller's signal. */
function startDeadline(options: FetchPageOptions) {
  const timeout = deadlineSignal(options.timeoutMs);
  return {
    signal: combineSignals([timeout.signal, options.signal]),
    classify: (error: unknown, host: string) =>
      classifyAxiosError(error, host, timeout.signal.aborted, options.signal?.aborted === true),
    clear: timeout.clear,
  };
}

type Deadline = ReturnType<typeof startDeadline>;

/**
 * Fetches one page through the guarded agents: every hop's URL re-checked (scheme, credentials,
 * address), redirects followed by hand up to the limit, a timeout over the whole chain, and the body
 * read with a byte cap that aborts the download as soon as it is passed.
 */
export async function fetchPage(rawUrl: string, options: FetchPageOptions): Promise<FetchedPage> {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const requestedUrl = normalizeCrawlUrl(rawUrl);
  const deadline = startDeadline(options);
  const redirects: string[] = [];
  let current = requestedUrl;
  try {
    for (;;) {
      const host = await checkHop(current, options);
      const response = await requestHop(current, host, options, deadline);
      const next = redirectTarget(response, current, redirects.length, maxRedirects);
      if (next === null)
        return await readAnswer(response, options, deadline, { requestedUrl, current, host, redirects });
      redirects.push(current);
      current = next;
    }
  } finally {
    deadline.clear();
  }
}

/** Refuses a hop the guard forbids before any connection opens; returns its bare host name. */
async function checkHop(current: string, options: FetchPageOptions): Promise<string> {
  if (options.signal?.aborted) throw new CrawlError('aborted', 'The fetch was cancelled.');
  const url = parseCrawlUrl(current);
  const host = bareHostname(url);
  if (isForbiddenHostname(host)) throw new CrawlError('blocked_address', `The host ${host} is not allowed.`);
  // Sockets skip `lookup` for IP literals, so those are checked here; names are checked at connect.
  checkLiteralHost(host, options.policy);
  await options.beforeHop?.(current);
  return host;
}

async function requestHop(
  current: string,
  host: string,
  options: FetchPageOptions,
  deadline: Deadline,
): Promise<AxiosResponse<Readable>> {
  try {
    return await axios.request<Readable>({
      url: current,
      method: 'GET',
      responseType: 'stream',
      maxRedirects: 0,
      // An environment proxy would connect somewhere the guard never checked.
      proxy: false,
      httpAgent: options.agents.http,
      httpsAgent: options.agents.https,
      decompress: true,
      validateStatus: () => true,
      signal: deadline.signal,
      headers: {
        'User-Agent': options.userAgent,
        Accept: options.acceptHeader ?? 'text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8',
        ...(options.acceptLanguage ? { 'Accept-Language': options.acceptLanguage } : {}),
      },
    });
  } catch (error) {
    throw deadline.classify(error, host);
  }
}

/** The normalised URL a redirect answer points to, or null when the answer is not a redirect. */
function redirectTarget(
  response: AxiosResponse<Readable>,
  current: string,
  redirectsSoFar: number,
  maxRedirects: number,
): string | null {
  const status = response.status;
  if (status < 300 || status >= 400 || !response.headers.location) return null;
  response.data.destroy();
  if (redirectsSoFar >= maxRedirects) {
    throw new CrawlError('too_many_redirects', `More than ${maxRedirects} redirects.`);
  }
  let next: string;
  try {
    next = new URL(String(response.headers.location), current).href;
  } catch {
    throw new CrawlError('invalid_url', 'The redirect target cannot be parsed.');
  }
  return normalizeCrawlUrl(next);
}

/** Reads the final answer's body, refusing a status, type or size the caller does not accept. */
async function readAnswer(
  response: AxiosResponse<Readable>,
  options: FetchPageOptions,
  deadline: Deadline,
  chain: { requestedUrl: string; current: string; host: string; redirects: string[] },
): Promise<FetchedPage> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_PAGE_BYTES;
  const accept = options.accept ?? (['html', 'pdf', 'text'] as const);
  const { status, contentType, declared } = checkAnswer(response, options, accept, maxBytes);
  let read: { body: Buffer; bytes: number; truncated: boolean };
  try {
    read = await readCapped(response.data, maxBytes, options.onBytes, options.truncate);
  } catch (error) {
    throw deadline.classify(error, chain.host);
  }
  const kind = declared ?? sniffKind(read.body);
  if (!accept.includes(kind)) throw new CrawlError('unsupported_type', 'The content is not of a readable type.');
  return {
    requestedUrl: chain.requestedUrl,
    finalUrl: chain.current,
    status,
    contentType,
    kind,
    body: read.body,
    bytes: read.bytes,
    truncated: read.truncated,
    redirects: chain.redirects,
  };
}

/** Refuses an answer by its headers alone, before its body is downloaded. */
function checkAnswer(
  response: AxiosResponse<Readable>,
  options: FetchPageOptions,
  accept: readonly ContentKind[],
  maxBytes: number,
): { status: number; contentType: string; declared: ContentKind | undefined } {
  const status = response.status;
  if ((status < 200 || status >= 300) && !options.allowErrorStatus) {
    response.data.destroy();
    throw new CrawlError('http_status', `The page answered HTTP ${status}.`);
  }
  const contentType = String(response.headers['content-type'] ?? '');
  const declared = contentKindOf(contentType);
  if (declared === null || (declared !== undefined && !accept.includes(declared))) {
    response.data.destroy();
    throw new CrawlError('unsupported_type', `Content of type ${contentType.split(';')[0]} is not read.`);
  }
  const length = Number(response.headers['content-length']);
  if (Number.isFinite(length) && length > maxBytes && !options.truncate) {
    response.data.destroy();
    throw new CrawlError('too_large', `The page is larger than ${maxBytes} bytes.`);
  }
  return { status, contentType, declared };
}
