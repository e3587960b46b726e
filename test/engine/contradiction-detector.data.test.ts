// The contradiction detector measured on labelled third-party pairs (needs RESEARCH_DATA_DIR); its rules are
// tested in contradiction-detector.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { detectContradiction, judgeStance, propositionOf } from '@research/engine';
import { describeWithData } from '../support/data-dir';

const SNLI = 'nli/snli-dev/snli_dev.jsonl';
const CLIMATE_FEVER = 'claims/climate-fever-dev';

interface Pair {
  a: string;
  b: string;
  contradicts: boolean;
}

function readJsonl<T>(file: string): T[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

function measure(pairs: Pair[]): { precision: number; recall: number; tp: number; fp: number; fn: number } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const p of pairs) {
    const found = detectContradiction(p.a, p.b) !== null;
    if (found && p.contradicts) tp++;
    else if (found) fp++;
    else if (p.contradicts) fn++;
  }
  return { precision: tp / Math.max(1, tp + fp), recall: tp / Math.max(1, tp + fn), tp, fp, fn };
}

describeWithData('contradiction detector on labelled third-party pairs', [SNLI, CLIMATE_FEVER], (dir) => {
  it('is precise on the SNLI development pairs (precision and recall printed)', () => {
    const rows = readJsonl<{ gold_label: string; sentence1: string; sentence2: string }>(path.join(dir, SNLI)).filter(
      (r) => ['entailment', 'neutral', 'contradiction'].includes(r.gold_label),
    );
    const result = measure(
      rows.map((r) => ({ a: r.sentence1, b: r.sentence2, contradicts: r.gold_label === 'contradiction' })),
    );
    // Lexical rules cannot see most SNLI contradictions (different scenes); what they flag must be right.
    console.log(`SNLI dev: ${JSON.stringify(result)}`);
    // Measured: precision 0.75, recall 0.014 (3 of 4 flagged pairs are contradictions). A negation must deny
    // what the other statement affirms: "The boy has no clothes on" against "A young boy wearing a red coat"
    // is no longer flagged (it was, by luck, with precision 0.63 over 8 pairs).
    expect(result.precision).toBeGreaterThanOrEqual(0.6);
    expect(result.tp).toBeGreaterThanOrEqual(3);
  });

  it('flags conflicting climate-fever evidence more often than agreeing evidence (rates printed)', () => {
    const conflicts = readJsonl<{ supporting: { evidence: string }; refuting: { evidence: string } }>(
      path.join(dir, CLIMATE_FEVER, 'conflicting_evidence_pairs.jsonl'),
    );
    const rows = readJsonl<{ claim: string; evidence: string; label: string }>(
      path.join(dir, CLIMATE_FEVER, 'claim_evidence_support_refute.jsonl'),
    );
    const pairs: Pair[] = rows.map((r) => ({ a: r.claim, b: r.evidence, contradicts: r.label === 'REFUTES' }));
    const result = measure(pairs);
    const conflictRate =
      conflicts.filter((c) => detectContradiction(c.supporting.evidence, c.refuting.evidence)).length /
      conflicts.length;
    console.log(
      `climate-fever claim/evidence: ${JSON.stringify(result)}; conflicting pairs flagged: ${conflictRate.toFixed(3)}`,
    );
    expect(result.precision).toBeGreaterThan(0.29); // base rate of REFUTES is 0.29: must do better than chance
  });

  it('judges refuting climate-fever evidence as refuting the claim far more often than supporting evidence', () => {
    const rows = readJsonl<{ claim: string; evidence: string; label: string }>(
      path.join(dir, CLIMATE_FEVER, 'claim_evidence_support_refute.jsonl'),
    );
    const refuted = (label: string) => {
      const of = rows.filter((r) => r.label === label);
      const flagged = of.filter((r) => judgeStance(propositionOf(r.claim)!, r.evidence).stance === 'refutes');
      return { flagged: flagged.length, of: of.length, rate: flagged.length / of.length };
    };
    const refutes = refuted('REFUTES');
    const supports = refuted('SUPPORTS');
    console.log(
      `climate-fever stance: refutes on REFUTES ${JSON.stringify(refutes)}, on SUPPORTS ${JSON.stringify(supports)}`,
    );
    // Measured: 22 of 174 refuting and 7 of 384 supporting evidence sentences judged refuting.
    expect(refutes.rate).toBeGreaterThan(4 * supports.rate);
    expect(supports.rate).toBeLessThan(0.03);
  });
});
