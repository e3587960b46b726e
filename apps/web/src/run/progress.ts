import type { RunEventItem } from '../api/report-types';
import type { RunState } from '../api/types';

// What the run view shows of a run's progress, folded from its events one at a time. The stream sends
// events in `seq` order and a resume starts after the last one seen, so an event at or below the last
// seq is a repeat: it changes nothing.

/** How a log line reads: its look follows what happened. */
export type LogTone = 'state' | 'info' | 'fetched' | 'rejected' | 'error' | 'stop' | 'end';

export interface LogEntry {
  seq: number;
  at: string;
  tone: LogTone;
  text: string;
}

export interface ProgressCounters {
  queries: number;
  fetched: number;
  rejected: number;
  claims: number;
  contradictions: number;
}

export interface ProgressState {
  /** The seq of the last event applied (0 before any). */
  lastSeq: number;
  /** The run's state as its last `state` event said, null before one arrived. */
  state: RunState | null;
  entries: LogEntry[];
  counters: ProgressCounters;
  /** The `end` event arrived: the run is over and the stream closes. */
  ended: boolean;
  /** The titles of the sources read so far, by id, to name them in later lines. */
  titles: Record<string, string>;
  /** The research round under way: 0 before the first step, then 1, 2 … (later rounds search again). */
  round: number;
  /** The rounds the plan set, null until the plan event arrived. */
  rounds: number | null;
  /** When the `end` event was written (ISO 8601), null before it. */
  endedAt: string | null;
}

export const initialProgress: ProgressState = {
  lastSeq: 0,
  state: null,
  entries: [],
  counters: { queries: 0, fetched: 0, rejected: 0, claims: 0, contradictions: 0 },
  ended: false,
  titles: {},
  round: 0,
  rounds: null,
  endedAt: null,
};

/**
 * The states of the pipeline's steps, in order: each round goes through them. A copy of packages/core's STEP_STATES
 * (the page imports no package); test/pipeline/step-registry.test.ts keeps the two equal.
 */
export const STEP_STATES: readonly RunState[] = [
  'planning',
  'searching',
  'fetching',
  'analyzing',
  'comparing',
  'synthesizing',
];

/**
 * The round after `event`: a step state that comes before the last one (searching after synthesizing) opens
 * the next round, and an event that names its round (a query, a source) is in that round at least. A repeated
 * state (a run picked up again after a crash) is not a new round.
 */
function roundAfter(state: ProgressState, event: RunEventItem): number {
  let round = state.round;
  if (event.type === 'state') {
    const next = STEP_STATES.indexOf(event.state as RunState);
    const last = state.state === null ? -1 : STEP_STATES.indexOf(state.state);
    if (next >= 0 && round === 0) round = 1;
    else if (next >= 0 && next < last) round += 1;
  }
  return typeof event.round === 'number' && event.round > round ? event.round : round;
}

