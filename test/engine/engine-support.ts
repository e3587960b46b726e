import { buildEvidenceGraph, buildReport, rankFindings, type ClaimInput, type SourceInput } from '@research/engine';
import type { ResearchServices } from '@research/pipeline';
import type { SearchHit, SearchProvider } from '@research/search';
import type { FakeWebPage } from '../fakes/fake-web';
import type { FakeWikiPage } from '../fakes/fake-wiki';
import { QUESTION_SETS, qaPages, readQuestionSet, titlePath, type QaItem } from '../../scripts/eval/question-sets';

/** HotpotQA's development questions, relative to the data directory (test/support/data-dir.ts). */
export const HOTPOT_FILE = QUESTION_SETS['hotpotqa-dev'].file;

export type HotpotItem = QaItem;

/** The HotpotQA questions of the data directory `dataDir`. */
export function hotpotItems(dataDir: string): HotpotItem[] {
  return readQuestionSet(dataDir, 'hotpotqa-dev');
}

/** Questions whose answer is a name or a number (a yes/no answer cannot be looked for in a report). */
export function openHotpotItems(items: HotpotItem[]): HotpotItem[] {
  return items.filter((i) => !['yes', 'no'].includes(i.answer.toLowerCase()));
}

/**
 * Every paragraph of a question as a page, built as `npm run eval` builds them (qaPages); the pages are spread
 * over 24 loopback hosts (127.0.0.10-33).
 */
export function hotpotPages(items: HotpotItem[]): FakeWebPage[] {
  return qaPages(items, (_title, n) => `127.0.0.${10 + (n % 24)}`);
}

/** A corpus the project wrote (test/fakes/wiki-corpus.ts) as web pages, one loopback host each (127.0.0.40-…). */
export function corpusPages(corpus: FakeWikiPage[]): FakeWebPage[] {
  return corpus.map((page, i) => ({
    host: `127.0.0.${40 + i}`,
    path: titlePath(page.title),
    title: page.title,
    paragraphs: page.paragraphs,
  }));
}

export const PLANTED_QUERY =
  'How many tons of carbon dioxide do human activities emit per year compared with volcanoes?';
export const PLANTED_TRUE =
  'Human activities emit about 29 billion tons of carbon dioxide per year, while volcanoes emit between 0.2 and 0.3 billion tons.';
export const PLANTED_FALSE =
  'Human activities emit about 9 billion tons of carbon dioxide per year, while volcanoes emit between 0.2 and 0.3 billion tons.';

/**
 * Pages about CO2 emissions (written for these tests) on two hosts, plus a planted page on a third host
 * that states a different number for the same quantity.
 */
export function plantedContradictionPages(): FakeWebPage[] {
  return [
    {
      host: '127.0.0.2',
      path: '/carbon-dioxide',
      title: 'Carbon dioxide',
      paragraphs: [
        'Carbon dioxide, written CO2, is a gas made of one carbon atom and two oxygen atoms.',
        PLANTED_TRUE,
        'The share of carbon dioxide in the air has risen by roughly 35 percent since 1900, from 280 parts per million to 387 parts per million in 2009.',
      ],
      publishedDate: '2019-05-01',
    },
    {
      host: '127.0.0.3',
      path: '/volcano-emissions',
      title: 'Volcanic carbon dioxide emissions',
      paragraphs: [
        'Volcanoes on land and under the sea give off between 130 and 230 million tonnes of carbon dioxide in a typical year.',
        'Estimates for recent decades put volcanic emissions near 0.645 billion tonnes of CO2 per year, against 29 billion tonnes of CO2 per year from human sources.',
      ],
      publishedDate: '2018-03-10',
    },
    {
      host: '127.0.0.4',
      path: '/emissions-myths',
      title: 'Human and volcanic carbon dioxide',
      paragraphs: [
        'A widely shared article compares human and volcanic output of greenhouse gases.',
        PLANTED_FALSE,
        'The article does not name its sources for these figures.',
      ],
      publishedDate: '2020-01-20',
    },
  ];
}

/**
 * The search used by engine tests: a SearxNG-shaped loopback search that keeps every hit the fake gives
 * (up to 10 a query, whatever limit the search step asks for); the search step keeps to the query budget.
 */
export function loopbackSearchProvider(searchUrl: string): SearchProvider {
  return {
    name: 'searxng',
    async search(query, options) {
      const url = `${searchUrl}?q=${encodeURIComponent(query)}&format=json`;
      const response = await fetch(url, { ...(options.signal ? { signal: options.signal } : {}) });
      const body = (await response.json()) as {
        results: Array<{ url: string; title: string; content: string; publishedDate: string | null }>;
      };
      return body.results.map((r, i): SearchHit => ({
        url: r.url,
        title: r.title,
        snippet: r.content,
        published_at: r.publishedDate,
        provider: 'searxng',
        rank: i + 1,
      }));
    },
  };
}

