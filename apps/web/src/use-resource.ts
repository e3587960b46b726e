import { useCallback, useEffect, useState } from 'react';
import { errorText } from './api/client';

export interface Resource<T> {
  /** The answer of the current `load`; kept while reload() asks again, so the page does not jump. */
  data: T | null;
  /** The text of the last failure, null after a success. */
  error: string | null;
  loading: boolean;
  /** Asks again (after a change the page made, or news from the run). */
  reload: () => void;
}

type Load<T> = (signal: AbortSignal) => Promise<T>;

/**
 * What `load` answers: asked when `load` changes (keep it in useCallback) and on reload(); nothing while
 * it is null. An answer belongs to the `load` that gave it, so a page that moves to another thing (another
 * source's text) never shows the last one's answer for it, while a reload keeps what it had until the new
 * answer comes.
 */
export function useResource<T>(load: Load<T> | null): Resource<T> {
  const [result, setResult] = useState<{ load: Load<T>; version: number; data: T | null; error: string | null }>();
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!load) return;
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setResult({ load, version, data, error: null });
      },
      (e: unknown) => {
        if (controller.signal.aborted) return;
        setResult((previous) => ({
          load,
          version,
          data: previous?.load === load ? previous.data : null,
          error: errorText(e),
        }));
      },
    );
    return () => controller.abort();
  }, [load, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const current = load !== null && result?.load === load ? result : undefined;
  return {
    data: current?.data ?? null,
    error: current?.error ?? null,
    loading: load !== null && current?.version !== version,
    reload,
  };
}
