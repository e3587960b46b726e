import { useCallback, useState, type FormEvent } from 'react';
import { errorText, runPath, type ApiClient } from '../api/client';
import { askFollowUp, listRuns } from '../api/research';
import type { RunStatus } from '../api/types';
import { StateBadge } from '../components/StateBadge';
import { hrefOf, navigate } from '../router';
import { useResource } from '../use-resource';
import './FollowUp.css';

/**
 * The run a follow-up started from, as a link with its question (read when shown), or words saying it is gone
 * (deleted or purged: the follow-up keeps its evidence all the same).
 */
export function ParentLink({ api, parentId }: { api: ApiClient; parentId: string }) {
  const load = useCallback((signal: AbortSignal) => api.get<RunStatus>(runPath(parentId), signal), [api, parentId]);
  const parent = useResource(load);
  if (parent.error) return <span>a run that is no longer available</span>;
  return <a href={hrefOf({ name: 'run', id: parentId })}>{parent.data?.query ?? 'an earlier run'}</a>;
}

/**
 * "Ask a follow-up" under a finished run's report: a question that starts a new run from this run's sources and
 * claims (at its depth and in its language), then opens it. The API judges the question; its refusal stays here.
 */
export function FollowUpForm({ api, id }: { api: ApiClient; id: string }) {
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function ask(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const run = await askFollowUp(api, id, query.trim());
      navigate({ name: 'run', id: run.research_id });
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }
  return (
    <section aria-labelledby="follow-up-heading" className="follow-up">
      <h2 id="follow-up-heading">Ask a follow-up</h2>
      <form onSubmit={(e) => void ask(e)}>
        <label htmlFor="follow-up-query">Follow-up question</label>
        <p id="follow-up-hint" className="hint">
          A new run that starts from this run’s sources and claims (they are not fetched again) and searches only for
          what the new question needs.
        </p>
        <textarea
          id="follow-up-query"
          rows={2}
          value={query}
          aria-describedby={error ? 'follow-up-hint follow-up-error' : 'follow-up-hint'}
          aria-invalid={error ? true : undefined}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Starting…' : 'Ask the follow-up'}
        </button>
        {error && (
          <p id="follow-up-error" role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}

/**
 * The run's thread, at the end of its page (what it loads moves nothing below it): the run it follows up and the
 * follow-ups asked of it, newest first, each a link. Nothing for a run in no thread.
 */
export function RunThread({ api, id, parentId }: { api: ApiClient; id: string; parentId: string | null }) {
  const load = useCallback(
    (signal: AbortSignal) => listRuns(api, { offset: 0, limit: 100 }, signal, { parentId: id }),
    [api, id],
  );
  const followUps = useResource(load);
  const items = followUps.data?.items ?? [];
  if (parentId === null && items.length === 0) return null;
  return (
    <section aria-labelledby="thread-heading" className="run-thread">
      <h2 id="thread-heading">Thread</h2>
      {parentId !== null && (
        <p>
          This run follows up <ParentLink api={api} parentId={parentId} />.
        </p>
      )}
      {items.length > 0 && (
        <>
          <h3>
            Follow-ups ({followUps.data!.total} {followUps.data!.total === 1 ? 'run' : 'runs'})
          </h3>
          <ul className="thread-runs">
            {items.map((run) => (
              <li key={run.research_id}>
                <a href={hrefOf({ name: 'run', id: run.research_id })}>{run.query}</a> <StateBadge state={run.state} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
