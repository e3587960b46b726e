import { useState } from 'react';
import { errorText, type ApiClient } from '../api/client';
import { retryRun } from '../api/research';
import { navigate } from '../router';

/**
 * Starts a new run asked as run `id` was (question, depth, language, extra queries, source controls) and
 * opens it: "Run again" on a run that ended, "Retry" on one that failed. A refusal stays beside the button.
 */
export function RunAgainButton({ api, id, label }: { api: ApiClient; id: string; label: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function again() {
    setBusy(true);
    setError(null);
    try {
      const run = await retryRun(api, id);
      navigate({ name: 'run', id: run.research_id });
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }
  return (
    <div className="run-again">
      <button type="button" onClick={() => void again()} disabled={busy}>
        {busy ? 'Starting…' : label}
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}
