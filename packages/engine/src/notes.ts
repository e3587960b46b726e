import { z } from 'zod';

// The run's notes: what happened during a run that its report is written from, typed. The pipeline's steps
// append them through their context (ctx.note), the orchestrator keeps them in the run's checkpoint (JSON,
// `notes`) across steps and resumes, and the report renders them in the run's language (methodology and
// uncertainties). They are not the run's events (the rows of run_events its progress stream shows), though
// each step's new notes are also added to that stream.

export type EngineMode = 'llm' | 'extractive' | 'mixed' | 'deterministic';

const round = z.number().int().min(0);
const count = z.number().int().min(0);

export const runNoteSchema = z.discriminatedUnion('kind', [
  /** Which engine a step ran with in a round. */
  z.object({
    kind: z.literal('engine'),
    step: z.string(),
    round,
    mode: z.enum(['llm', 'extractive', 'mixed', 'deterministic']),
  }),
  /** The LLM failed (`reason`: an LlmFailureKind) `count` times and the step fell back to the extractive engine. */
  z.object({ kind: z.literal('fallback'), step: z.string(), round, reason: z.string(), count }),
  /** Queries a round sent and the new hits they found. */
  z.object({ kind: z.literal('search'), round, sent: count, hits: count }),
  /** Pages a round tried to read and the sources it kept. */
  z.object({ kind: z.literal('fetch'), round, candidates: count, accepted: count }),
  /** The second hop of a round: the names read in its pages that it searched, and the new hits they found. */
  z.object({ kind: z.literal('bridge'), round, queries: z.array(z.string()), hits: count }),
  /** A budget ran out: max_search_queries (with the queries not sent) or max_total_download_bytes. */
  z.object({
    kind: z.literal('budget'),
    resource: z.enum(['search_queries', 'download_bytes']),
    max: count,
    dropped: count,
  }),
  /** Queries of a round the search provider failed on. */
  z.object({ kind: z.literal('search_failures'), round, failed: count, total: count }),
  /** Claims the LLM quoted that were found in no source, dropped. */
  z.object({ kind: z.literal('ungrounded'), round, count }),
  /**
   * Hits or pages a round did not keep because of the run's source controls: `domain` (a host not included
   * or excluded) or `date` (dated before published_after).
   */
  z.object({ kind: z.literal('filtered'), round, reason: z.enum(['domain', 'date']), count }),
  /** Sources a round kept without a known publication date although the run asks for published_after. */
  z.object({ kind: z.literal('undated'), round, count }),
  /** A client stopped the run (POST /v1/research/{id}/cancel) before `step` of `round`; the report is partial. */
  z.object({ kind: z.literal('stopped'), step: z.string(), round }),
  /**
   * The run is a follow-up: it started from `sources` sources and `claims` claims of the run it follows up, copied
   * when it was created (never fetched or read again).
   */
  z.object({ kind: z.literal('inherited'), sources: count, claims: count }),
  /** A note in words, kept as it is (checkpoints written before events had a few). */
  z.object({ kind: z.literal('remark'), text: z.string() }),
]);

export type RunNote = z.infer<typeof runNoteSchema>;

/** The event of a note as checkpoints before typed events stored it (`engine:plan:1:llm`, …). */
function eventOfLegacyNote(text: string): RunNote {
  const p = text.split(':');
  const num = (i: number) => Number(p[i]) || 0;
  switch (p[0]) {
    case 'engine':
      return { kind: 'engine', step: p[1] ?? '', round: num(2), mode: p[3] as EngineMode };
    case 'fallback':
      return { kind: 'fallback', step: p[1] ?? '', round: num(2), reason: p[3] ?? '', count: num(4) || 1 };
    case 'search':
      return { kind: 'search', round: num(1), sent: num(2), hits: num(3) };
    case 'fetch':
      return { kind: 'fetch', round: num(1), candidates: num(2), accepted: num(3) };
    case 'budget':
      if (p[1] === 'search_queries' || p[1] === 'download_bytes')
        return { kind: 'budget', resource: p[1], max: num(2), dropped: num(3) };
      break;
    case 'search_failures':
      return { kind: 'search_failures', round: num(1), failed: num(2), total: num(3) };
    case 'ungrounded':
      return { kind: 'ungrounded', round: num(1), count: num(2) };
  }
  return { kind: 'remark', text };
}

