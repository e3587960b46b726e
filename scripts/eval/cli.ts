// The command line of `npm run eval -- hotpot|multihop|unanswerable|contradiction|local [--set NAME] [--part tune|check|all]
// [--limit N] [--depth D] [--llm[=fake|nonsense|judge|none]] [--concurrency N] [--save DIR] [--replay DIR] [--smoke]`:
// which evaluation, on which questions, with which model; then the table and the closing `bench-result:` line of
// scripts/bench/harness.js. `--replay DIR` (hotpot, multihop, unanswerable, local) writes the reports of runs saved with `--save DIR`
// again with the engine as it is now, without running them (replay.ts).
import os from 'node:os';
import path from 'node:path';
import { createBench } from '../bench/harness';
import { CONTRADICTION_FIGURES, CONTRADICTION_NEEDS, evaluateContradiction } from './contradiction';
import type { EvalSettings } from './eval-world';
import { HOTPOT_DEFAULT_SET, HOTPOT_FIGURES, evaluateHotpot } from './hotpot';
import { chooseLlm, startEvalLlm } from './llm-choice';
import { LOCAL_FIGURES, evaluateLocal } from './local';
import { LOCAL_NEEDS } from './local-corpus';
import { MULTIHOP_FIGURES, evaluateMultihop } from './multihop';
import { MULTIHOP_SETS, SET_PARTS, questionSet, type QuestionSetName, type SetPart } from './question-sets';
import { UNANSWERABLE_DEFAULT_SET, UNANSWERABLE_FIGURES, evaluateUnanswerable } from './unanswerable';

interface Suite {
  figures: string[];
  /** The data files the run reads (relative to the data directory). */
  needs(args: Arguments): string[];
  evaluate(settings: EvalSettings): Promise<void>;
  /** The part evaluated when --part is not given. */
  defaultPart(args: { set?: string | undefined }): SetPart;
  /** The --limit of a --smoke run. */
  smokeLimit: number;
  /** For an evaluation of one question set (--set), the set it reads when none is named. */
  defaultSet?: QuestionSetName;
}

/** An evaluation of one question set: it reads `--set`, else `defaultSet`, and that set's default part. */
function setSuite(defaultSet: QuestionSetName, suite: Pick<Suite, 'figures' | 'evaluate' | 'smokeLimit'>): Suite {
  const setOf = (args: { set?: string | undefined }) => questionSet(args.set ?? defaultSet);
  return { ...suite, defaultSet, needs: (args) => [setOf(args).file], defaultPart: (args) => setOf(args).defaultPart };
}

const SUITES: Record<'hotpot' | 'multihop' | 'unanswerable' | 'contradiction' | 'local', Suite> = {
  hotpot: setSuite(HOTPOT_DEFAULT_SET, { figures: HOTPOT_FIGURES, evaluate: evaluateHotpot, smokeLimit: 2 }),
  // Development happens on the tune parts; by default multihop confirms on the check parts.
  multihop: {
    figures: MULTIHOP_FIGURES,
    needs: () => MULTIHOP_SETS.map((set) => questionSet(set).file),
    evaluate: evaluateMultihop,
    defaultPart: () => 'check',
    smokeLimit: 1,
  },
  // One set's questions in its world without any gold page (unanswerable.ts): tune of the large HotpotQA set unless
  // --set and --part say otherwise.
  unanswerable: setSuite(UNANSWERABLE_DEFAULT_SET, {
    figures: UNANSWERABLE_FIGURES,
    evaluate: evaluateUnanswerable,
    smokeLimit: 1,
  }),
  // --limit N takes the first N disputed claims and the first N controls: a smoke run has one of each.
  contradiction: {
    figures: CONTRADICTION_FIGURES,
    needs: () => CONTRADICTION_NEEDS,
    evaluate: evaluateContradiction,
    defaultPart: () => 'all',
    smokeLimit: 1,
  },
  // Its questions are evaluated whole; --limit N takes the first N of each kind: a smoke run has one of each.
  local: {
    figures: LOCAL_FIGURES,
    needs: () => LOCAL_NEEDS,
    evaluate: evaluateLocal,
    defaultPart: () => 'all',
    smokeLimit: 1,
  },
};

