import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { errorText, runPath, type ApiClient } from '../api/client';
import type { ReportDocument } from '../api/report-types';
import { retryRun } from '../api/research';
import type { RunStatus, SourceContent } from '../api/types';
import { ExportButtons } from '../run/ExportButtons';
import { ProgressLog } from '../run/ProgressLog';
import { ReportView } from '../run/ReportView';
import { SourceViewer } from '../run/SourceViewer';
import type { SourceTarget } from '../run/source-target';
import { StopButton } from '../run/StopButton';
import { useRunEvents, type StreamTrouble } from '../run/use-run-events';
import { StateBadge } from '../components/StateBadge';
import { navigate } from '../router';
import { useSession } from '../session-context';
import { useResource } from '../use-resource';
import './RunPage.css';

const ENDED_STATES = new Set(['completed', 'failed', 'cancelled']);

function RunHeader({ run, state, stop }: { run: RunStatus; state: string; stop: ReactNode }) {
  return (
    <>
      <h1>{run.query}</h1>
      {/* The stop button sits in this row, so its going at the run's end moves nothing below. */}
      <div className="run-meta">
        <StateBadge state={state} />
        <span>Depth {run.depth}</span>
        <span>Started {new Date(run.created_at).toLocaleString()}</span>
        <span>
          {run.search_count} search results · {run.source_count} sources · {run.claim_count} claims
        </span>
        {stop}
      </div>
      {run.error && <p className="run-error">The run failed: {run.error}</p>}
    </>
  );
}

function StreamNotice({ trouble }: { trouble: StreamTrouble | null }) {
  if (trouble?.retrying === false) {
    return (
      <p role="alert" className="error">
        {errorText(trouble.error)}
      </p>
    );
  }
  // Kept in place, empty while all is well, so a reconnect notice moves nothing below it.
  return (
    <p role="status" className="stream-notice hint">
      {trouble ? 'The connection was lost; reconnecting…' : ''}
    </p>
  );
}

function Report({
  api,
  id,
  ended,
  onOpen,
}: {
  api: ApiClient;
  id: string;
  ended: boolean;
  onOpen: (t: SourceTarget, opener: HTMLElement) => void;
}) {
  const loadReport = useCallback(
    (signal: AbortSignal) => api.get<ReportDocument>(runPath(id, '/report/document'), signal),
    [api, id],
  );
  const report = useResource(ended ? loadReport : null);
  if (!ended) return <p className="hint">The report appears here when the run ends.</p>;
  if (report.error) {
    return (
      <p role="alert" className="error">
        {report.error}
      </p>
    );
  }
  if (!report.data) return <p role="status">Loading the report…</p>;
  return (
    <>
      <ExportButtons api={api} id={id} />
      <ReportView doc={report.data} onOpen={onOpen} />
    </>
  );
}

/**
 * A failed run's report section: no report notice and no downloads, the failure in words (the header gives the
 * error) and a button that asks again as the run was asked.
 */
function FailedRun({ api, id }: { api: ApiClient; id: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function retry() {
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
    <div className="failed-run">
      <p>
        This run failed before it wrote a report. Asking again starts a new run with the same question and settings.
      </p>
      <button type="button" onClick={() => void retry()} disabled={busy}>
        {busy ? 'Starting…' : 'Retry'}
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}

function RunView({ id }: { id: string }) {
  const { api } = useSession();
  const { progress, trouble } = useRunEvents(api, id);
  const loadStatus = useCallback((signal: AbortSignal) => api.get<RunStatus>(runPath(id), signal), [api, id]);
  const status = useResource(loadStatus);
  const reloadStatus = status.reload;
  // The header's counts are read again at each new state and at the end (not at mount: the first read is
  // under way then).
  const news = `${progress.state}:${progress.ended}`;
  const lastNews = useRef(news);
  useEffect(() => {
    if (lastNews.current === news) return;
    lastNews.current = news;
    reloadStatus();
  }, [news, reloadStatus]);
  const run = status.data;
  // A run that had ended when the page opened replays its whole history: its badge shows the end at once.
  const state = run && !run.is_running ? run.state : (progress.state ?? run?.state ?? null);
  const ended = progress.ended || (state !== null && ENDED_STATES.has(state));

  const [target, setTarget] = useState<SourceTarget | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const sourceId = target?.source.source_id ?? null;
  const loadContent = useCallback(
    (signal: AbortSignal) =>
      api.get<SourceContent>(runPath(id, `/sources/${encodeURIComponent(sourceId ?? '')}/content`), signal),
    [api, id, sourceId],
  );
  const content = useResource(sourceId === null ? null : loadContent);
  const open = useCallback((next: SourceTarget, from: HTMLElement) => {
    opener.current = from;
    setTarget(next);
  }, []);
  const close = useCallback(() => {
    setTarget(null);
    opener.current?.focus();
  }, []);

  if (!run) {
    return (
      <>
        <h1>Research run</h1>
        {status.error ? (
          <p role="alert" className="error">
            {status.error}
          </p>
        ) : (
          <p role="status">Loading the run…</p>
        )}
      </>
    );
  }
  return (
    <>
      <RunHeader run={run} state={state ?? run.state} stop={<StopButton api={api} id={id} running={!ended} />} />
      <section aria-labelledby="progress-heading">
        <h2 id="progress-heading">Progress</h2>
        <ProgressLog progress={progress} />
        <StreamNotice trouble={trouble} />
      </section>
      <section aria-labelledby="report-heading">
        <h2 id="report-heading">Report</h2>
        {state === 'failed' ? (
          <FailedRun api={api} id={id} />
        ) : (
          <Report api={api} id={id} ended={ended} onOpen={open} />
        )}
      </section>
      <SourceViewer target={target} content={content.data} error={content.error} onClose={close} />
    </>
  );
}

/** A run: its live progress, a stop button while it runs, and its report with the sources to check it. */
export function RunPage({ id }: { id: string }) {
  // Keyed by the run, so another run's page starts from nothing.
  return <RunView key={id} id={id} />;
}
