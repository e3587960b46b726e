// `npm run eval -- contradiction`: real-world claims of CLIMATE-FEVER (claims/climate-fever-dev). A disputed
// claim (Wikipedia evidence labelled both SUPPORTS and REFUTES) gets a page of its supporting and a page of its
// refuting evidence sentences on two different loopback hosts, and a page of its NOT_ENOUGH_INFO sentences on a
// third; a control (at least two supporting sentences, none refuting) gets two supporting pages and the
// neutral one. The claim is the run's question. A run catches the dispute when its report's disagreements set
// the two key pages against each other, or a claim from a key page scores contradiction_level >= 0.5; the same
// on a control is a false alarm.
import fs from 'node:fs';
import path from 'node:path';
import type { FakeWebPage } from '../../test/fakes/fake-web';
import {
  RUN_COST_FIGURES,
  counted,
  researchEach,
  printTable,
  runCostRows,
  startEvalWorld,
  type EvalSettings,
  type EvalWorld,
} from './eval-world';
import { fraction, loopbackHost, stableHash } from './protocol';
import { itemsOfPart, type SetPart } from './question-sets';
import type { RunOutcome } from './service-stack';

export const CLIMATE_FEVER_FILE = 'claims/climate-fever-dev/climate-fever.jsonl';
export const CONTRADICTION_NEEDS = [CLIMATE_FEVER_FILE];

/** How many controls are evaluated beside the disputed claims (the first in the file). */
export const CONTROLS = 40;
/** The contradiction_level from which a claim on a key page counts as flagged. */
export const FLAGGED_LEVEL = 0.5;

export const CONTRADICTION_FIGURES = [
  'disputed',
  'controls',
  'recall',
  'false_alarm_rate',
  'caught',
  'false_alarms',
  'key_pages_fetched',
  'bm25_key_pages',
  ...RUN_COST_FIGURES,
];

interface ClimateFeverClaim {
  claim_id: string;
  claim: string;
  claim_label: string;
  evidences: Array<{ evidence_label: 'SUPPORTS' | 'REFUTES' | 'NOT_ENOUGH_INFO'; article: string; evidence: string }>;
}

/** One evaluated claim: its question, its two key pages (supporting + refuting, or two supporting) and the neutral page. */
export interface ContradictionCase {
  id: string;
  question: string;
  disputed: boolean;
  keyPages: [FakeWebPage, FakeWebPage];
  pages: FakeWebPage[];
  /** The claim's evidence sentences labelled SUPPORTS or REFUTES (what a scripted stance judge is told). */
  stances: Array<{ sentence: string; stance: 'supports' | 'refutes' }>;
}

function slug(title: string): string {
  return title.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-');
}

/**
 * The evaluated claims with their pages: the disputed claims of `part` (split by a hash of `claim_id`), then the
 * first CONTROLS controls of `part`, in the file's order (with `limit`, the first `limit` of each): each page is
 * titled after the article of its
 * first sentence and holds its sentences as paragraphs; a claim's pages sit on consecutive loopback hosts
 * from one chosen by a hash of the claim's id, so no two of them share a host.
 */
