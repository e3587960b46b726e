import { parse as parseDomain } from 'tldts';
import type { SourceType } from '@research/core';
import type { PageHints } from './extract/document';

/**
 * The source types the crawler assigns (SOURCE_TYPES in @research/core):
 * - academic: universities and research institutions (.edu, .ac.*), journals, preprint servers,
 *   scholarly databases; or a page with Highwire `citation_*` tags or a ScholarlyArticle JSON-LD.
 * - government: government and military domains (.gov, .gov.*, .mil, .gouv.fr, .bund.de, europa.eu ...).
 * - reference: encyclopedias and dictionaries (Wikipedia, Britannica, Wiktionary ...).
 * - news: news publishers, or a page that declares itself a NewsArticle.
 * - forum: discussion and Q&A sites (Reddit, Stack Exchange, forum.* hosts) or such JSON-LD.
 * - blog: blog platforms, blog.* hosts and /blog/ paths, or a BlogPosting.
 * - organization: other .org/.int sites (NGOs, foundations, standards bodies, international bodies).
 * - other: everything else (companies, shops, personal pages ...).
 * The domain decides first (it cannot be faked by the page); the page's own hints fill in the rest.
 */
export const SOURCE_TYPE_RULES_VERSION = 1;

const ACADEMIC_HOSTS = new Set([
  'arxiv.org',
  'biorxiv.org',
  'medrxiv.org',
  'ssrn.com',
  'doi.org',
  'nature.com',
  'science.org',
  'sciencedirect.com',
  'springer.com',
  'link.springer.com',
  'wiley.com',
  'onlinelibrary.wiley.com',
  'tandfonline.com',
  'jstor.org',
  'plos.org',
  'frontiersin.org',
  'mdpi.com',
  'cell.com',
  'thelancet.com',
  'nejm.org',
  'bmj.com',
  'jamanetwork.com',
  'pnas.org',
  'researchgate.net',
  'semanticscholar.org',
  'acm.org',
  'ieee.org',
  'sagepub.com',
  'oup.com',
  'cambridge.org',
  'elifesciences.org',
  'europepmc.org',
  'scholar.archive.org',
  'openalex.org',
  'zenodo.org',
  'hal.science',
  'aps.org',
  'iop.org',
  'acs.org',
  'rsc.org',
]);
const ACADEMIC_SUBHOSTS = new Set([
  'pubmed.ncbi.nlm.nih.gov',
  'www.ncbi.nlm.nih.gov',
  'ncbi.nlm.nih.gov',
  'scholar.google.com',
]);
const GOVERNMENT_DOMAINS = new Set([
  'europa.eu',
  'gouv.fr',
  'bund.de',
  'gv.at',
  'admin.ch',
  'gc.ca',
  'canada.ca',
  'govt.nz',
  'go.jp',
  'gob.es',
  'gob.mx',
  'gov',
]);
const REFERENCE_HOSTS = new Set([
  'wikipedia.org',
  'wiktionary.org',
  'wikimedia.org',
  'wikidata.org',
  'wikibooks.org',
  'wikisource.org',
  'britannica.com',
  'merriam-webster.com',
  'dictionary.com',
  'dictionary.cambridge.org',
  'oxfordreference.com',
  'duden.de',
  'plato.stanford.edu',
  'scholarpedia.org',
  'investopedia.com',
  'worldatlas.com',
]);
const NEWS_HOSTS = new Set([
  'nytimes.com',
  'washingtonpost.com',
  'wsj.com',
  'latimes.com',
  'usatoday.com',
  'reuters.com',
  'apnews.com',
  'bbc.co.uk',
  'bbc.com',
  'theguardian.com',
  'cnn.com',
  'nbcnews.com',
  'cbsnews.com',
  'abcnews.go.com',
  'foxnews.com',
  'npr.org',
  'bloomberg.com',
  'ft.com',
  'economist.com',
  'aljazeera.com',
  'politico.com',
  'axios.com',
  'theatlantic.com',
  'newyorker.com',
  'time.com',
  'forbes.com',
  'cnbc.com',
  'independent.co.uk',
  'telegraph.co.uk',
  'thetimes.co.uk',
  'spiegel.de',
  'zeit.de',
  'faz.net',
  'sueddeutsche.de',
  'tagesschau.de',
  'welt.de',
  'handelsblatt.com',
  'heise.de',
  'golem.de',
  'taz.de',
  'dw.com',
  'n-tv.de',
  'lemonde.fr',
  'lefigaro.fr',
  'liberation.fr',
  'elpais.com',
  'elmundo.es',
  'corriere.it',
  'repubblica.it',
  'nzz.ch',
  'derstandard.at',
  'orf.at',
  'abc.net.au',
  'smh.com.au',
  'cbc.ca',
  'globo.com',
  'folha.uol.com.br',
  'ria.ru',
  'lenta.ru',
  'chosun.com',
  'joongang.co.kr',
  'asahi.com',
  'nhk.or.jp',
  'scmp.com',
  'hindustantimes.com',
  'timesofindia.indiatimes.com',
  'vox.com',
  'wired.com',
  'arstechnica.com',
  'theverge.com',
  'techcrunch.com',
  'engadget.com',
  'buzzfeednews.com',
  'huffpost.com',
  'vice.com',
  'slate.com',
  'salon.com',
  'newsweek.com',
  'nypost.com',
  'chicagotribune.com',
  'bostonglobe.com',
  'sfchronicle.com',
  'cbssports.com',
  'espn.com',
  'news.yahoo.com',
  'news.google.com',
  'euronews.com',
  'france24.com',
]);
const FORUM_HOSTS = new Set([
  'reddit.com',
  'stackoverflow.com',
  'stackexchange.com',
  'superuser.com',
  'serverfault.com',
  'askubuntu.com',
  'quora.com',
  'news.ycombinator.com',
  'discourse.org',
  'lobste.rs',
  'slashdot.org',
  'gutefrage.net',
]);
const BLOG_HOSTS = new Set([
  'medium.com',
  'substack.com',
  'wordpress.com',
  'blogspot.com',
  'blogger.com',
  'tumblr.com',
  'ghost.io',
  'hashnode.dev',
  'dev.to',
  'typepad.com',
  'livejournal.com',
]);

