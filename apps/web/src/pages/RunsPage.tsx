import { useCallback, useEffect, useRef, useState } from 'react';
import { deleteRun, listRuns, protectRun, unprotectRun } from '../api/research';
import type { RunListItem } from '../api/types';
import { pageCount, pageWindow } from '../components/paging';
import { Pager } from '../components/Pager';
import { DeleteRunDialog, ProtectRunDialog, UnprotectRunDialog } from '../components/RunDialogs';
import { RunsTable, type RunAction } from '../components/RunsTable';
import { RunSearchForm, SearchSummary, runsPage } from '../components/RunSearchForm';
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

/**
 * The runs, ten to a page (the page and the search are in the URL), with delete and deletion protection per run;
 * with a search (`q`), the runs whose question or report hold its words, best match first.
 */
export function RunsPage({ page, q }: { page: number; q?: string }) {
  const { api } = useSession();
  const title = q ? `Runs matching “${q}”` : 'Runs';
  useDocumentTitle(page > 1 ? `${title}, page ${page}` : title);
  const load = useCallback((signal: AbortSignal) => listRuns(api, pageWindow(page), signal, { q }), [api, page, q]);
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
    if (emptyPastTheEnd) navigate(runsPage(pages, q));
  }, [emptyPastTheEnd, pages, q]);
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
      <RunSearchForm q={q} />
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
            {q && <SearchSummary q={q} total={total} />}
            <RunsTable
              runs={runs.data.items}
              searched={Boolean(q)}
              onAction={(action, run) => {
                setStatus('');
                setOpen({ action, run });
              }}
            />
            {total > 0 && <Pager page={page} pages={pages} onPage={(p) => navigate(runsPage(p, q))} />}
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