export function contradictionCases(dataDir: string, limit?: number, part: SetPart = 'all'): ContradictionCase[] {
  const lines = fs
    .readFileSync(path.join(dataDir, CLIMATE_FEVER_FILE), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as ClimateFeverClaim);
  const claims = itemsOfPart(lines, part, (claim) => claim.claim_id);
  const labelled = (c: ClimateFeverClaim, label: string) => c.evidences.filter((e) => e.evidence_label === label);
  const disputed = claims.filter((c) => labelled(c, 'SUPPORTS').length > 0 && labelled(c, 'REFUTES').length > 0);
  const controls = claims
    .filter((c) => labelled(c, 'SUPPORTS').length >= 2 && labelled(c, 'REFUTES').length === 0)
    .slice(0, Math.min(CONTROLS, limit ?? CONTROLS));
  const used = new Set<string>();
  const page = (host: string, evidences: ClimateFeverClaim['evidences']): FakeWebPage => {
    const title = evidences[0]!.article;
    let pagePath = `/${slug(title)}`;
    for (let n = 2; used.has(`${host}${pagePath}`); n++) pagePath = `/${slug(title)}-${n}`;
    used.add(`${host}${pagePath}`);
    return { host, path: pagePath, title, paragraphs: evidences.map((e) => e.evidence) };
  };
  const caseOf = (claim: ClimateFeverClaim, isDisputed: boolean): ContradictionCase => {
    const first = stableHash(claim.claim_id);
    const supporting = labelled(claim, 'SUPPORTS');
    // A control's supporting sentences alternate between its two pages.
    const [a, b] = isDisputed
      ? [supporting, labelled(claim, 'REFUTES')]
      : [supporting.filter((_, i) => i % 2 === 0), supporting.filter((_, i) => i % 2 === 1)];
    const keyPages: [FakeWebPage, FakeWebPage] = [page(loopbackHost(first), a), page(loopbackHost(first + 1), b)];
    const neutral = labelled(claim, 'NOT_ENOUGH_INFO');
    const pages = neutral.length > 0 ? [...keyPages, page(loopbackHost(first + 2), neutral)] : [...keyPages];
    const stances = claim.evidences.flatMap((e) =>
      e.evidence_label === 'NOT_ENOUGH_INFO'
        ? []
        : [
            {
              sentence: e.evidence,
              stance: e.evidence_label === 'SUPPORTS' ? ('supports' as const) : ('refutes' as const),
            },
          ],
    );
    return { id: claim.claim_id, question: claim.claim, disputed: isDisputed, keyPages, pages, stances };
  };
  return [...disputed.slice(0, limit).map((c) => caseOf(c, true)), ...controls.map((c) => caseOf(c, false))];
}

interface ContradictionJudgement {
  disputed: boolean;
  flagged: boolean;
  byDisagreement: boolean;
  byScore: boolean;
  keyPagesFetched: boolean;
  bm25KeyPages: boolean;
  disagreements: number;
}

async function judge(item: ContradictionCase, run: RunOutcome, world: EvalWorld): Promise<ContradictionJudgement> {
  const pageOfSource = new Map(run.sources.map((s) => [s.id, world.pageOf(s.url)]));
  const [first, second] = item.keyPages;
  const byDisagreement = run.report.disagreements.some((d) => {
    const pages = new Set(
      (d.positions ?? []).map((p) => (p.source_id ? pageOfSource.get(p.source_id) : world.pageOf(p.source ?? ''))),
    );
    return pages.has(first) && pages.has(second);
  });
  const level = new Map(run.evidence.map((e) => [e.claim_id, e.contradiction_level]));
  const byScore = run.claims.some((c) => {
    const page = pageOfSource.get(c.source_id);
    return (page === first || page === second) && (level.get(c.id) ?? 0) >= FLAGGED_LEVEL;
  });
  const fetched = new Set(pageOfSource.values());
  const top = new Set((await world.searchOnce(item.question)).map((hit) => hit.page));
  return {
    disputed: item.disputed,
    flagged: byDisagreement || byScore,
    byDisagreement,
    byScore,
    keyPagesFetched: fetched.has(first) && fetched.has(second),
    bm25KeyPages: top.has(first) && top.has(second),
    disagreements: run.report.disagreements.length,
  };
}

