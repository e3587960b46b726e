import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/**
 * A run's source controls (the optional fields of POST /v1/research): which hosts its sources may come from,
 * the earliest publication date it accepts, and at most how many sources it keeps. Host names are stored
 * lower-case (IDNs as punycode); IPv6 literals without brackets.
 */
export interface SourceControls {
  include_domains: string[];
  exclude_domains: string[];
  /** `YYYY-MM-DD`: a source dated before this day is refused; an undated one is kept (and counted as undated). */
  published_after: string | null;
  max_sources: number | null;
}

/** Host names or addresses one list may hold. */
export const MAX_CONTROL_DOMAINS = 50;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The host a control names, in the form it is stored and matched in, or null when `value` is not a host
 * name (RFC 1123 labels; no scheme, path, port or wildcard) nor an IPv4 or IPv6 literal.
 */
export function controlHost(value: string): string | null {
  const text = value.trim();
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIP(bare) === 6) return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  if (isIP(bare) === 4) return bare;
  // Letters, digits, hyphens and dots only: a scheme, path, port or wildcard is not a host name (and
  // domainToASCII would cut a path off instead of refusing it).
  if (text.length > 253 || !/^[\p{L}\p{M}\p{N}.-]+$/u.test(text)) return null;
  // IDNs are matched in punycode, the form a URL's host takes; domainToASCII refuses what no host can be.
  const ascii = domainToASCII(text.toLowerCase());
  if (ascii === '' || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (!labels.every((label) => LABEL.test(label))) return null;
  // All-numeric names are what a URL parser reads as an IPv4 address ("1.2.3"): not a host name.
  if (labels.every((label) => /^\d+$/.test(label)) || /^\d+$/.test(labels.at(-1)!)) return null;
  return ascii;
}

/** Whether `date` is a real calendar day written `YYYY-MM-DD`. */
export function isCalendarDate(date: string): boolean {
  const m = DATE.exec(date);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const parsed = new Date(Date.UTC(year, month - 1, day));
  return parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day;
}

/** The host of a URL as controls match it (lower-case, no trailing dot, IPv6 without brackets), or null. */
function hostOf(url: string): string | null {
  try {
    const host = new URL(url).hostname.replace(/\.+$/, '');
    return host.startsWith('[') ? host.slice(1, -1) : host || null;
  } catch {
    return null;
  }
}

/** Whether `host` is `name` or one of its subdomains (`a.example.com` under `example.com`; IP literals only themselves). */
export function hostMatches(host: string, name: string): boolean {
  if (host === name) return true;
  return isIP(name) === 0 && host.endsWith(`.${name}`);
}

/** Whether the controls let a source come from `url`: on an included host (when any are), on no excluded one. */
export function allowsUrl(controls: SourceControls, url: string): boolean {
  const host = hostOf(url);
  if (controls.include_domains.length === 0 && controls.exclude_domains.length === 0) return true;
  if (host === null) return controls.include_domains.length === 0;
  if (controls.exclude_domains.some((name) => hostMatches(host, name))) return false;
  return controls.include_domains.length === 0 || controls.include_domains.some((name) => hostMatches(host, name));
}

/**
 * What `published_after` says of a source dated `publishedAt`: `before` (refused), `undated` (no date, or one that
 * cannot be read: kept and counted), or `ok`. A source dated on the day itself is kept.
 */
export function publicationVerdict(
  controls: Pick<SourceControls, 'published_after'>,
  publishedAt: string | null,
): 'ok' | 'before' | 'undated' {
  if (controls.published_after === null) return 'ok';
  const time = publishedAt ? Date.parse(publishedAt) : NaN;
  if (Number.isNaN(time)) return 'undated';
  return time < Date.parse(`${controls.published_after}T00:00:00Z`) ? 'before' : 'ok';
}

/** Whether the controls restrict anything. */
export function hasSourceControls(controls: SourceControls | null): controls is SourceControls {
  return (
    controls !== null &&
    (controls.include_domains.length > 0 ||
      controls.exclude_domains.length > 0 ||
      controls.published_after !== null ||
      controls.max_sources !== null)
  );
}

function hostList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) => (typeof v === 'string' && controlHost(v) !== null ? [controlHost(v)!] : []));
}

/** The controls stored on a run (null when it has none); what cannot be read is left out. */
export function readSourceControls(stored: unknown): SourceControls | null {
  if (!stored || typeof stored !== 'object') return null;
  const s = stored as Record<string, unknown>;
  const after = s.published_after;
  const max = s.max_sources;
  const controls: SourceControls = {
    include_domains: hostList(s.include_domains),
    exclude_domains: hostList(s.exclude_domains),
    published_after: typeof after === 'string' && isCalendarDate(after) ? after : null,
    max_sources: typeof max === 'number' && Number.isInteger(max) && max >= 1 ? max : null,
  };
  return hasSourceControls(controls) ? controls : null;
}
