import { useEffect, useRef, useState } from 'react';
import { errorText, runPath, type ApiClient } from '../api/client';
import type { CancelResponse } from '../api/report-types';

/** "Stop research" while the run is running; once the API took the stop, "Stopping…" until it ends. */
export function StopButton({ api, id, running }: { api: ApiClient; id: string; running: boolean }) {
  const [phase, setPhase] = useState<'idle' | 'sending' | 'stopping'>('idle');
  const [error, setError] = useState<string | null>(null);
  const stopping = useRef<HTMLParagraphElement>(null);

  // The button goes away on success: the keyboard focus moves to what replaced it.
  useEffect(() => {
    if (phase === 'stopping') stopping.current?.focus();
  }, [phase]);

  async function stop() {
    setPhase('sending');
    setError(null);
    try {
      await api.json<CancelResponse>('POST', runPath(id, '/cancel'));
      setPhase('stopping');
    } catch (e) {
      setError(errorText(e));
      setPhase('idle');
    }
  }

  if (!running && !error) return null;
  return (
    <div className="stop">
      {running && phase !== 'stopping' && (
        <button type="button" className="danger" disabled={phase === 'sending'} onClick={stop}>
          Stop research
        </button>
      )}
      {running && phase === 'stopping' && (
        <p role="status" ref={stopping} tabIndex={-1}>
          Stopping…
        </p>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}
