/** Query parameters that only track a visit or a click, never select content. */
const TRACKING_PARAM =
  /^(utm_[a-z0-9_]*|gclid|dclid|fbclid|msclkid|mc_cid|mc_eid|igshid|_ga|_hsenc|_hsmi|yclid|ref_src)$/i;

/**
 * The normalised form of an http(s) URL, so one page has one address: lower-case scheme and host (IDN
 * as punycode; WHATWG parsing also turns decimal, octal and hex IPv4 hosts into dotted form), no
 * trailing dot on the host, no default port, no fragment, no credentials, tracking parameters removed
 * and the rest of the query sorted by name. Null for other schemes, unparsable text and URLs without
 * a host.
 */
export function normalizeUrl(raw: string | URL): string | null {
  let url: URL;
  try {
    url = new URL(typeof raw === 'string' ? raw.trim() : raw.href);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return null;
  url.hash = '';
  url.username = '';
  url.password = '';
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.replace(/\.+$/, '');
  const kept = [...url.searchParams.entries()]
    .filter(([name]) => !TRACKING_PARAM.test(name))
    // Stable sort: repeated names keep their relative order, which can matter (a=1&a=2).
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  url.search = kept.length > 0 ? new URLSearchParams(kept).toString() : '';
  return url.href;
}
