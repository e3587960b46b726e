import { COLLECTION_URL_PREFIX, normalizeUrl } from '@research/core';
import { LOCAL_URL_PREFIX } from './local/local-url';

/**
 * The key two search hits share when they name the same source: the normalised URL without a
 * trailing slash (except the root path "/"), a `local:` URL of the local corpus and a `collection://` URL as
 * they are. Null for
 * what cannot be a source (other schemes, unparsable text).
 */
export function hitUrlKey(raw: string): string | null {
  const text = raw.trim();
  if (text.startsWith(LOCAL_URL_PREFIX)) return text.length > LOCAL_URL_PREFIX.length ? text : null;
  if (text.startsWith(COLLECTION_URL_PREFIX)) return text.length > COLLECTION_URL_PREFIX.length ? text : null;
  const normalized = normalizeUrl(text);
  if (normalized === null) return null;
  const url = new URL(normalized);
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.replace(/\/+$/, '') || '/';
  return url.href;
}
