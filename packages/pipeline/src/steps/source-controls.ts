import {
  allowsUrl,
  isCollectionUrl,
  publicationVerdict,
  readSourceControls,
  type SourceControls,
} from '@research/core';
import type { StepContext } from '../steps';

// Where a run's source controls are enforced: on every hit as the provider gives it (before it is stored or
// fetched), and again on every page read (a redirect may leave the allowed hosts, a page may carry an older
// date than its hit). What they leave out is recorded for the report and the progress stream.

/** The run's source controls, or null when it has none. */
export function controlsOf(ctx: Pick<StepContext, 'run'>): SourceControls | null {
  return readSourceControls(ctx.run.source_controls);
}

type Reason = 'domain' | 'date';

/** Why the controls refuse an item at `url` dated `published_at`, or null when they keep it. */
function refusal(controls: SourceControls, item: { url: string; published_at: string | null }): Reason | null {
  // The domains are the web's: a collection's documents were named by the run itself.
  if (!isCollectionUrl(item.url) && !allowsUrl(controls, item.url)) return 'domain';
  return publicationVerdict(controls, item.published_at) === 'before' ? 'date' : null;
}

const PROGRESS_REASON: Record<Reason, string> = { domain: 'source_controls_domain', date: 'source_controls_date' };

/**
 * The items the run's controls keep, in order; each one refused is reported as a rejected source and counted
 * in a `filtered` event per reason.
 */
export function keepControlled<T extends { url: string; published_at: string | null }>(
  ctx: StepContext,
  items: readonly T[],
): T[] {
  const controls = controlsOf(ctx);
  if (!controls) return [...items];
  const refused: Record<Reason, number> = { domain: 0, date: 0 };
  const kept = items.filter((item) => {
    const reason = refusal(controls, item);
    if (reason === null) return true;
    refused[reason]++;
    ctx.progress({
      type: 'source',
      round: ctx.round,
      url: item.url,
      outcome: 'rejected',
      reason: PROGRESS_REASON[reason],
    });
    return false;
  });
  for (const reason of ['domain', 'date'] as const) {
    if (refused[reason] === 0) continue;
    ctx.note({ kind: 'filtered', round: ctx.round, reason, count: refused[reason] });
    ctx.metrics.sourcesRejected(PROGRESS_REASON[reason], refused[reason]);
  }
  return kept;
}

/**
 * The sources of a round the run's controls keep (see keepControlled); those kept without a known date under
 * published_after are counted in an `undated` event, which the report's uncertainties name.
 */
export function keepControlledSources<T extends { url: string; published_at: string | null }>(
  ctx: StepContext,
  sources: readonly T[],
): T[] {
  const kept = keepControlled(ctx, sources);
  const controls = controlsOf(ctx);
  const undated = controls ? kept.filter((s) => publicationVerdict(controls, s.published_at) === 'undated').length : 0;
  if (undated > 0) ctx.note({ kind: 'undated', round: ctx.round, count: undated });
  return kept;
}