/** A worker's research services (`live`, from test/support/engine.ts) over the loopback search at `searchUrl`. */
export function loopbackServices(searchUrl: string, live: ResearchServices): ResearchServices {
  return { ...live, searchProvider: loopbackSearchProvider(searchUrl) };
}

/** A yes/no question whose proposition the planted stance pages support and refute (written for these tests). */
export const STANCE_QUERY = 'Is the Arctic sea ice extent shrinking every decade?';
export const STANCE_SUPPORTING =
  'Each decade since 1979 has ended with less Arctic sea ice than the one before, satellite records show.';
export const STANCE_REFUTING = 'The Arctic sea ice extent is no longer shrinking: it has grown since 2012.';

/**
 * A page that supports the proposition of STANCE_QUERY and one that refutes it, on two hosts, worded so that
 * the two claims share too little to contradict each other: only their stances toward the question disagree.
 */
export function plantedStancePages(): FakeWebPage[] {
  return [
    {
      host: '127.0.0.5',
      path: '/arctic-sea-ice-records',
      title: 'Arctic sea ice records',
      paragraphs: [
        STANCE_SUPPORTING,
        'Sea ice reflects sunlight back to space, which keeps the polar ocean cool in summer.',
      ],
    },
    {
      host: '127.0.0.6',
      path: '/arctic-ice-debate',
      title: 'A contrarian view of Arctic ice',
      paragraphs: [STANCE_REFUTING, 'The author of this view runs a weather blog and does not publish his data.'],
    },
    {
      host: '127.0.0.7',
      path: '/polar-bears',
      title: 'Polar bears',
      paragraphs: ['Polar bears hunt seals from the edge of the sea ice and can swim long distances.'],
    },
  ];
}

/** A yes/no question whose planted pages only a model's stance sets against each other (written for these tests). */
export const MODEL_STANCE_QUERY = 'Is coffee consumption linked to a longer life?';
export const MODEL_STANCE_SUPPORTING =
  'People who drank coffee every day lived two years longer than those who drank none, a cohort study found.';
/** Refutes the proposition without a negation, an opposite, a number or a direction the words could show. */
export const MODEL_STANCE_REFUTING =
  'After adjusting for smoking, coffee drinkers and abstainers died at the same rate.';

/** A page that supports MODEL_STANCE_QUERY's proposition and one that refutes it, on two hosts. */
export function plantedModelStancePages(): FakeWebPage[] {
  return [
    {
      host: '127.0.0.5',
      path: '/coffee-cohort',
      title: 'Coffee consumption and a longer life: a cohort study',
      paragraphs: [MODEL_STANCE_SUPPORTING, 'The study followed half a million adults in ten countries.'],
    },
    {
      host: '127.0.0.6',
      path: '/coffee-trial',
      title: 'Coffee consumption and life expectancy: a second look',
      paragraphs: [MODEL_STANCE_REFUTING, 'The trial was paid for by a public health fund.'],
    },
  ];
}

/** One source per page (on a site of its own unless `domain` names one): its title and its sentences, each a claim. */
export function graphInputsOf(pages: ReadonlyArray<{ title: string; sentences: string[]; domain?: string }>): {
  claims: ClaimInput[];
  sources: SourceInput[];
} {
  const sources: SourceInput[] = pages.map((page, i) => ({
    id: `s${i}`,
    url: `https://${page.domain ?? `site${i}.example`}/page-${i}`,
    title: page.title,
    domain: page.domain ?? `site${i}.example`,
    source_type: 'news',
    content: page.sentences.join(' '),
    published_at: null,
  }));
  const claims: ClaimInput[] = pages.flatMap((page, i) =>
    page.sentences.map((sentence, j) => ({
      id: `c${i}-${j}`,
      source_id: `s${i}`,
      claim_text: sentence,
      evidence_span: sentence,
      claim_type: 'fact',
      confidence: 0.7,
      round: 1,
      position: j,
    })),
  );
  return { claims, sources };
}

/** The evidence graph of pages of sentences (graphInputsOf). */
export function graphOf(pages: ReadonlyArray<{ title: string; sentences: string[]; domain?: string }>) {
  const { claims, sources } = graphInputsOf(pages);
  return buildEvidenceGraph(claims, sources);
}

/** The extractive report of `query` in `language` over pages of sentences (graphOf), one round, no events. */
export async function reportOf(
  query: string,
  language: string,
  pages: ReadonlyArray<{ title: string; sentences: string[] }>,
) {
  const input = {
    query,
    language,
    plan: null,
    graph: graphOf(pages),
    evidence: [],
    gaps: null,
    notes: [],
    rounds: 1,
    queriesSent: 1,
    generatedAt: new Date('2025-01-01T00:00:00Z'),
  };
  return buildReport(input, await rankFindings(input));
}
