import { useEffect, useState } from 'react';
import type { ApiClient } from '../api/client';

export interface Fetched<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
}

/**
 * GET `path` (nothing while it is null), again whenever `refresh` changes. A refresh keeps the answer it
 * had until the new one arrives; a new path starts empty, so one place's answer never shows for another.
 */
export function useApiGet<T>(api: ApiClient, path: string | null, refresh: unknown = null): Fetched<T> {
  const [result, setResult] = useState<{ path: string; data: T | null; error: unknown } | null>(null);
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    api.get<T>(path, controller.signal).then(
      (data) => setResult({ path, data, error: null }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setResult((previous) => ({ path, data: previous?.path === path ? previous.data : null, error }));
      },
    );
    return () => controller.abort();
  }, [api, path, refresh]);
  const current = path !== null && result?.path === path ? result : null;
  return { data: current?.data ?? null, error: current?.error ?? null, loading: path !== null && current === null };
}
