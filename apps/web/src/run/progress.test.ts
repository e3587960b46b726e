import type { RunEventItem } from '../api/report-types';
import { applyEvents, initialProgress, progressReducer } from './progress';

let at = 0;
const ev = (seq: number, type: string, fields: Record<string, unknown> = {}): RunEventItem => ({
  seq,
  type,
  at: new Date(Date.UTC(2026, 0, 1, 9, 0, at++)).toISOString(),
  ...fields,
});

const RUN: RunEventItem[] = [
  ev(1, 'state', { state: 'created' }),
  ev(2, 'state', { state: 'planning' }),
  ev(3, 'plan', { queries: ['a', 'b'], sub_questions: [], rounds: 1 }),
  ev(4, 'state', { state: 'searching' }),
  ev(5, 'query', { round: 1, query: 'solar share germany', failed: false }),
  ev(6, 'query', { round: 1, query: 'solar 2024', failed: true }),
  ev(7, 'engine', { step: 'plan', round: 1, mode: 'llm' }),
  ev(8, 'source', {
    round: 1,
    url: 'https://a.example/x',
    outcome: 'fetched',
    source_id: 's1',
    title: 'Report A',
    domain: 'a.example',
  }),
  ev(9, 'source', { round: 1, url: 'https://b.example/y', outcome: 'rejected', reason: 'source_controls_domain' }),
  ev(10, 'claims', { round: 1, source_id: 's1', count: 4 }),
  ev(11, 'contradiction', { round: 1, claim_ids: ['c1', 'c2'], kind: 'numeric' }),
  ev(12, 'report', { findings: 3, disagreements: 1 }),
  ev(13, 'state', { state: 'completed' }),
  ev(14, 'end', { state: 'completed' }),
];

describe('the progress reducer', () => {
  it('lists the events in order with their counters, and ends at end', () => {
    const view = applyEvents(initialProgress, RUN);
    expect(view.entries.map((e) => e.text)).toEqual([
      'State: created',
      'State: planning',
      'Plan: 2 queries, 1 round',
      'State: searching',
      'Query: solar share germany',
      'Query: solar 2024 (failed)',
      'Source read: Report A (a.example)',
      'Source rejected: https://b.example/y: source controls domain',
      '4 claims from Report A',
      'Contradiction found (numeric)',
      'Report written: 3 findings, 1 disagreement',
      'State: completed',
      'Finished: completed',
    ]);
    expect(view.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14]);
    expect(view.counters).toEqual({ queries: 2, fetched: 1, rejected: 1, claims: 4, contradictions: 1 });
    expect(view.state).toBe('completed');
    expect(view.ended).toBe(true);
    expect(view.lastSeq).toBe(14);
  });

  it('is not ended before end, and shows the last state', () => {
    const view = applyEvents(initialProgress, RUN.slice(0, 6));
    expect(view.ended).toBe(false);
    expect(view.state).toBe('searching');
  });

  it('ignores the events a resumed stream repeats', () => {
    const once = applyEvents(initialProgress, RUN);
    // The connection dropped after seq 9; the resume (or a second reader) sends from 6 again.
    const resumed = applyEvents(applyEvents(initialProgress, RUN.slice(0, 9)), RUN.slice(5));
    expect(resumed).toEqual(once);
    expect(progressReducer(once, RUN[3]!)).toBe(once);
  });

  it('shows a stop, an error and notes worth a line', () => {
    const view = applyEvents(initialProgress, [
      ev(1, 'budget', { resource: 'search_queries', max: 8, dropped: 3 }),
      ev(2, 'search_failures', { round: 1, failed: 1, total: 4 }),
      ev(3, 'stopped', { step: 'analyze', round: 1 }),
      ev(4, 'error', { error: 'Search provider unreachable', step: 'search' }),
      ev(5, 'end', { state: 'cancelled' }),
    ]);
    expect(view.entries.map((e) => [e.tone, e.text])).toEqual([
      ['info', 'Search budget reached: 3 queries not sent'],
      ['info', 'Search failed for 1 of 4 queries'],
      ['stop', 'Stopped before analyze (round 1)'],
      ['error', 'Error in search: Search provider unreachable'],
      ['end', 'Finished: cancelled'],
    ]);
    expect(view.state).toBeNull();
    expect(view.ended).toBe(true);
  });
});

describe('the progress’s round and end', () => {
  it('keeps the plan’s rounds, the round under way and when the run ended', () => {
    const view = applyEvents(initialProgress, RUN);
    expect([view.rounds, view.round, view.endedAt]).toEqual([1, 1, RUN.at(-1)!.at]);
    expect(applyEvents(initialProgress, RUN.slice(0, 2))).toMatchObject({ rounds: null, round: 1, endedAt: null });
  });
});
