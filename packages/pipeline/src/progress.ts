import type { NewRunEvent } from '@research/database';
import type { RunNote } from '@research/engine';

// What a client watching a run sees (GET /v1/research/{id}/events): the events a step reports as it works
// (`ctx.progress`), the events it records for the report (`ctx.record`), and what its output adds (the plan,
// the sources read, the claims per source, the report). All are written in the transaction that commits the
// step, so a stream never shows work that a crash or a cancellation then discarded. State changes, a
// failure's error and the run's end are written by the database itself (the run_events trigger).

/** An event a step reports while it works: a query sent, a page it could not use, a contradiction found. */
export type ProgressEvent =
  | { type: 'query'; round: number; query: string; failed: boolean }
  | { type: 'source'; round: number; url: string; outcome: 'rejected'; reason: string }
  | { type: 'contradiction'; round: number; claim_ids: [string, string]; kind: string };

/** A step's events as rows of the run's progress. */
export function progressRows(events: readonly ProgressEvent[]): NewRunEvent[] {
  return events.map(({ type, ...data }) => ({ type, data }));
}

/** The events a step recorded for the report, as progress: their kind is the type. */
export function noteRows(events: readonly RunNote[]): NewRunEvent[] {
  return events.map(({ kind, ...data }) => ({ type: kind, data }));
}

function countOf(list: unknown): number {
  return Array.isArray(list) ? list.length : 0;
}

/** The `report` event of a stored report: how many findings and disagreements it holds. */
export function reportEvent(report: Record<string, unknown>): NewRunEvent {
  return { type: 'report', data: { findings: countOf(report.findings), disagreements: countOf(report.disagreements) } };
}
