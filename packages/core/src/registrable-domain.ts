import { parse } from 'tldts';

/**
 * The registrable domain (eTLD+1 from the public suffix list) of a URL or host: `news.bbc.co.uk` and
 * `https://news.bbc.co.uk/x` give `bbc.co.uk`, `acme.ltd.uk` stays `acme.ltd.uk`. IP addresses and local
 * names are their own domain; what is neither a URL nor a host gives ''.
 */
export function registrableDomain(urlOrHost: string): string {
  const host = hostOf(urlOrHost);
  const info = parse(host);
  return info.isIp || !info.domain ? host : info.domain;
}

/**
 * The host in WHATWG form (lower case, punycode, no port, IPv6 without brackets); a bare IPv6 address,
 * which no URL can hold unbracketed, is read by tldts instead.
 */
function hostOf(urlOrHost: string): string {
  const candidate = urlOrHost.includes('://') ? urlOrHost : `http://${urlOrHost}`;
  try {
    return new URL(candidate).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return parse(urlOrHost).hostname ?? '';
  }
}
