import type { RunEventItem } from '../api/report-types';
import { applyEvents, initialProgress } from './progress';
import { formatElapsed, isoDuration, stepPosition, stepText } from './step-progress';

let seq = 0;
const ev = (type: string, fields: Record<string, unknown> = {}): RunEventItem => ({
  seq: ++seq,
  type,
  at: new Date(Date.UTC(2026, 0, 1, 9, 0, seq)).toISOString(),
  ...fields,
});
const state = (name: string) => ev('state', { state: name });

describe('where a running run stands', () => {
  beforeEach(() => {
    seq = 0;
  });

  it('waits for a worker before its first step', () => {
    const p = stepPosition(applyEvents(initialProgress, [state('created')]), 'quick');
    expect(stepText(p)).toBe('Waiting for a worker…');
    expect([p.done, p.total]).toEqual([0, 6]);
  });

  it('stands after its plan while the plan waits for review, saying so in the log', () => {
    const events = [
      state('created'),
      state('planning'),
      ev('plan', { queries: ['a'], rounds: 1 }),
      state('awaiting_review'),
      ev('review', { action: 'waiting' }),
    ];
    const progress = applyEvents(initialProgress, events);
    const p = stepPosition(progress, 'quick');
    expect(stepText(p)).toBe('Step 1 of 6: Plan ready, waiting for your review');
    expect([p.done, p.total]).toEqual([1, 6]);
    const edited = ev('review', { action: 'edited', queries: ['x', 'y'], sub_questions: ['q'] });
    const later = applyEvents(progress, [edited, ev('review', { action: 'approved' }), state('searching')]);
    expect(later.entries.slice(-4).map((e) => e.text)).toEqual([
      'The plan waits for your review',
      'Plan edited: 2 queries, 1 sub-question',
      'Plan approved',
      'State: searching',
    ]);
    expect(stepText(stepPosition(later, 'quick'))).toBe('Step 2 of 6: Searching');
  });

  it('counts the six steps of a one-round run, the current one half done', () => {
    const events = [state('created'), state('planning'), ev('plan', { queries: ['a'], rounds: 1 }), state('fetching')];
    const p = stepPosition(applyEvents(initialProgress, events), 'quick');
    expect(stepText(p)).toBe('Step 3 of 6: Reading the sources');
    expect([p.done, p.total]).toEqual([2.5, 6]);
  });

  it('follows the rounds: a later round searches again after the report of the one before', () => {
    // Built in the order the run writes them (each event takes the next seq).
    const created = state('created');
    const first = ['planning', 'searching', 'fetching', 'analyzing', 'comparing', 'synthesizing'].map(state);
    const plan = ev('plan', { queries: ['a'], rounds: 3 });
    const second = [state('searching'), ev('query', { round: 2, query: 'b', failed: false }), state('fetching')];
    const view = applyEvents(initialProgress, [created, ...first, plan, ...second]);
    expect(view.round).toBe(2);
    const p = stepPosition(view, 'normal');
    expect(stepText(p)).toBe('Step 3 of 6, round 2 of 3: Reading the sources');
    // Round 1: six steps; rounds 2 and 3: five each (no second plan).
    expect([p.done, p.total]).toEqual([7.5, 16]);
  });

  it('takes the rounds from the depth until the plan says, and a repeated state is no new round', () => {
    const view = applyEvents(initialProgress, [state('planning'), state('planning')]);
    expect(view.round).toBe(1);
    expect(stepText(stepPosition(view, 'deep'))).toBe('Step 1 of 6, round 1 of 3: Planning the searches');
  });
});

describe('a duration as the page shows it', () => {
  it('reads as a clock, and as ISO 8601 for the <time> element', () => {
    expect([7_400, 754_000, 3_723_000, -5].map(formatElapsed)).toEqual(['0:07', '12:34', '1:02:03', '0:00']);
    expect(isoDuration(3_723_000)).toBe('PT1H2M3S');
  });
});
