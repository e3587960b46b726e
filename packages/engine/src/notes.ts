// Notes are how steps tell the report what happened (the orchestrator keeps ctx.notes in the run's
// checkpoint across steps and resumes). The engine writes them as small codes and renders them in the
// run's language only when the report is written; notes from elsewhere (plain sentences) pass through.

export type EngineMode = 'llm' | 'extractive' | 'mixed' | 'deterministic';

export const note = {
  engine: (step: string, round: number, mode: EngineMode) => `engine:${step}:${round}:${mode}`,
  fallback: (step: string, round: number, kind: string, count = 1) => `fallback:${step}:${round}:${kind}:${count}`,
  search: (round: number, sent: number, hits: number) => `search:${round}:${sent}:${hits}`,
  fetch: (round: number, candidates: number, accepted: number) => `fetch:${round}:${candidates}:${accepted}`,
  downloadBudget: (max: number) => `budget:download_bytes:${max}`,
  droppedClaims: (round: number, count: number) => `ungrounded:${round}:${count}`,
};

export interface ParsedNotes {
  engines: Array<{ step: string; round: number; mode: EngineMode }>;
  fallbacks: Array<{ step: string; round: number; kind: string; count: number }>;
  searches: Array<{ round: number; sent: number; hits: number }>;
  fetches: Array<{ round: number; candidates: number; accepted: number }>;
  searchBudget: { max: number; dropped: number } | null;
  /** max_total_download_bytes when the download budget cut a fetch short. */
  downloadBudget: number | null;
  searchFailures: Array<{ round: number; failed: number; total: number }>;
  ungrounded: number;
  /** Notes not written by the engine (kept as they are). */
  other: string[];
}

/** Reads the notes of a run back into structure; the last note of a kind per step and round wins. */
export function parseNotes(notes: readonly string[]): ParsedNotes {
  const out: ParsedNotes = {
    engines: [],
    fallbacks: [],
    searches: [],
    fetches: [],
    searchBudget: null,
    downloadBudget: null,
    searchFailures: [],
    ungrounded: 0,
    other: [],
  };
  for (const text of notes) {
    const p = text.split(':');
    const num = (i: number) => Number(p[i]);
    switch (p[0]) {
      case 'engine':
        out.engines = out.engines.filter((e) => !(e.step === p[1] && e.round === num(2)));
        out.engines.push({ step: p[1]!, round: num(2), mode: p[3] as EngineMode });
        break;
      case 'fallback':
        out.fallbacks.push({ step: p[1]!, round: num(2), kind: p[3]!, count: num(4) || 1 });
        break;
      case 'search':
        out.searches = out.searches.filter((s) => s.round !== num(1));
        out.searches.push({ round: num(1), sent: num(2), hits: num(3) });
        break;
      case 'fetch':
        out.fetches = out.fetches.filter((s) => s.round !== num(1));
        out.fetches.push({ round: num(1), candidates: num(2), accepted: num(3) });
        break;
      case 'budget':
        if (p[1] === 'search_queries')
          out.searchBudget = { max: num(2), dropped: (out.searchBudget?.dropped ?? 0) + num(3) };
        else if (p[1] === 'download_bytes') out.downloadBudget = num(2);
        break;
      case 'search_failures':
        out.searchFailures.push({ round: num(1), failed: num(2), total: num(3) });
        break;
      case 'ungrounded':
        out.ungrounded += num(2);
        break;
      default:
        if (!out.other.includes(text)) out.other.push(text);
    }
  }
  return out;
}
