/** @jest-environment jsdom */
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { RunListItem } from '../api/types';
import { formatLocalTime } from './LocalTime';
import { RunsTable, type RunAction } from './RunsTable';

const LONG = 'What do the national statistics say about the growth of solar power in Germany since 2015?';
const runs: RunListItem[] = [
  {
    research_id: 'r/1',
    query: LONG,
    depth: 'quick',
    state: 'searching',
    created_at: '2026-03-01T09:30:00.000Z',
    source_count: 4,
    claim_count: 0,
    is_deletion_protected: true,
  },
  {
    research_id: 'r2',
    query: 'Is coffee healthy?',
    depth: 'normal',
    state: 'completed',
    created_at: '2026-02-28T18:05:00.000Z',
    source_count: 12,
    claim_count: 31,
    is_deletion_protected: false,
  },
];

describe('the runs table', () => {
  it('shows one row per run: its query as a link, state, depth, local time, counts and protection', () => {
    render(<RunsTable runs={runs} onAction={() => {}} />);
    const table = screen.getByRole('table', { name: 'Research runs' });
    const [, first, second] = within(table).getAllByRole('row');
    const cells = within(first as HTMLElement)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 7)).toEqual([
      LONG,
      'searching',
      'quick',
      formatLocalTime('2026-03-01T09:30:00.000Z'),
      '4',
      '0',
      'yes',
    ]);
    expect(
      within(first as HTMLElement)
        .getByRole('link', { name: LONG })
        .getAttribute('href'),
    ).toBe('#/runs/r%2F1');
    expect((first as HTMLElement).querySelector('time')?.getAttribute('dateTime')).toBe('2026-03-01T09:30:00.000Z');
    expect(within(second as HTMLElement).getAllByRole('cell')[6]?.textContent).toBe('no');
  });

  it('names each row’s buttons by the first 60 characters of the query, and Unprotect only when protected', () => {
    const asked: [RunAction, string][] = [];
    render(<RunsTable runs={runs} onAction={(action, run) => asked.push([action, run.research_id])} />);
    fireEvent.click(screen.getByRole('button', { name: `Delete run: ${LONG.slice(0, 60)}` }));
    fireEvent.click(screen.getByRole('button', { name: `Protect run: ${LONG.slice(0, 60)}` }));
    fireEvent.click(screen.getByRole('button', { name: `Unprotect run: ${LONG.slice(0, 60)}` }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete run: Is coffee healthy?' }));
    expect(screen.queryByRole('button', { name: 'Unprotect run: Is coffee healthy?' })).toBeNull();
    expect(asked).toEqual([
      ['delete', 'r/1'],
      ['protect', 'r/1'],
      ['unprotect', 'r/1'],
      ['delete', 'r2'],
    ]);
  });

  it('says how to start a run when there is none', () => {
    render(<RunsTable runs={[]} onAction={() => {}} />);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('link', { name: 'Ask a question' }).getAttribute('href')).toBe('#/ask');
  });
});