/**
 * The events stored in a run's checkpoint. Runs checkpointed by a version that kept notes as strings
 * finish after an upgrade: those strings are read as the events they stood for. Anything else is dropped.
 */
export function readRunEvents(stored: unknown): RunNote[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((item): RunNote[] => {
    if (typeof item === 'string') return [eventOfLegacyNote(item)];
    const parsed = runNoteSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

export interface ParsedNotes {
  engines: Array<{ step: string; round: number; mode: EngineMode }>;
  fallbacks: Array<{ step: string; round: number; kind: string; count: number }>;
  /** Queries each round sent and the new hits they found (its second hop included). */
  searches: Array<{ round: number; sent: number; hits: number }>;
  /** The names each round's second hop searched. */
  bridges: Array<{ round: number; queries: string[] }>;
  fetches: Array<{ round: number; candidates: number; accepted: number }>;
  searchBudget: { max: number; dropped: number } | null;
  /** max_total_download_bytes when the download budget cut a fetch short. */
  downloadBudget: number | null;
  searchFailures: Array<{ round: number; failed: number; total: number }>;
  ungrounded: number;
  /** Hits and pages left out by the run's source controls, by reason. */
  filtered: { domain: number; date: number };
  /** Sources kept without a known date under published_after. */
  undated: number;
  /** Where a client stopped the run, when it did. */
  stopped: { step: string; round: number } | null;
  /** What a follow-up started from: the sources and claims of the run it follows up. */
  inherited: { sources: number; claims: number } | null;
  /** Remarks in words (kept as they are, once each). */
  other: string[];
}

function emptySummary(): ParsedNotes {
  return {
    engines: [],
    fallbacks: [],
    searches: [],
    bridges: [],
    fetches: [],
    searchBudget: null,
    downloadBudget: null,
    searchFailures: [],
    ungrounded: 0,
    filtered: { domain: 0, date: 0 },
    undated: 0,
    stopped: null,
    inherited: null,
    other: [],
  };
}

/** Adds one event to the summary; the last event of a kind per step and round wins. */
function summarize(out: ParsedNotes, e: RunNote): void {
  switch (e.kind) {
    case 'engine':
      out.engines = out.engines.filter((x) => !(x.step === e.step && x.round === e.round));
      out.engines.push({ step: e.step, round: e.round, mode: e.mode });
      break;
    case 'fallback':
      out.fallbacks.push({ step: e.step, round: e.round, kind: e.reason, count: e.count });
      break;
    case 'search':
      out.searches = out.searches.filter((s) => s.round !== e.round);
      out.searches.push({ round: e.round, sent: e.sent, hits: e.hits });
      break;
    case 'bridge': {
      out.bridges = out.bridges.filter((b) => b.round !== e.round);
      out.bridges.push({ round: e.round, queries: e.queries });
      const search = out.searches.find((s) => s.round === e.round);
      if (search) Object.assign(search, { sent: search.sent + e.queries.length, hits: search.hits + e.hits });
      else out.searches.push({ round: e.round, sent: e.queries.length, hits: e.hits });
      break;
    }
    case 'fetch':
      out.fetches = out.fetches.filter((s) => s.round !== e.round);
      out.fetches.push({ round: e.round, candidates: e.candidates, accepted: e.accepted });
      break;
    case 'budget':
      if (e.resource === 'search_queries')
        out.searchBudget = { max: e.max, dropped: (out.searchBudget?.dropped ?? 0) + e.dropped };
      else out.downloadBudget = e.max;
      break;
    case 'search_failures':
      out.searchFailures.push({ round: e.round, failed: e.failed, total: e.total });
      break;
    case 'ungrounded':
      out.ungrounded += e.count;
      break;
    case 'filtered':
      out.filtered[e.reason] += e.count;
      break;
    case 'undated':
      out.undated += e.count;
      break;
    case 'stopped':
      out.stopped = { step: e.step, round: e.round };
      break;
    case 'inherited':
      out.inherited = { sources: e.sources, claims: e.claims };
      break;
    case 'remark':
      if (!out.other.includes(e.text)) out.other.push(e.text);
  }
}

/** What a run's events say, by kind, as the report renders it. */
export function summarizeNotes(events: readonly RunNote[]): ParsedNotes {
  const out = emptySummary();
  for (const e of events) summarize(out, e);
  return out;
}