const NEWS_TYPES = new Set([
  'newsarticle',
  'reportagenewsarticle',
  'analysisnewsarticle',
  'opinionnewsarticle',
  'backgroundnewsarticle',
  'livebloggingposting',
]);
const FORUM_TYPES = new Set(['discussionforumposting', 'qapage', 'question']);
const ACADEMIC_TYPES = new Set(['scholarlyarticle', 'medicalscholarlyarticle']);
const BLOG_TYPES = new Set(['blogposting', 'blog']);

const FORUM_LABELS = ['forum', 'forums', 'community', 'discuss', 'discourse', 'board', 'boards'];

function inSet(set: Set<string>, host: string, domain: string | null): boolean {
  return set.has(host) || (domain !== null && set.has(domain));
}

/** Assigns a source type from the URL's domain and, where the domain says nothing, the page's hints. */
export function classifySourceType(url: string, hints?: PageHints | null): SourceType {
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch {
    return 'other';
  }
  const host = parsedUrl.hostname.toLowerCase().replace(/^www\./, '');
  const info = parseDomain(host);
  const site: Site = { host, domain: info.domain, suffix: (info.publicSuffix ?? '').toLowerCase() };
  return typeByDomain(site) ?? typeByHints(hints, parsedUrl.pathname) ?? typeBySuffix(site.suffix);
}

interface Site {
  /** The host without a leading `www.`. */
  host: string;
  /** Its registrable domain (null for IPs and local names). */
  domain: string | null;
  /** Its public suffix, lower case. */
  suffix: string;
}

function typeByDomain({ host, domain, suffix }: Site): SourceType | null {
  const suffixParts = suffix.split('.');
  const label = host.split('.')[0];
  if (isGovernment(host, domain, suffix)) {
    return ACADEMIC_SUBHOSTS.has(host) || ACADEMIC_SUBHOSTS.has(`www.${host}`) ? 'academic' : 'government';
  }
  if (suffixParts.includes('edu') || suffixParts[0] === 'ac' || inSet(ACADEMIC_HOSTS, host, domain)) return 'academic';
  if (inSet(REFERENCE_HOSTS, host, domain)) return 'reference';
  if (inSet(FORUM_HOSTS, host, domain) || FORUM_LABELS.includes(label)) return 'forum';
  if (inSet(NEWS_HOSTS, host, domain)) return 'news';
  if (inSet(BLOG_HOSTS, host, domain) || label === 'blog' || label === 'blogs') return 'blog';
  return null;
}

function isGovernment(host: string, domain: string | null, suffix: string): boolean {
  const suffixParts = suffix.split('.');
  return (
    suffixParts.includes('gov') ||
    suffixParts.includes('mil') ||
    suffixParts.includes('gob') ||
    suffixParts.includes('gouv') ||
    inSet(GOVERNMENT_DOMAINS, host, domain) ||
    GOVERNMENT_DOMAINS.has(suffix)
  );
}

/** What the page declares itself to be (JSON-LD, citation tags, generator), or its path says. */
function typeByHints(hints: PageHints | null | undefined, pathname: string): SourceType | null {
  const types = (hints?.jsonLdTypes ?? []).map((t) => t.toLowerCase());
  if (hints?.scholarly || types.some((t) => ACADEMIC_TYPES.has(t))) return 'academic';
  if (types.some((t) => FORUM_TYPES.has(t))) return 'forum';
  if (types.some((t) => NEWS_TYPES.has(t))) return 'news';
  if (types.some((t) => BLOG_TYPES.has(t)) || /\/blogs?\//i.test(pathname)) return 'blog';
  if (/discourse|phpbb|vbulletin|xenforo|mybb/i.test(hints?.generator ?? '')) return 'forum';
  return null;
}

function typeBySuffix(suffix: string): SourceType {
  if (suffix === 'org' || suffix === 'int' || suffix.endsWith('.org') || suffix.split('.').includes('org'))
    return 'organization';
  return 'other';
}
