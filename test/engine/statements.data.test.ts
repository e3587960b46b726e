// Claims from the real pages of Readability (needs RESEARCH_DATA_DIR); the statement rules are tested in
// statements.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { extractClaims, sentences, termSet } from '@research/engine';
import { describeWithData } from '../support/data-dir';
import { readabilityPage, type BlockRole, type PageBlock } from '../support/page-blocks';

const READABILITY_PAGES = 'pages/readability/test/test-pages';

interface Tally {
  sentences: number;
  claims: number;
}

/**
 * Runs the extractive claim extraction over `blocks` as one page's text, with every word of it counting as
 * relevant (so only the statement rules decide), and counts its distinct sentences and the claims made.
 */
async function tallyClaims(blocks: readonly PageBlock[], language: string): Promise<Tally> {
  const text = blocks.map((b) => b.text).join('\n');
  const candidates = new Set(
    sentences(text, language)
      .map((s) => s.text.replace(/\s+/g, ' '))
      .filter((s) => termSet(s, false).size > 0),
  );
  if (candidates.size === 0) return { sentences: 0, claims: 0 };
  const claims = await extractClaims({
    runId: 'run',
    sourceId: 'page',
    text,
    language,
    terms: { query: termSet(text, false), plan: new Set() },
    limit: Number.MAX_SAFE_INTEGER,
  });
  return { sentences: candidates.size, claims: claims.length };
}

const share = (t: Tally) => (t.sentences === 0 ? 0 : t.claims / t.sentences);
const percent = (t: Tally) => `${t.claims}/${t.sentences} = ${(100 * share(t)).toFixed(1)} %`;

describeWithData(
  'claims from the real pages of Readability, boilerplate against article (third-party data)',
  [READABILITY_PAGES],
  (dataDir) => {
    const pagesDir = path.join(dataDir, READABILITY_PAGES);
    const totals = {
      chrome: { sentences: 0, claims: 0 },
      references: { sentences: 0, claims: 0 },
      outside: { sentences: 0, claims: 0 },
      prose: { sentences: 0, claims: 0 },
    };
    const byRole = new Map<BlockRole, Tally>();

    beforeAll(async () => {
      for (const name of fs.readdirSync(pagesDir).sort()) {
        const sets = readabilityPage(path.join(pagesDir, name));
        for (const key of ['chrome', 'references', 'outside', 'prose'] as const) {
          const t = await tallyClaims(sets[key], sets.language);
          totals[key].sentences += t.sentences;
          totals[key].claims += t.claims;
        }
        for (const role of new Set(sets.chrome.map((b) => b.role))) {
          const t = await tallyClaims(
            sets.chrome.filter((b) => b.role === role),
            sets.language,
          );
          const sum = byRole.get(role) ?? { sentences: 0, claims: 0 };
          byRole.set(role, { sentences: sum.sentences + t.sentences, claims: sum.claims + t.claims });
        }
      }
      console.log(
        [
          'sentences that became claims (every word counted as relevant):',
          `  headings, navigation, footers, captions, bylines outside the article: ${percent(totals.chrome)}`,
          ...[...byRole].map(([role, t]) => `    ${role}: ${percent(t)}`),
          `  reference-list entries: ${percent(totals.references)}`,
          `  all text outside the article (teasers and comments included): ${percent(totals.outside)}`,
          `  article paragraphs: ${percent(totals.prose)}`,
        ].join('\n'),
      );
    });

    // Measured on the 130 pages (distinct sentences): 10.7 % of the chrome sentences (headings 5.6 %,
    // navigation 16.3 %, footers 18.5 %), 0.6 % of the reference entries and 90.3 % of the article
    // paragraphs' sentences become claims; without the statement rules every one of them could. What chrome
    // still gives is sentence-shaped: a teaser headline with a stop, a menu's "Track your pain levels, triggers
    // and treatments.", a site describing itself, comments below a footer. Telling those apart takes the page's
    // structure, which a text no longer has. The article loses questions (3 %), lead-ins ending in a colon and
    // captions inside paragraphs.
    it('makes few claims of headings, navigation, footers, captions and bylines', () => {
      expect(share(totals.chrome)).toBeLessThanOrEqual(0.12);
    });

    it('makes no claims of reference-list entries', () => {
      expect(share(totals.references)).toBeLessThanOrEqual(0.02);
    });

    it('keeps the sentences of article paragraphs (questions and lead-ins ending in a colon are no claims)', () => {
      expect(share(totals.prose)).toBeGreaterThanOrEqual(0.88);
    });
  },
);
