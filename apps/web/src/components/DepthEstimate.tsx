import { useCallback } from 'react';
import type { ApiClient } from '../api/client';
import { estimateRun } from '../api/research';
import type { Depth } from '../api/types';
import { estimateText } from '../run/cost';
import { useResource } from '../use-resource';

/**
 * What a run of `depth` is expected to spend (POST /v1/research/estimate), under the depth's choice; asked
 * again when the depth changes. The line keeps its place while it loads or when no estimate comes, so the
 * form below it never moves.
 */
export function DepthEstimate({ api, depth }: { api: ApiClient; depth: Depth }) {
  const load = useCallback((signal: AbortSignal) => estimateRun(api, depth, signal), [api, depth]);
  const estimate = useResource(load);
  return (
    <p className="hint depth-estimate" aria-live="polite">
      {estimate.data ? estimateText(estimate.data) : estimate.error ? 'No estimate for this depth just now.' : ''}
    </p>
  );
}
