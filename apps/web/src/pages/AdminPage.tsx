import { useCallback, useEffect, useRef, useState } from 'react';
import { listHiddenRuns, purgeRun } from '../api/research';
import type { HiddenRun } from '../api/types';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { HiddenRunsTable } from '../components/HiddenRunsTable';
import { StatusLine } from '../components/StatusLine';
import { useDocumentTitle } from '../document-title';
import { useSession } from '../session-context';
import { useResource } from '../use-resource';

/** Administrators: the soft-deleted runs, and purging one for good. */
export function AdminPage() {
  const { api } = useSession();
  useDocumentTitle('Hidden runs');
  const load = useCallback((signal: AbortSignal) => listHiddenRuns(api, signal), [api]);
  const hidden = useResource(load);
  const [purging, setPurging] = useState<HiddenRun | null>(null);
  // Purged here and not yet gone from a reloaded list: left out at once, so the row goes when the dialog does.
  const [purged, setPurged] = useState<ReadonlySet<string>>(new Set());
  const [status, setStatus] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const [refocus, setRefocus] = useState(0);

  useEffect(() => {
    // The purged row's button had the focus before the dialog: give it to the heading instead.
    if (refocus > 0) heading.current?.focus();
  }, [refocus]);

  const runs = hidden.data?.filter((run) => !purged.has(run.research_id)) ?? null;
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        Hidden runs
      </h1>
      <StatusLine message={status} />
      {hidden.error && (
        <p role="alert" className="error">
          {hidden.error}
        </p>
      )}
      {runs === null ? (
        hidden.loading && <p>Loading the hidden runs…</p>
      ) : (
        <HiddenRunsTable
          runs={runs}
          onPurge={(run) => {
            setStatus('');
            setPurging(run);
          }}
        />
      )}
      {purging && (
        <ConfirmDialog
          title="Purge this run for good?"
          confirmLabel="Purge run"
          danger
          onClose={() => setPurging(null)}
          onConfirm={async () => {
            await purgeRun(api, purging.research_id);
            setPurged((ids) => new Set(ids).add(purging.research_id));
            setPurging(null);
            setStatus('Run purged.');
            setRefocus((n) => n + 1);
            hidden.reload();
          }}
        >
          <p>“{purging.query}”, its sources, claims and report are removed, and cannot be brought back.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
