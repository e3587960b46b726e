import { useCallback, useEffect, useState } from 'react';
import { errorText } from './api/client';

export interface Resource<T> {
  /** The last answer; kept while a reload is under way, so the page does not jump. */
  data: T | null;
  /** The text of the last failure, null after a success. */
  error: string | null;
  loading: boolean;
  /** Asks again (after a change the page made). */
  reload: () => void;
}

/** What `load` answers, asked again whenever `load` changes (keep it in useCallback) and on reload(). */
export function useResource<T>(load: (signal: AbortSignal) => Promise<T>): Resource<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    load(controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        setData(answer);
        setError(null);
        setLoading(false);
      },
      (e: unknown) => {
        if (controller.signal.aborted) return;
        setError(errorText(e));
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [load, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, error, loading, reload };
}
