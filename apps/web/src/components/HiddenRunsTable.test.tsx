/** @jest-environment jsdom */
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { HiddenRun } from '../api/types';
import { HiddenRunsTable } from './HiddenRunsTable';
import { formatLocalTime } from './LocalTime';

describe('the hidden runs table', () => {
  const hidden: HiddenRun[] = [
    { research_id: 'h1', query: 'Is tea healthy?', hidden_at: '2026-03-02T10:00:00.000Z', is_deletion_protected: true },
  ];

  it('lists each hidden run with a Purge button named by its query', () => {
    const purged: string[] = [];
    render(<HiddenRunsTable runs={hidden} onPurge={(run) => purged.push(run.research_id)} />);
    const row = within(screen.getByRole('table', { name: 'Hidden runs' })).getAllByRole('row')[1] as HTMLElement;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Is tea healthy?', formatLocalTime('2026-03-02T10:00:00.000Z'), 'yes', 'Purge']);
    fireEvent.click(within(row).getByRole('button', { name: 'Purge run: Is tea healthy?' }));
    expect(purged).toEqual(['h1']);
  });

  it('says so when there is none', () => {
    render(<HiddenRunsTable runs={[]} onPurge={() => {}} />);
    expect(screen.getByText('No hidden runs.')).toBeTruthy();
  });
});
