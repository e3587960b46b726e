// Query parameters that only track the click, never select content.
const TRACKING_PARAM = /^(utm_[a-z0-9_]*|gclid|dclid|fbclid|msclkid|mc_cid|mc_eid|_hsenc|_hsmi|yclid)$/i;

/**
 * The identity of a source URL, for de-duplication: http(s) only, lower-case scheme and host (IDN as
 * punycode, no trailing dot), no default port, no fragment, no credentials, query parameters sorted by
 * name with utm_* and click ids removed, and no trailing slash except the root path ("/"). `local:`
 * URLs of the local corpus are returned as they are. Anything else (other schemes, unparsable text)
 * gives null.
 */
export function normalizeUrl(raw: string): string | null {
  const text = raw.trim();
  if (text.startsWith('local:')) return text.length > 'local:'.length ? text : null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname) return null;
  url.hash = '';
  url.username = '';
  url.password = '';
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.replace(/\.+$/, '');
  const params = [...url.searchParams.entries()]
    .filter(([name]) => !TRACKING_PARAM.test(name))
    // Stable sort: repeated names keep their relative order, which can matter (a=1&a=2).
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  url.search = params.length > 0 ? `?${new URLSearchParams(params).toString()}` : '';
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.replace(/\/+$/, '') || '/';
  return url.toString();
}
