import type { RunListItem } from '../api/types';
import { hrefOf } from '../router';
import { LocalTime } from './LocalTime';
import { RowMenu, rowActionLabel, type RowMenuItem } from './RowActions';
import { WideTable, type Column } from './WideTable';
import { StateBadge } from './StateBadge';

export type RunAction = 'delete' | 'protect' | 'unprotect';

/** A run's actions, as its protection allows: the password's change and removal only when it has one. */
function actionsOf(run: RunListItem, onAction: (action: RunAction, run: RunListItem) => void): RowMenuItem[] {
  const act = (action: RunAction) => () => onAction(action, run);
  const protection: RowMenuItem[] = run.is_deletion_protected
    ? [
        { text: 'Change protection password', onSelect: act('protect') },
        { text: 'Remove protection', onSelect: act('unprotect') },
      ]
    : [{ text: 'Protect from deletion', onSelect: act('protect') }];
  return [...protection, { text: 'Delete', danger: true, onSelect: act('delete') }];
}

/** One page of runs; each row's menu asks the caller to act on its run. An empty page says how to start one. */
export function RunsTable({
  runs,
  onAction,
  searched = false,
}: {
  runs: readonly RunListItem[];
  onAction: (action: RunAction, run: RunListItem) => void;
  /** The runs are a search's: an empty page is no run matching, said above the table. */
  searched?: boolean;
}) {
  if (runs.length === 0 && searched) return null;
  if (runs.length === 0) {
    return (
      <p>
        No runs yet. <a href={hrefOf({ name: 'ask' })}>Ask a question</a> to start one.
      </p>
    );
  }
  const columns: Column<RunListItem>[] = [
    { label: 'Query', cell: (run) => <a href={hrefOf({ name: 'run', id: run.research_id })}>{run.query}</a> },
    { label: 'State', cell: (run) => <StateBadge state={run.state} /> },
    { label: 'Depth', cell: (run) => run.depth },
    { label: 'Created', cell: (run) => <LocalTime iso={run.created_at} /> },
    { label: 'Sources', cell: (run) => run.source_count },
    { label: 'Claims', cell: (run) => run.claim_count },
    { label: 'Protected', cell: (run) => (run.is_deletion_protected ? 'yes' : 'no') },
    {
      label: 'Actions',
      cell: (run) => <RowMenu label={rowActionLabel('Actions', run.query)} items={actionsOf(run, onAction)} />,
    },
  ];
  return <WideTable caption="Research runs" columns={columns} rows={runs} rowKey={(run) => run.research_id} />;
}
