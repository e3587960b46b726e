import type { Readable } from 'node:stream';
import axios, { type AxiosResponse } from 'axios';
import { USER_AGENT } from './mediawiki';
import { assertPublicHost, guardedLookup } from './network-guard';

/** Bytes a run may still download, shared by parallel fetches: take() refuses what would overshoot. */
export interface ByteMeter {
  take(bytes: number): boolean;
}

export class PageRejected extends Error {
  constructor(
    readonly reason:
      | 'http_status'
      | 'content_type'
      | 'too_large'
      | 'download_budget'
      | 'network'
      | 'private_network'
      | 'redirects'
      | 'empty',
    message: string,
  ) {
    super(message);
    this.name = 'PageRejected';
  }
}

export interface FetchedPage {
  url: string;
  finalUrl: string;
  body: string;
  bytes: number;
  contentType: string;
}

const MAX_REDIRECTS = 5;
const TEXT_TYPES = /^(text\/html|application\/xhtml\+xml|text\/plain)\b/i;

function decode(buffer: Buffer, contentType: string): string {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1]?.toLowerCase() ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(buffer);
  } catch {
    return new TextDecoder('utf-8').decode(buffer);
  }
}

async function readBody(stream: Readable, maxBytes: number, meter: ByteMeter): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += buffer.length;
      if (size > maxBytes) throw new PageRejected('too_large', `Page larger than ${maxBytes} bytes`);
      if (!meter.take(buffer.length)) throw new PageRejected('download_budget', 'Download budget of the run is spent');
      chunks.push(buffer);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

/**
 * GETs one page (HTML or plain text) within a total time limit, a page size cap and the run's shared
 * download budget, following redirects by hand so each hop is checked. Hosts of `trustedOrigin` (the
 * operator's configured wiki) are not network-checked.
 */
export async function fetchPage(params: {
  url: string;
  timeoutMs: number;
  maxBytes: number;
  meter: ByteMeter;
  allowPrivateNetworks: boolean;
  trustedOrigin: string;
  signal: AbortSignal;
}): Promise<FetchedPage> {
  const signal = AbortSignal.any([params.signal, AbortSignal.timeout(params.timeoutMs)]);
  let current = new URL(params.url);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:')
      throw new PageRejected('network', `Unsupported protocol ${current.protocol}`);
    const guarded = !params.allowPrivateNetworks && current.origin !== params.trustedOrigin;
    if (guarded) {
      try {
        assertPublicHost(current.hostname);
      } catch (error) {
        throw new PageRejected('private_network', (error as Error).message);
      }
    }
    let response: AxiosResponse<Readable>;
    try {
      response = await axios.get<Readable>(current.toString(), {
        responseType: 'stream',
        timeout: params.timeoutMs,
        signal,
        maxRedirects: 0,
        validateStatus: () => true,
        headers: { 'User-Agent': USER_AGENT, Accept: 'text/html,application/xhtml+xml,text/plain;q=0.8' },
        ...(guarded ? { lookup: guardedLookup } : {}),
      });
    } catch (error) {
      if (params.signal.aborted) throw error;
      const message = (error as Error).message ?? String(error);
      if (
        (error as { cause?: { name?: string } }).cause?.name === 'RefusedAddressError' ||
        /private network/i.test(message)
      ) {
        throw new PageRejected('private_network', message);
      }
      throw new PageRejected('network', message);
    }
    if (response.status >= 300 && response.status < 400 && response.headers.location) {
      response.data.destroy();
      current = new URL(String(response.headers.location), current);
      continue;
    }
    if (response.status < 200 || response.status >= 300) {
      response.data.destroy();
      throw new PageRejected('http_status', `HTTP ${response.status}`);
    }
    const contentType = String(response.headers['content-type'] ?? 'text/html');
    if (!TEXT_TYPES.test(contentType)) {
      response.data.destroy();
      throw new PageRejected('content_type', `Unsupported content type ${contentType}`);
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > params.maxBytes) {
      response.data.destroy();
      throw new PageRejected('too_large', `Page larger than ${params.maxBytes} bytes`);
    }
    let buffer: Buffer;
    try {
      buffer = await readBody(response.data, params.maxBytes, params.meter);
    } catch (error) {
      if (params.signal.aborted || error instanceof PageRejected) throw error;
      throw new PageRejected('network', (error as Error).message ?? String(error));
    }
    return {
      url: params.url,
      finalUrl: current.toString(),
      body: decode(buffer, contentType),
      bytes: buffer.length,
      contentType,
    };
  }
  throw new PageRejected('redirects', `More than ${MAX_REDIRECTS} redirects`);
}
