import type { Metrics } from '@research/observability';

/** Metrics a step records, held back until the step's transaction commits (STYLE: metrics after commit). */
export interface DeferredMetrics {
  readonly metrics: Metrics;
  flush(): void;
  discard(): void;
}

type Recorder = Omit<Metrics, 'fleetRegistry' | 'localRegistry'>;

export function deferMetrics(target: Metrics): DeferredMetrics {
  let pending: Array<() => void> = [];
  const defer =
    <K extends keyof Recorder>(name: K) =>
    (...args: Parameters<Recorder[K]>) => {
      pending.push(() => (target[name] as (...a: Parameters<Recorder[K]>) => void)(...args));
    };
  const metrics: Metrics = {
    fleetRegistry: target.fleetRegistry,
    localRegistry: target.localRegistry,
    searchQueries: defer('searchQueries'),
    sourcesDiscovered: defer('sourcesDiscovered'),
    sourcesFetched: defer('sourcesFetched'),
    sourcesRejected: defer('sourcesRejected'),
    claimsExtracted: defer('claimsExtracted'),
    duplicateSources: defer('duplicateSources'),
    contradictionsDetected: defer('contradictionsDetected'),
    llmRequest: defer('llmRequest'),
    llmCost: defer('llmCost'),
    runLlmTokens: defer('runLlmTokens'),
    researchFinished: defer('researchFinished'),
  };
  return {
    metrics,
    flush() {
      const calls = pending;
      pending = [];
      for (const call of calls) call();
    },
    discard() {
      pending = [];
    },
  };
}
