// npm run eval -- hotpot|multihop|unanswerable|contradiction|local [--set NAME] [--part tune|check|all] [--limit N]
// [--depth quick|normal|deep] [--llm[=fake|nonsense|judge|none]] [--concurrency N] [--save DIR] [--smoke] — research quality of the real service (API and worker processes, Postgres,
// Redis) on the third-party data of RESEARCH_DATA_DIR served as loopback pages with a BM25 search engine (local: a
// folder of real pages searched with SEARCH_PROVIDER=local), beside a one-shot search of the same question. The code is in scripts/eval/ (TypeScript, transpiled on load
// like the tests' fakes it uses); docs/evaluation.md explains the figures.
'use strict';
require('./bench/require-typescript');
require('./eval/cli.ts').main(process.argv.slice(2));
