import type { RunListItem } from '../api/types';
import { hrefOf } from '../router';
import { LocalTime } from './LocalTime';
import { RowActions, RowButton } from './RowActions';
import { WideTable } from './WideTable';
import { StateBadge } from './StateBadge';

export type RunAction = 'delete' | 'protect' | 'unprotect';

/** One page of runs; each row's buttons ask the caller to act on its run. An empty page says how to start one. */
export function RunsTable({
  runs,
  onAction,
}: {
  runs: readonly RunListItem[];
  onAction: (action: RunAction, run: RunListItem) => void;
}) {
  if (runs.length === 0) {
    return (
      <p>
        No runs yet. <a href={hrefOf({ name: 'ask' })}>Ask a question</a> to start one.
      </p>
    );
  }
  return (
    <WideTable
      caption="Research runs"
      columns={['Query', 'State', 'Depth', 'Created', 'Sources', 'Claims', 'Protected', 'Actions']}
    >
      {runs.map((run) => (
        <tr key={run.research_id}>
          <td>
            <a href={hrefOf({ name: 'run', id: run.research_id })}>{run.query}</a>
          </td>
          <td>
            <StateBadge state={run.state} />
          </td>
          <td>{run.depth}</td>
          <td>
            <LocalTime iso={run.created_at} />
          </td>
          <td>{run.source_count}</td>
          <td>{run.claim_count}</td>
          <td>{run.is_deletion_protected ? 'yes' : 'no'}</td>
          <td>
            <RowActions>
              <RowButton
                text="Delete"
                action="Delete run"
                query={run.query}
                danger
                onClick={() => onAction('delete', run)}
              />
              <RowButton
                text="Protect"
                action="Protect run"
                query={run.query}
                onClick={() => onAction('protect', run)}
              />
              {run.is_deletion_protected && (
                <RowButton
                  text="Unprotect"
                  action="Unprotect run"
                  query={run.query}
                  onClick={() => onAction('unprotect', run)}
                />
              )}
            </RowActions>
          </td>
        </tr>
      ))}
    </WideTable>
  );
}
