import { useEffect, useReducer, useState } from 'react';
import type { ApiClient } from '../api/client';
import { followRunEvents } from './event-stream';
import { applyEvents, initialProgress, type ProgressState } from './progress';

/** The stream's trouble, if any: `retrying` while it reconnects, else it stopped for good. */
export interface StreamTrouble {
  error: unknown;
  retrying: boolean;
}

/** A run's progress, followed live from its event stream while the component is mounted (keyed by run). */
export function useRunEvents(api: ApiClient, id: string): { progress: ProgressState; trouble: StreamTrouble | null } {
  const [progress, dispatch] = useReducer(applyEvents, initialProgress);
  const [trouble, setTrouble] = useState<StreamTrouble | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    void followRunEvents({
      api,
      id,
      signal: controller.signal,
      onEvents: dispatch,
      onError: (error, retrying) => setTrouble(error === null ? null : { error, retrying }),
    });
    return () => controller.abort();
  }, [api, id]);

  return { progress, trouble };
}
