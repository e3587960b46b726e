import { useCallback, useEffect, useRef, useState } from 'react';
import { deleteRun, listRuns, protectRun, unprotectRun } from '../api/research';
import type { RunListItem } from '../api/types';
import { pageCount, pageWindow } from '../components/paging';
import { Pager } from '../components/Pager';
import { DeleteRunDialog, ProtectRunDialog, UnprotectRunDialog } from '../components/RunDialogs';
import { RunsTable, type RunAction } from '../components/RunsTable';
import { StatusLine } from '../components/StatusLine';
import { useDocumentTitle } from '../document-title';
import { navigate } from '../router';
import { useSession } from '../session-context';
import { useResource } from '../use-resource';
import './RunsPage.css';

const DONE: Record<RunAction, string> = {
  delete: 'Run deleted.',
  protect: 'Deletion protection set.',
  unprotect: 'Deletion protection removed.',
};

/** The runs, ten to a page (the page is in the URL), with delete and deletion protection per run. */
export function RunsPage({ page }: { page: number }) {
  const { api } = useSession();
  useDocumentTitle(page > 1 ? `Runs, page ${page}` : 'Runs');
  const load = useCallback((signal: AbortSignal) => listRuns(api, pageWindow(page), signal), [api, page]);
  const runs = useResource(load);
  const [open, setOpen] = useState<{ action: RunAction; run: RunListItem } | null>(null);
  const [status, setStatus] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  // Set after a change: once the list is read again, the focus goes to the heading if its button went away.
  const refocus = useRef(false);

  const total = runs.data?.total ?? 0;
  const pages = pageCount(total);
  const emptyPastTheEnd = runs.data !== null && runs.data.items.length === 0 && total > 0 && page > 1;
  useEffect(() => {
    // The last run of the last page went away (or the link was old): show the last page there is.
    if (emptyPastTheEnd) navigate({ name: 'runs', page: pages });
  }, [emptyPastTheEnd, pages]);
  useEffect(() => {
    if (!refocus.current || runs.loading) return;
    refocus.current = false;
    if (document.activeElement === document.body || document.activeElement === null) heading.current?.focus();
  }, [runs.loading, runs.data]);

  const close = useCallback(() => setOpen(null), []);
  function changed(action: RunAction) {
    setOpen(null);
    setStatus(DONE[action]);
    refocus.current = true;
    runs.reload();
  }

  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        Runs
      </h1>
      <StatusLine message={status} />
      {runs.error && (
        <p role="alert" className="error">
          {runs.error}
        </p>
      )}
      <div className="runs-list" aria-busy={runs.loading}>
        {runs.data === null ? (
          runs.loading && <p>Loading the runs…</p>
        ) : (
          <>
            <RunsTable
              runs={runs.data.items}
              onAction={(action, run) => {
                setStatus('');
                setOpen({ action, run });
              }}
            />
            {total > 0 && <Pager page={page} pages={pages} onPage={(p) => navigate({ name: 'runs', page: p })} />}
          </>
        )}
      </div>
      {open?.action === 'delete' && (
        <DeleteRunDialog
          run={open.run}
          onClose={close}
          onDelete={async (password) => {
            await deleteRun(api, open.run.research_id, password);
            changed('delete');
          }}
        />
      )}
      {open?.action === 'protect' && (
        <ProtectRunDialog
          run={open.run}
          onClose={close}
          onProtect={async (passwords) => {
            await protectRun(api, open.run.research_id, passwords);
            changed('protect');
          }}
        />
      )}
      {open?.action === 'unprotect' && (
        <UnprotectRunDialog
          run={open.run}
          onClose={close}
          onUnprotect={async (password) => {
            await unprotectRun(api, open.run.research_id, password);
            changed('unprotect');
          }}
        />
      )}
    </>
  );
}