/** Runs every claim through the service and prints recall and false alarms. */
export async function evaluateContradiction(settings: EvalSettings): Promise<void> {
  const part = settings.part ?? 'all';
  const cases = contradictionCases(settings.dataDir, settings.limit, part);
  const pages = cases.flatMap((c) => c.pages);
  console.log(
    `eval contradiction, part ${part}: ${cases.filter((c) => c.disputed).length} disputed claims, ` +
      `${cases.filter((c) => !c.disputed).length} controls, ${pages.length} pages on 8 loopback hosts, ` +
      `depth ${settings.depth}, ${settings.llm.label}, ${settings.concurrency} runs at a time`,
  );
  settings.llm.learnStances?.(new Map(cases.map((c) => [c.question, c.stances])));
  const world = await startEvalWorld(pages, settings);
  const { outcomes, judgements } = await researchEach(world, settings, cases, {
    question: (item) => item.question,
    judge: (item, run) => judge(item, run, world),
    name: (item) => `claim-${item.id}`,
    line: (item, _i, run, judgement) =>
      `claim ${item.id} (${item.disputed ? 'disputed' : 'control'}) ` +
      `${run.state} ${run.seconds.toFixed(1)} s, ${run.sources.length} sources, ${run.claims.length} claims, ` +
      `${judgement.disagreements} disagreements; key pages fetched ${judgement.keyPagesFetched ? 'yes' : 'no'}; ` +
      `flagged ${judgement.flagged ? `yes (${judgement.byDisagreement ? 'disagreement' : 'contradiction_level'})` : 'no'}`,
  });
  report(judgements, outcomes, settings);
}

type Judged = (j: ContradictionJudgement) => boolean;

function report(judgements: ContradictionJudgement[], outcomes: RunOutcome[], settings: EvalSettings): void {
  const { bench } = settings;
  const disputed = judgements.filter((j) => j.disputed);
  const controls = judgements.filter((j) => !j.disputed);
  const count = (list: ContradictionJudgement[], pick: Judged) => list.filter(pick).length;
  bench.figure('disputed', disputed.length);
  bench.figure('controls', controls.length);
  bench.figure(
    'recall',
    fraction(
      count(disputed, (j) => j.flagged),
      disputed.length,
    ),
  );
  bench.figure(
    'false_alarm_rate',
    fraction(
      count(controls, (j) => j.flagged),
      controls.length,
    ),
  );
  bench.figure(
    'caught',
    count(disputed, (j) => j.flagged),
  );
  bench.figure(
    'false_alarms',
    count(controls, (j) => j.flagged),
  );
  bench.figure(
    'key_pages_fetched',
    fraction(
      count(judgements, (j) => j.keyPagesFetched),
      judgements.length,
    ),
  );
  bench.figure(
    'bm25_key_pages',
    fraction(
      count(judgements, (j) => j.bm25KeyPages),
      judgements.length,
    ),
  );
  console.log('');
  // One figure on both sides: the judgements `among` picks, and how many of them `pick` picks.
  const row = (label: string, pick: Judged, among: Judged = () => true): [string, string, string] =>
    [
      label,
      ...[disputed, controls].map((list) =>
        counted(
          count(list, (j) => among(j) && pick(j)),
          count(list, among),
        ),
      ),
    ] as [string, string, string];
  printTable([
    ['', 'disputed claims', 'controls'],
    row('flagged (recall / false alarms)', (j) => j.flagged),
    row('  by a disagreement of the report', (j) => j.byDisagreement),
    row(`  by contradiction_level >= ${FLAGGED_LEVEL} on a key page`, (j) => j.byScore),
    row('both key pages among the sources', (j) => j.keyPagesFetched),
    row(
      '  flagged among runs with both key pages',
      (j) => j.flagged,
      (j) => j.keyPagesFetched,
    ),
    row('one-shot BM25: both key pages in the top 10', (j) => j.bm25KeyPages),
  ]);
  console.log('');
  printTable(runCostRows(outcomes, settings));
  console.log(
    '\n  flagged: a disagreement of the report has positions from both key pages (supporting and refuting page; ' +
      `a control's two supporting pages), or a claim from a key page has contradiction_level >= ${FLAGGED_LEVEL}.`,
  );
}
