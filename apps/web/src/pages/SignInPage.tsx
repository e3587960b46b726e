import { useState, type FormEvent } from 'react';
import { ApiClient, ApiError, errorText } from '../api/client';
import { listRuns } from '../api/research';
import { useDocumentTitle } from '../document-title';
import '../styles.css';

/** Sign in with an API key: checked against the API before it is kept for this tab. */
export function SignInPage({ notice, onSignedIn }: { notice: string | null; onSignedIn: (key: string) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useDocumentTitle('Sign in');

  async function submit(event: FormEvent) {
    event.preventDefault();
    const candidate = key.trim();
    if (!candidate) {
      setError('Enter your API key.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await listRuns(new ApiClient(candidate), { offset: 0, limit: 1 });
      onSignedIn(candidate);
    } catch (e) {
      setError(e instanceof ApiError && e.status === 401 ? `This API key was not accepted: ${e.detail}` : errorText(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="sign-in">
      <h1>Research</h1>
      <p>
        Ask a question; the service searches, reads the sources and writes a report whose every finding you can check.
      </p>
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={key}
          onChange={(e) => setKey(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'sign-in-error' : 'api-key-hint'}
        />
        <p id="api-key-hint" className="hint">
          Kept in this tab only, until you sign out or close it. The first start of the service writes an administrator
          key to <code>initial-admin-key</code> in its data folder (<code>DATA_DIR</code>, <code>./data</code> by
          default) and logs that file&apos;s path; more keys: <code>npm run cli -- keys create &lt;username&gt;</code>.
        </p>
        {error && (
          <p id="sign-in-error" role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
