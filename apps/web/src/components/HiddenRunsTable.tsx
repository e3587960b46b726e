import type { HiddenRun } from '../api/types';
import { LocalTime } from './LocalTime';
import { RowButton } from './RowActions';
import { WideTable, type Column } from './WideTable';

/** The soft-deleted runs an administrator may purge; an empty list says so. */
export function HiddenRunsTable({ runs, onPurge }: { runs: readonly HiddenRun[]; onPurge: (run: HiddenRun) => void }) {
  if (runs.length === 0) return <p>No hidden runs.</p>;
  const columns: Column<HiddenRun>[] = [
    { label: 'Query', cell: (run) => run.query },
    { label: 'Hidden at', cell: (run) => <LocalTime iso={run.hidden_at} /> },
    { label: 'Protected', cell: (run) => (run.is_deletion_protected ? 'yes' : 'no') },
    {
      label: 'Actions',
      // One action needs no menu.
      cell: (run) => (
        <RowButton text="Purge" action="Purge run" query={run.query} danger onClick={() => onPurge(run)} />
      ),
    },
  ];
  return <WideTable caption="Hidden runs" columns={columns} rows={runs} rowKey={(run) => run.research_id} />;
}
