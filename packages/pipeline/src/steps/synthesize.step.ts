import type { ReportBody } from '@research/core';
import { evidenceDraftsOf, evidenceGraphOf, synthesizeReport } from '@research/engine';
import type { RunSnapshot, StepContext } from '../steps';
import { controlsOf } from './source-controls';

/** The cited report of the run's evidence; only the last round's is worded by the LLM and stored. */
export async function synthesizeStep(snapshot: RunSnapshot, ctx: StepContext): Promise<ReportBody> {
  const { body, events } = await synthesizeReport(ctx.services.llm, ctx, {
    query: ctx.run.query,
    language: ctx.run.language,
    plan: snapshot.plan,
    graph: await evidenceGraphOf(snapshot.claims, snapshot.sources, { question: ctx.run.query }),
    evidence: evidenceDraftsOf(snapshot.evidence),
    round: ctx.round,
    rounds: ctx.rounds,
    queriesSent: ctx.budget.usage.search_queries ?? 0,
    events: ctx.events,
    generatedAt: new Date(),
    final: ctx.round >= ctx.rounds,
    sourceControls: controlsOf(ctx),
  });
  for (const event of events) ctx.record(event);
  return body;
}
