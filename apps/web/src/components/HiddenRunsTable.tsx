import type { HiddenRun } from '../api/types';
import { LocalTime } from './LocalTime';
import { RowActions, RowButton } from './RowActions';
import { WideTable } from './WideTable';

/** The soft-deleted runs an administrator may purge; an empty list says so. */
export function HiddenRunsTable({ runs, onPurge }: { runs: readonly HiddenRun[]; onPurge: (run: HiddenRun) => void }) {
  if (runs.length === 0) return <p>No hidden runs.</p>;
  return (
    <WideTable caption="Hidden runs" columns={['Query', 'Hidden at', 'Protected', 'Actions']}>
      {runs.map((run) => (
        <tr key={run.research_id}>
          <td>{run.query}</td>
          <td>
            <LocalTime iso={run.hidden_at} />
          </td>
          <td>{run.is_deletion_protected ? 'yes' : 'no'}</td>
          <td>
            <RowActions>
              <RowButton text="Purge" action="Purge run" query={run.query} danger onClick={() => onPurge(run)} />
            </RowActions>
          </td>
        </tr>
      ))}
    </WideTable>
  );
}
