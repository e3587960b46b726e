import { Fragment, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { errorText, runPath, type ApiClient } from '../api/client';
import type { ReportDocument } from '../api/report-types';
import type { RunStatus, SourceContent } from '../api/types';
import { useDocumentTitle } from '../document-title';
import { ExportButtons } from '../run/ExportButtons';
import { PlanReview } from '../run/PlanReview';
import { FollowUpForm, ParentLink, RunThread } from '../run/FollowUp';
import type { ProgressState } from '../run/progress';
import { ProgressLog } from '../run/ProgressLog';
import { ReportView } from '../run/ReportView';
import { RunAgainButton } from '../run/RunAgainButton';
import { RunCostLine } from '../run/RunCostLine';
import { SourceViewer } from '../run/SourceViewer';
import type { SourceTarget } from '../run/source-target';
import { StepBar } from '../run/StepBar';
import { formatElapsed, isoDuration, stepPosition } from '../run/step-progress';
import { StopButton } from '../run/StopButton';
import { useRunEvents, type StreamTrouble } from '../run/use-run-events';
import { StateBadge } from '../components/StateBadge';
import { useSession } from '../session-context';
import { useResource } from '../use-resource';
import './RunPage.css';

const ENDED_STATES = new Set(['completed', 'failed', 'cancelled']);

function RunHeader({ run, state, action }: { run: RunStatus; state: string; action: ReactNode }) {
  return (
    <>
      <h1>{run.query}</h1>
      {/* The stop button sits in this row, and "Run again" takes its place: the run's end moves nothing below.
          The counts, which grow as the run goes, have a line of their own: in the row they made it wrap. */}
      <div className="run-meta">
        <StateBadge state={state} />
        <span>Depth {run.depth}</span>
        <span>Started {new Date(run.created_at).toLocaleString()}</span>
        {action}
      </div>
      <p className="run-counts">
        {run.search_count} search results · {run.source_count} sources · {run.claim_count} claims
      </p>
      {run.cost && <RunCostLine cost={run.cost} />}
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

/** The report of a run that ended, then `after` (the folded progress) once the report is there to go before it. */
function Report({
  api,
  id,
  onOpen,
  after,
}: {
  api: ApiClient;
  id: string;
  onOpen: (t: SourceTarget, opener: HTMLElement) => void;
  after: ReactNode;
}) {
  const loadReport = useCallback(
    (signal: AbortSignal) => api.get<ReportDocument>(runPath(id, '/report/document'), signal),
    [api, id],
  );
  const report = useResource(loadReport);
  // Nothing comes under the report until it is read: the progress would only be pushed down when it arrives.
  const read = report.data !== null || report.error !== null;
  return (
    <>
      <section aria-labelledby="report-heading">
        <h2 id="report-heading">Report</h2>
        {report.error ? (
          <p role="alert" className="error">
            {report.error}
          </p>
        ) : report.data ? (
          <>
            <ExportButtons api={api} id={id} />
            <ReportView doc={report.data} onOpen={onOpen} />
          </>
        ) : (
          <p role="status">Loading the report…</p>
        )}
      </section>
      {read && after}
    </>
  );
}

/**
 * A failed run's report section: no report notice and no downloads, the failure in words (the header gives the
 * error) and a button that asks again as the run was asked.
 */
function FailedRun({ api, id }: { api: ApiClient; id: string }) {
  return (
    <section aria-labelledby="report-heading" className="failed-run">
      <h2 id="report-heading">Report</h2>
      <p>
        This run failed before it wrote a report. Asking again starts a new run with the same question and settings.
      </p>
      <RunAgainButton api={api} id={id} label="Retry" />
    </section>
  );
}

/**
 * The run's progress: while it runs, the step bar and the event log open; once it ended, the time it took and
 * the log folded away (a new <details>, closed, as it is rendered in another place under the report).
 */
function ProgressSection({
  run,
  progress,
  trouble,
  ended,
}: {
  run: RunStatus;
  progress: ProgressState;
  trouble: StreamTrouble | null;
  ended: boolean;
}) {
  const events = progress.entries.length;
  const took = progress.endedAt ? new Date(progress.endedAt).getTime() - new Date(run.created_at).getTime() : null;
  return (
    <section aria-labelledby="progress-heading" className="run-progress">
      <h2 id="progress-heading">Progress</h2>
      {!ended && <StepBar progress={progress} depth={run.depth} createdAt={run.created_at} />}
      {ended && took !== null && (
        <p className="hint">
          Ended after <time dateTime={isoDuration(took)}>{formatElapsed(took)}</time>.
        </p>
      )}
      <details className="progress-details" open={!ended}>
        <summary>
          Event log ({events} {events === 1 ? 'event' : 'events'})
        </summary>
        <ProgressLog progress={progress} />
      </details>
      <StreamNotice trouble={trouble} />
    </section>
  );
}

/** The tab's title: the question, after the step while it runs and after how it ended when that was not well. */
function runTitle(run: RunStatus | null, state: string | null, progress: ProgressState, ended: boolean): string {
  if (!run) return 'Research run';
  if (state === 'failed') return `Failed: ${run.query}`;
  if (state === 'cancelled') return `Cancelled: ${run.query}`;
  if (ended) return run.query;
  const p = stepPosition(progress, run.depth);
  return `(${p.step}/${p.steps}) ${run.query}`;
}

/** Under a follow-up's header: the run it follows up. */
function FollowUpOf({ api, parentId }: { api: ApiClient; parentId: string | null | undefined }) {
  if (!parentId) return null;
  return (
    <p className="run-parent">
      Follow-up of <ParentLink api={api} parentId={parentId} />
    </p>
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
  useDocumentTitle(runTitle(run, state, progress, ended));

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
  const progressSection = <ProgressSection run={run} progress={progress} trouble={trouble} ended={ended} />;
  const finished = state === 'completed' || state === 'cancelled';
  return (
    <>
      <RunHeader
        run={run}
        state={state ?? run.state}
        action={
          <>
            <StopButton api={api} id={id} running={!ended} />
            {finished && <RunAgainButton api={api} id={id} label="Run again" />}
          </>
        }
      />
      <FollowUpOf api={api} parentId={run.parent_id} />
      {/* The end swaps the running view for the ended one (new elements, nothing moved): report first,
          then the progress folded away. */}
      {!ended ? (
        <Fragment key="running">
          {state === 'awaiting_review' && <PlanReview api={api} id={id} />}
          {progressSection}
          <section aria-labelledby="report-heading">
            <h2 id="report-heading">Report</h2>
            <p className="hint">The report appears here when the run ends.</p>
          </section>
        </Fragment>
      ) : state === 'failed' ? (
        <Fragment key="failed">
          <FailedRun api={api} id={id} />
          {progressSection}
        </Fragment>
      ) : (
        <Report
          key="ended"
          api={api}
          id={id}
          onOpen={open}
          after={
            <>
              <FollowUpForm api={api} id={id} />
              {progressSection}
            </>
          }
        />
      )}
      <RunThread api={api} id={id} parentId={run.parent_id ?? null} />
      <SourceViewer target={target} content={content.data} error={content.error} onClose={close} />
    </>
  );
}

/** A run: its live progress, a stop button while it runs, and its report with the sources to check it. */
export function RunPage({ id }: { id: string }) {
  // Keyed by the run, so another run's page starts from nothing.
  return <RunView key={id} id={id} />;
}