const USAGE =
  'usage: npm run eval -- hotpot|multihop|unanswerable|contradiction|local [--set NAME (hotpot, unanswerable)] ' +
  '[--part tune|check|all] [--limit N] ' +
  '[--depth quick|normal|deep] [--llm[=fake|nonsense|judge|none]] [--concurrency N] [--save DIR] [--replay DIR] [--smoke]';

export interface Arguments {
  suite: keyof typeof SUITES;
  /** The question set of `hotpot` and `unanswerable`; undefined for the others. */
  set: string | undefined;
  part: SetPart;
  limit: number | undefined;
  depth: string;
  llm: string | undefined;
  concurrency: number;
  save: string | undefined;
  replay: string | undefined;
}

function positiveInteger(name: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} needs a positive whole number, not ${value ?? 'nothing'}`);
  return n;
}

/** Reads the arguments, with each suite's default set and part; throws a usage error. */
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
    else if (flag === '--replay') args.replay = value();
    else if (flag === '--set') args.set = value() ?? '';
    else if (flag === '--part') args.part = value() as SetPart;
    else if (flag === '--smoke') continue;
    else if (Object.hasOwn(SUITES, flag!) && !args.suite) args.suite = flag as Arguments['suite'];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!args.suite) throw new Error('name the evaluation: hotpot, multihop, unanswerable, contradiction or local');
  if (!['quick', 'normal', 'deep'].includes(args.depth ?? ''))
    throw new Error(`--depth ${args.depth}: quick, normal or deep`);
  if (args.set !== undefined) {
    if (!SUITES[args.suite].defaultSet)
      throw new Error(`--set is for hotpot and unanswerable (${args.suite} runs its own questions)`);
    questionSet(args.set);
  }
  if (args.replay !== undefined) {
    if (args.suite === 'contradiction')
      throw new Error(
        '--replay is for hotpot, multihop, unanswerable and local (contradiction judges what only a run shows)',
      );
    if (args.save !== undefined) throw new Error('--replay reads saved runs: it saves none (--save)');
    if (args.llm !== undefined) throw new Error('--replay writes the reports without a model (--llm)');
  }
  if (args.part !== undefined && args.suite === 'local')
    throw new Error('--part is not for local: its questions are evaluated whole');
  if (args.part !== undefined && !SET_PARTS.includes(args.part))
    throw new Error(`--part ${args.part}: one of ${SET_PARTS.join(', ')}`);
  return {
    ...(args as Arguments),
    set: SUITES[args.suite].defaultSet === undefined ? undefined : (args.set ?? SUITES[args.suite].defaultSet),
    part: args.part ?? SUITES[args.suite].defaultPart(args),
  };
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
    const dataDir = bench.dataDir(suite.needs(args));
    const logFile = path.join(os.tmpdir(), `research-eval-${args.suite}-${process.pid}.log`);
    const llm = await startEvalLlm(llmChoice);
    const started = performance.now();
    console.log(`data: ${dataDir}; service logs: ${logFile}`);
    const settings: EvalSettings = {
      bench,
      dataDir,
      set: args.set,
      part: args.part,
      limit: bench.smoke ? suite.smokeLimit : args.limit,
      depth: args.depth,
      concurrency: args.concurrency,
      runTimeoutMs: Number(process.env.EVAL_RUN_TIMEOUT_SECONDS || 900) * 1000,
      llm,
      logFile,
      saveDir: args.save,
      replayDir: args.replay,
    };
    try {
      await suite.evaluate(settings);
    } finally {
      await llm.close();
    }
    console.log(`\n  wall time ${((performance.now() - started) / 1000).toFixed(0)} s`);
  });
}
