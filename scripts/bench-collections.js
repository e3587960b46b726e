// npm run bench:collections [-- --smoke] — collections at size: DOCUMENTS documents stored and indexed in one
// collection (the upload's storage path: insertCollectionDocument's to_tsvector in the `english` configuration
// and the GIN index, CONCURRENCY inserts at once on a fresh Postgres database), then SEARCHES two-word searches
// of each kind a collection answers: the search route's (web search syntax: every word) and a run's (any word,
// ranked), each with its ts_rank order and ts_headline snippet. Documents are made of paragraphs drawn by a seeded
// generator (about 4 KB each) from the Readability test pages' articles when RESEARCH_DATA_DIR holds them, else
// from the repository's own prose (docs/ and the READMEs: few paragraphs, so words are far more common across
// documents and searches slower). Extraction is not in it (bench:crawl measures that). Targets: indexing ≥ 200 documents/s, search p99 < 100 ms at 10,000.
// --smoke: 300 documents, 40 searches.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { createBench } = require('./bench/harness');
const { createBenchDatabase } = require('./bench/services');

const ROOT = path.resolve(__dirname, '..');
const bench = createBench('bench:collections', {
  figures: [
    'documents',
    'index_docs_per_s',
    'search_all_p50_ms',
    'search_all_p99_ms',
    'search_any_p50_ms',
    'search_any_p99_ms',
  ],
});
const DOCUMENTS = bench.size(10_000, 300);
const SEARCHES = bench.size(500, 40);
const CONCURRENCY = 8;
const PARAGRAPHS_PER_DOCUMENT = 8;
const TARGET_DOCS_PER_S = 200;
const TARGET_P99_MS = 100;
const READABILITY_PAGES = 'pages/readability/test/test-pages';

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A deterministic generator (mulberry32), so every run indexes and searches the same text. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The prose paragraphs of the repository's documentation (no tables, code or headings). */
function repositoryParagraphs() {
  const files = [
    path.join(ROOT, 'README.md'),
    ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => path.join(ROOT, 'docs', f)),
    ...fs.readdirSync(path.join(ROOT, 'packages')).map((p) => path.join(ROOT, 'packages', p, 'README.md')),
  ].filter((f) => f.endsWith('.md') && fs.existsSync(f));
  const out = [];
  for (const file of files) {
    for (const block of fs.readFileSync(file, 'utf8').split(/\n\s*\n/)) {
      const text = block.replace(/\s+/g, ' ').trim();
      if (text.length >= 120 && /^[A-Za-z`*]/.test(text) && !/^[|#`]/.test(text)) out.push(text);
    }
  }
  return out;
}

/**
 * The paragraphs of the Readability test pages' expected articles (RESEARCH_DATA_DIR's pages/readability), when
 * the data directory holds them: a hundred sites' prose, so that words are spread over documents as in a real
 * collection; else null.
 */
