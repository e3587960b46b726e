import fs from 'node:fs';
import path from 'node:path';
import { createExtractionPool, type ExtractionPool } from '@research/crawler';
import { extractClaims, termSet } from '@research/engine';
import { describeWithData } from '../support/data-dir';
import { flatText, pageBlocks, readabilityPage, type PageBlock } from '../support/page-blocks';

const READABILITY_PAGES = 'pages/readability/test/test-pages';

/**
 * Text as both sides of a comparison can hold it: the test reads the pages as UTF-8 whatever their
 * charset, the crawler decodes them as they declare, so only ASCII is compared.
 */
const comparable = (text: string) => flatText(text.replace(/[^\x20-\x7e]+/g, ' '));

const holding = (blocks: readonly PageBlock[], span: string) => blocks.find((b) => comparable(b.text).includes(span));

describeWithData(
  'claims a run draws from the real pages of Readability: extraction, then claims (third-party data)',
  [READABILITY_PAGES],
  (dataDir) => {
    const pagesDir = path.join(dataDir, READABILITY_PAGES);
    let pool: ExtractionPool;
    const tally = { claims: 0, outside: [] as string[], headings: [] as string[] };

    beforeAll(async () => {
      pool = createExtractionPool({ threads: 1 });
      for (const name of fs.readdirSync(pagesDir).sort()) {
        const dir = path.join(pagesDir, name);
        const page = readabilityPage(dir);
        const article = pageBlocks(fs.readFileSync(path.join(dir, 'expected.html'), 'utf8'));
        const doc = await pool
          .extract({
            body: fs.readFileSync(path.join(dir, 'source.html')),
            contentType: 'text/html',
            kind: 'html',
            url: `http://pages.test/${name}/`,
          })
          .catch(() => null);
        if (!doc) continue;
        // Every word counts as relevant: only the extraction and the statement rules decide.
        const claims = await extractClaims({
          runId: 'run',
          sourceId: name,
          text: doc.content,
          language: page.language,
          terms: { query: termSet(doc.content, false), plan: new Set() },
          limit: Number.MAX_SAFE_INTEGER,
        });
        tally.claims += claims.length;
        const articleText = comparable(article.map((b) => b.text).join(' '));
        const inArticleHeadings = article.filter((b) => /^h[1-6]$/.test(b.tag));
        for (const claim of claims) {
          const span = comparable(claim.evidence_span);
          const outside = articleText.includes(span) ? undefined : holding([...page.chrome, ...page.references], span);
          if (outside) tally.outside.push(`${name} [${outside.role}] ${claim.evidence_span}`);
          const heading = holding(inArticleHeadings, span);
          if (heading) tally.headings.push(`${name} [${heading.tag}] ${claim.evidence_span}`);
        }
      }
      console.log(
        [
          `claims drawn from the 130 pages: ${tally.claims}`,
          `  from headings, navigation, footers, captions, bylines or references outside the article: ${tally.outside.length}`,
          ...tally.outside.map((line) => `    ${line}`),
          `  from a heading inside the article: ${tally.headings.length}`,
          ...tally.headings.map((line) => `    ${line}`),
        ].join('\n'),
      );
    }, 600_000);
    afterAll(async () => {
      await pool?.close();
    });

    // Measured: 6,677 claims; none from the text around the article, 11 from headings inside it, most of them
    // a sentence-shaped standfirst ("Cities are changing fast.").
    it('draws no claim from the headings, navigation, footers, captions, bylines and references around the article', () => {
      expect(tally.claims).toBeGreaterThan(5_000);
      expect(tally.outside).toEqual([]);
    });

    it('draws almost none from the headings inside the article', () => {
      expect(tally.headings.length / tally.claims).toBeLessThanOrEqual(0.005);
    });
  },
);
