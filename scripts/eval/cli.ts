// The command line of `npm run eval -- hotpot|contradiction [--limit N] [--depth D] [--llm[=fake|nonsense|judge|none]]
// [--concurrency N] [--save DIR] [--smoke]`: which evaluation, on how much, with which model; then the table and the
// closing `bench-result:` line of scripts/bench/harness.js.
import os from 'node:os';
import path from 'node:path';
import { createBench } from '../bench/harness';
import { CONTRADICTION_FIGURES, CONTRADICTION_NEEDS, evaluateContradiction } from './contradiction';
import type { EvalSettings } from './eval-world';
import { HOTPOT_FIGURES, HOTPOT_NEEDS, evaluateHotpot } from './hotpot';
import { chooseLlm, startEvalLlm } from './llm-choice';

const SUITES = {
  hotpot: { figures: HOTPOT_FIGURES, needs: HOTPOT_NEEDS, evaluate: evaluateHotpot, smokeLimit: 2 },
  // --limit N takes the first N disputed claims and the first N controls: a smoke run has one of each.
  contradiction: {
    figures: CONTRADICTION_FIGURES,
    needs: CONTRADICTION_NEEDS,
    evaluate: evaluateContradiction,
    smokeLimit: 1,
  },
};

const USAGE =
  'usage: npm run eval -- hotpot|contradiction [--limit N] [--depth quick|normal|deep] ' +
  '[--llm[=fake|nonsense|judge|none]] [--concurrency N] [--save DIR] [--smoke]';

interface Arguments {
  suite: keyof typeof SUITES;
  limit: number | undefined;
  depth: string;
  llm: string | undefined;
  concurrency: number;
  save: string | undefined;
}

function positiveInteger(name: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} needs a positive whole number, not ${value ?? 'nothing'}`);
  return n;
}

/** Reads the arguments; throws a usage error. */
export function parseArguments(argv: readonly string[], env: NodeJS.ProcessEnv): Arguments {
  const args: Partial<Arguments> = { depth: 'quick', concurrency: Number(env.EVAL_CONCURRENCY || 4) };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s);
    const value = () => inline ?? argv[++i];
    if (flag === '--limit') args.limit = positiveInteger('--limit', value());
    else if (flag === '--concurrency') args.concurrency = positiveInteger('--concurrency', value());
    else if (flag === '--depth') args.depth = value();
    else if (flag === '--llm') args.llm = inline ?? '';
    else if (flag === '--save') args.save = value();
    else if (flag === '--smoke') continue;
    else if (Object.hasOwn(SUITES, flag!) && !args.suite) args.suite = flag as Arguments['suite'];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!args.suite) throw new Error('name the evaluation: hotpot or contradiction');
  if (!['quick', 'normal', 'deep'].includes(args.depth ?? ''))
    throw new Error(`--depth ${args.depth}: quick, normal or deep`);
  return args as Arguments;
}

/** Runs the evaluation the arguments name; exits as scripts/bench/harness.js does (2 on a usage error). */
export function main(argv: readonly string[]): void {
  let args: Arguments;
  let llmChoice: ReturnType<typeof chooseLlm>;
  try {
    args = parseArguments(argv, process.env);
    llmChoice = chooseLlm(args.llm, process.env);
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const suite = SUITES[args.suite];
  const bench = createBench(`eval:${args.suite}`, { figures: suite.figures });
  bench.run(async () => {
    const dataDir = bench.dataDir(suite.needs);
    const logFile = path.join(os.tmpdir(), `research-eval-${args.suite}-${process.pid}.log`);
    const llm = await startEvalLlm(llmChoice);
    const started = performance.now();
    console.log(`data: ${dataDir}; service logs: ${logFile}`);
    const settings: EvalSettings = {
      bench,
      dataDir,
      limit: bench.smoke ? suite.smokeLimit : args.limit,
      depth: args.depth,
      concurrency: args.concurrency,
      runTimeoutMs: Number(process.env.EVAL_RUN_TIMEOUT_SECONDS || 900) * 1000,
      llm,
      logFile,
      saveDir: args.save,
    };
    try {
      await suite.evaluate(settings);
    } finally {
      await llm.close();
    }
    console.log(`\n  wall time ${((performance.now() - started) / 1000).toFixed(0)} s`);
  });
}
