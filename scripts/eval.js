// npm run eval -- hotpot|multihop|contradiction [--set NAME] [--part tune|check|all] [--limit N]
// [--depth quick|normal|deep] [--llm[=fake|nonsense|judge|none]] [--concurrency N] [--save DIR] [--smoke] — research quality of the real service (API and worker processes, Postgres,
// Redis) on the third-party data of RESEARCH_DATA_DIR served as loopback pages with a BM25 search engine, beside
// a one-shot BM25 search of the same question. The code is in scripts/eval/ (TypeScript, transpiled on load
// like the tests' fakes it uses); the README's "Evaluating research quality" explains the figures.
'use strict';
require('./bench/require-typescript');
require('./eval/cli.ts').main(process.argv.slice(2));
