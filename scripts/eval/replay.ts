// `--replay DIR` of `npm run eval -- hotpot|multihop|local`: the runs a `--save DIR` of the same part wrote, each report
// written again by the engine as it is now, from the run's stored claims, sources, evidence and plan, as the
// synthesize step writes it without a model, then judged again. What the runs searched and fetched is not redone
// (the retrieval figures are the saved ones): a change to how the report reads the claims (the answer, the
// findings) is measured on the same runs in seconds instead of minutes. Only runs made without a model replay as
// they ran.
import fs from 'node:fs';
import path from 'node:path';
import { planSchema } from '@research/core';
import { evidenceDraftsOf, evidenceGraphOf, extractivePlan, synthesizeReport } from '@research/engine';
import type { RunOutcome } from './service-stack';

/** What `--save` wrote for one run (eval-world.ts saveRun), with the stored texts as a map again. */
export interface SavedRun<I, J> {
  item: I;
  run: RunOutcome;
  judgement: J;
}

/** Reads the run saved as `<dir>/<name>.json`; a missing file is a usage error naming the save to make. */
export function readSavedRun<I, J>(dir: string, name: string): SavedRun<I, J> {
  const file = path.join(dir, `${name}.json`);
  if (!fs.existsSync(file))
    throw new Error(`--replay: no saved run ${file}; save the same part, depth and limit first (--save)`);
  const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as SavedRun<I, J> & {
    run: { storedText: Record<string, string> };
  };
  return { ...saved, run: { ...saved.run, storedText: new Map(Object.entries(saved.run.storedText)) } };
}

// The fields of the API's source, claim and evidence rows the report reads beyond RunOutcome's own (a saved run
// holds the whole rows).
type SavedSource = RunOutcome['sources'][number] & { domain?: string; source_type?: string | null };
type SavedClaim = RunOutcome['claims'][number] & { claim_type?: string; confidence?: number; span_start?: number };
type EvidenceRows = Parameters<typeof evidenceDraftsOf>[0];

/**
 * Where the pipeline reads each claim: its stored round and position, or for a run saved before they were saved,
 * round 1 and its order in its source by where its span starts.
 */
function placesOf(claims: readonly SavedClaim[]): Map<string, { round: number; position: number }> {
  const places = new Map<string, { round: number; position: number }>();
  const bySource = new Map<string, SavedClaim[]>();
  for (const claim of claims) {
    const own = bySource.get(claim.source_id);
    if (own) own.push(claim);
    else bySource.set(claim.source_id, [claim]);
  }
  for (const own of bySource.values()) {
    own.sort((a, b) => (a.span_start ?? 0) - (b.span_start ?? 0));
    own.forEach((claim, i) => places.set(claim.id, { round: claim.round ?? 1, position: claim.position ?? i }));
  }
  return places;
}

/** The run's report as the engine writes it now from what the run stored (extractive, as on its last round). */
export async function rewriteReport(run: RunOutcome, query: string, language = 'en'): Promise<RunOutcome['report']> {
  const claims = run.claims as SavedClaim[];
  const places = placesOf(claims);
  const graph = await evidenceGraphOf(
    claims.map((c) => ({
      id: c.id,
      source_id: c.source_id,
      claim_text: c.claim_text,
      evidence_span: c.evidence_span,
      claim_type: c.claim_type ?? 'fact',
      confidence: c.confidence ?? 0.5,
      stance: c.stance ?? null,
      ...places.get(c.id)!,
    })),
    (run.sources as SavedSource[]).map((s) => ({
      id: s.id,
      url: s.url,
      title: s.title,
      domain: s.domain ?? new URL(s.url).hostname,
      source_type: s.source_type ?? null,
      content: run.storedText.get(s.id) ?? '',
      published_at: null,
    })),
    { question: query },
  );
  const stored = planSchema.safeParse(run.plan);
  const plan = stored.success
    ? stored.data
    : extractivePlan({ query, language, extraQueries: [], referenceDate: new Date() });
  const rounds = Math.max(1, ...[...places.values()].map((p) => p.round));
  const { body } = await synthesizeReport(
    null,
    { usage: {}, budget: { max_llm_requests: 0, max_context_per_llm_call: 0 }, signal: new AbortController().signal },
    {
      query,
      language,
      plan,
      graph,
      evidence: evidenceDraftsOf(run.evidence as unknown as EvidenceRows),
      round: rounds,
      rounds,
      queriesSent: run.usage.search_queries ?? 0,
      notes: [],
      generatedAt: new Date(),
      final: true,
    },
  );
  return { ...run.report, summary: body.summary, findings: body.findings, disagreements: body.disagreements };
}

/** How a suite replays its saved runs (see replaySaved). */
export interface Replaying<I, J> {
  /** The name each item's run was saved under. */
  name(item: I, i: number): string;
  question(item: I): string;
  /** The figures a report alone decides, from the run with its report (they replace the saved ones). */
  judge(item: I, run: RunOutcome): Partial<J>;
  /** Those figures in words, to list the runs whose judgement changed. */
  told(item: I, judgement: J): string;
}

/**
 * The saved runs of `items` in `dir`, each report written again by the engine as it is now (rewriteReport) and judged
 * again; the other figures of each judgement are the saved ones. Prints how many judgements changed, and which.
 */
export async function replaySaved<I, J>(
  dir: string,
  items: readonly I[],
  how: Replaying<I, J>,
): Promise<{ outcomes: RunOutcome[]; judgements: J[] }> {
  const outcomes: RunOutcome[] = [];
  const judgements: J[] = [];
  const changed: string[] = [];
  for (const [i, item] of items.entries()) {
    const saved = readSavedRun<I, J>(dir, how.name(item, i));
    const run = { ...saved.run, report: await rewriteReport(saved.run, how.question(item)) };
    const judgement = { ...saved.judgement, ...how.judge(item, run) };
    const was = how.told(item, { ...saved.judgement, ...how.judge(item, saved.run) });
    const now = how.told(item, judgement);
    if (was !== now) changed.push(`${how.name(item, i)} ${was} -> ${now}`);
    outcomes.push(run);
    judgements.push(judgement);
  }
  console.log(`${items.length} saved runs of ${dir} replayed; ${changed.length} judged otherwise than as saved`);
  for (const line of changed) console.log(`  ${line}`);
  return { outcomes, judgements };
}