function dataParagraphs() {
  require('./bench/require-typescript');
  const { planDataSuite } = require(path.join(ROOT, 'test', 'support', 'data-dir.ts'));
  const plan = planDataSuite([READABILITY_PAGES]);
  if (plan.kind !== 'run') return null;
  const root = path.join(plan.dir, READABILITY_PAGES);
  const out = [];
  for (const page of fs.readdirSync(root).sort()) {
    const file = path.join(root, page, 'expected.html');
    if (!fs.existsSync(file)) continue;
    for (const [, inner] of fs.readFileSync(file, 'utf8').matchAll(/<p[^>]*>([\s\S]*?)<\/p>/g)) {
      const text = inner
        .replace(/<[^>]+>/g, '')
        .replace(/&[a-z]+;|&#\d+;/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
      if (text.length >= 120) out.push(text);
    }
  }
  return out;
}

async function main() {
  const {
    connectPostgres,
    migrateToLatest,
    insertCollection,
    insertCollectionDocument,
    searchCollectionDocuments,
    textSearchQueries,
  } = require('@research/database');
  const { contentSha256, MAX_INDEXED_DOCUMENT_CHARS } = require('@research/core');
  const fromData = dataParagraphs();
  const pool = fromData ?? repositoryParagraphs();
  const origin = fromData ? 'the Readability test pages of RESEARCH_DATA_DIR' : "the repository's docs";
  const random = seeded(20261202);
  const pick = () => pool[Math.floor(random() * pool.length)];
  const words = [
    ...new Set(
      pool
        .join(' ')
        .toLowerCase()
        .match(/\b[a-z]{5,}\b/g),
    ),
  ];
  const database = await createBenchDatabase('bench_collections');
  const handle = connectPostgres(database.url, { max: CONCURRENCY, applicationName: 'bench-collections' });
  try {
    const db = handle.db;
    await migrateToLatest(db);
    const collection = await insertCollection(db, {
      id: crypto.randomUUID(),
      owner_user_id: null,
      name: 'bench',
      language: 'en',
      text_search_config: 'english',
    });
    const documents = Array.from({ length: DOCUMENTS }, (_, i) => {
      const content = Array.from({ length: PARAGRAPHS_PER_DOCUMENT }, pick).join('\n\n');
      return { title: `Document ${i}: ${content.slice(0, 60)}`, content };
    });
    const bytes = documents.reduce((sum, d) => sum + Buffer.byteLength(d.content), 0);
    console.log(
      `bench:collections${bench.smoke ? ' --smoke' : ''} — ${DOCUMENTS} documents (${(bytes / DOCUMENTS / 1024).toFixed(1)} KiB of text each, from ${pool.length} paragraphs of ${origin}), ${CONCURRENCY} inserts at once, ${SEARCHES} searches of each kind, Node ${process.version}`,
    );

    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < documents.length) {
          const doc = documents[next++];
          await insertCollectionDocument(
            db,
            {
              id: crypto.randomUUID(),
              collection_id: collection.id,
              filename: 'bench.txt',
              title: doc.title,
              content_type: 'text/plain',
              bytes: Buffer.byteLength(doc.content),
              content: doc.content,
              content_sha256: contentSha256(doc.content),
            },
            { config: 'english', indexedChars: MAX_INDEXED_DOCUMENT_CHARS },
          );
        }
      }),
    );
    const indexSeconds = (performance.now() - started) / 1000;
    const docsPerSecond = DOCUMENTS / indexSeconds;
    console.log(
      `index  ${DOCUMENTS} documents in ${indexSeconds.toFixed(1)} s: ${docsPerSecond.toFixed(0)} documents/s`,
    );
    await db.executeQuery(require('kysely').sql`analyze collection_documents`.compile(db));

    const scope = { id: collection.id, config: 'english' };
    const queries = Array.from({ length: SEARCHES }, () => {
      const w = () => words[Math.floor(random() * words.length)];
      return `${w()} ${w()}`;
    });
    const figures = {};
    for (const match of ['all', 'any']) {
      const times = [];
      let hits = 0;
      for (const query of queries) {
        const t0 = performance.now();
        const tsquery = (await textSearchQueries(db, ['english'], query, match)).get('english');
        const found = await searchCollectionDocuments(db, [{ ...scope, query: tsquery }], 10);
        times.push(performance.now() - t0);
        hits += found.length;
      }
      times.sort((a, b) => a - b);
      figures[match] = { p50: percentile(times, 50), p99: percentile(times, 99) };
      console.log(
        `search (${match === 'all' ? 'every word, the route' : 'any word, a run'}): p50 ${figures[match].p50.toFixed(1)} ms, p99 ${figures[match].p99.toFixed(1)} ms, ${(hits / queries.length).toFixed(1)} hits a search`,
      );
    }

    bench.figure('documents', DOCUMENTS);
    bench.figure('index_docs_per_s', Math.round(docsPerSecond));
    bench.figure('search_all_p50_ms', Number(figures.all.p50.toFixed(1)));
    bench.figure('search_all_p99_ms', Number(figures.all.p99.toFixed(1)));
    bench.figure('search_any_p50_ms', Number(figures.any.p50.toFixed(1)));
    bench.figure('search_any_p99_ms', Number(figures.any.p99.toFixed(1)));
    bench.target(
      docsPerSecond >= TARGET_DOCS_PER_S,
      `indexing ${docsPerSecond.toFixed(0)} documents/s ≥ ${TARGET_DOCS_PER_S}`,
    );
    for (const match of ['all', 'any']) {
      bench.target(
        figures[match].p99 < TARGET_P99_MS,
        `search (${match}) p99 ${figures[match].p99.toFixed(1)} ms < ${TARGET_P99_MS} ms over ${DOCUMENTS} documents`,
      );
    }
  } finally {
    await handle.close();
    await database.drop();
  }
}

bench.run(main);