function text(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `source_controls_domain` → `source controls domain`: the API's reason codes, readable. */
function reasonText(reason: unknown): string {
  return text(reason, 'unknown reason').replace(/_/g, ' ');
}

type Line = { tone: LogTone; text: string } | null;
type Change = { line: Line; counters?: Partial<ProgressCounters>; titles?: Record<string, string> };

function sourceChange(e: RunEventItem, state: ProgressState): Change {
  if (e.outcome === 'fetched') {
    const title = text(e.title) || text(e.url);
    const domain = text(e.domain);
    return {
      line: { tone: 'fetched', text: `Source read: ${title}${domain ? ` (${domain})` : ''}` },
      counters: { fetched: state.counters.fetched + 1 },
      titles: typeof e.source_id === 'string' ? { [e.source_id]: title } : undefined,
    };
  }
  return {
    line: { tone: 'rejected', text: `Source rejected: ${text(e.url)}: ${reasonText(e.reason)}` },
    counters: { rejected: state.counters.rejected + 1 },
  };
}

/** What happened to a plan under review (plan review: a run created with review_plan). */
function reviewLine(e: RunEventItem): Line {
  switch (e.action) {
    case 'waiting':
      return { tone: 'state', text: 'The plan waits for your review' };
    case 'edited': {
      const queries = Array.isArray(e.queries) ? e.queries.length : 0;
      const questions = Array.isArray(e.sub_questions) ? e.sub_questions.length : 0;
      return {
        tone: 'info',
        text: `Plan edited: ${plural(queries, 'query', 'queries')}, ${plural(questions, 'sub-question')}`,
      };
    }
    case 'approved':
      return { tone: 'info', text: 'Plan approved' };
    case 'expired':
      return { tone: 'stop', text: 'The plan waited too long for its review' };
    default:
      return null;
  }
}

/** The methodology events worth a line; the others (engine, search, fetch, …) only feed the report. */
function noteLine(e: RunEventItem): Line {
  switch (e.type) {
    case 'budget':
      return e.resource === 'search_queries'
        ? { tone: 'info', text: `Search budget reached: ${plural(count(e.dropped), 'query', 'queries')} not sent` }
        : { tone: 'info', text: 'Download budget reached' };
    case 'search_failures':
      return {
        tone: 'info',
        text: `Search failed for ${count(e.failed)} of ${plural(count(e.total), 'query', 'queries')}`,
      };
    case 'fallback':
      return { tone: 'info', text: `The model failed; ${text(e.step)} went on without it` };
    case 'review':
      return reviewLine(e);
    case 'inherited':
      return {
        tone: 'info',
        text: `Started from ${plural(count(e.sources), 'source')} and ${plural(count(e.claims), 'claim')} of the run it follows up`,
      };
    default:
      return null;
  }
}

function changeOf(e: RunEventItem, state: ProgressState): Change {
  const c = state.counters;
  switch (e.type) {
    case 'state':
      return { line: { tone: 'state', text: `State: ${text(e.state)}` } };
    case 'plan': {
      const queries = Array.isArray(e.queries) ? e.queries.length : 0;
      return {
        line: {
          tone: 'info',
          text: `Plan: ${plural(queries, 'query', 'queries')}, ${plural(count(e.rounds), 'round')}`,
        },
      };
    }
    case 'query':
      return {
        line: { tone: e.failed ? 'rejected' : 'info', text: `Query: ${text(e.query)}${e.failed ? ' (failed)' : ''}` },
        counters: { queries: c.queries + 1 },
      };
    case 'source':
      return sourceChange(e, state);
    case 'claims': {
      const from = state.titles[text(e.source_id)] ?? 'a source';
      return {
        line: { tone: 'info', text: `${plural(count(e.count), 'claim')} from ${from}` },
        counters: { claims: c.claims + count(e.count) },
      };
    }
    case 'contradiction':
      return {
        line: { tone: 'info', text: `Contradiction found (${text(e.kind, 'claims disagree')})` },
        counters: { contradictions: c.contradictions + 1 },
      };
    case 'report':
      return {
        line: {
          tone: 'info',
          text: `Report written: ${plural(count(e.findings), 'finding')}, ${plural(count(e.disagreements), 'disagreement')}`,
        },
      };
    case 'error':
      return {
        line: { tone: 'error', text: `Error${e.step ? ` in ${text(e.step)}` : ''}: ${text(e.error, 'unknown')}` },
      };
    case 'stopped':
      return { line: { tone: 'stop', text: `Stopped before ${text(e.step)} (round ${count(e.round)})` } };
    case 'end':
      return { line: { tone: 'end', text: `Finished: ${text(e.state)}` } };
    default:
      return { line: noteLine(e) };
  }
}

/** The view after one more event. */
export function progressReducer(state: ProgressState, event: RunEventItem): ProgressState {
  if (!(event.seq > state.lastSeq)) return state;
  const change = changeOf(event, state);
  return {
    lastSeq: event.seq,
    state: event.type === 'state' && typeof event.state === 'string' ? (event.state as RunState) : state.state,
    entries: change.line ? [...state.entries, { seq: event.seq, at: event.at, ...change.line }] : state.entries,
    counters: change.counters ? { ...state.counters, ...change.counters } : state.counters,
    ended: state.ended || event.type === 'end',
    titles: change.titles ? { ...state.titles, ...change.titles } : state.titles,
    round: roundAfter(state, event),
    rounds: event.type === 'plan' && typeof event.rounds === 'number' ? event.rounds : state.rounds,
    endedAt: event.type === 'end' ? event.at : state.endedAt,
  };
}

/** The view after a batch of events (one read of the stream). */
export function applyEvents(state: ProgressState, events: readonly RunEventItem[]): ProgressState {
  return events.reduce(progressReducer, state);
}
