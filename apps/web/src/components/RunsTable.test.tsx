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

  it('keeps each row’s actions in one menu named by the first 60 characters of the query', () => {
    const asked: [RunAction, string][] = [];
    render(<RunsTable runs={runs} onAction={(action, run) => asked.push([action, run.research_id])} />);
    const actions = screen.getByRole('button', { name: `Actions: ${LONG.slice(0, 60)}` });
    expect(actions.getAttribute('aria-haspopup')).toBe('menu');
    expect(actions.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('menu')).toBeNull();

    fireEvent.click(actions);
    const menu = screen.getByRole('menu', { name: `Actions: ${LONG.slice(0, 60)}` });
    expect(actions.getAttribute('aria-expanded')).toBe('true');
    // A protected run: its password can be changed or removed; Delete, which destroys, comes last.
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Change protection password', 'Remove protection', 'Delete']);
    expect(document.activeElement?.textContent).toBe('Change protection password');
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Delete' }));
    expect(screen.queryByRole('menu')).toBeNull();
    // The focus is back on the button, so a dialog the action opens gives it back there.
    expect(document.activeElement).toBe(actions);

    // An unprotected run can only be protected or deleted.
    fireEvent.click(screen.getByRole('button', { name: 'Actions: Is coffee healthy?' }));
    expect(
      within(screen.getByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Protect from deletion', 'Delete']);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Protect from deletion' }));
    expect(asked).toEqual([
      ['delete', 'r/1'],
      ['protect', 'r2'],
    ]);
  });

  it('works the menu from the keyboard: arrows, Home, End, Escape', () => {
    const asked: RunAction[] = [];
    render(<RunsTable runs={runs} onAction={(action) => asked.push(action)} />);
    const actions = screen.getByRole('button', { name: `Actions: ${LONG.slice(0, 60)}` });
    const focused = () => document.activeElement?.textContent;
    actions.focus();
    fireEvent.keyDown(actions, { key: 'ArrowUp' });
    expect(focused()).toBe('Delete');
    const menu = screen.getByRole('menu');
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(focused()).toBe('Change protection password');
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(focused()).toBe('Remove protection');
    fireEvent.keyDown(menu, { key: 'Home' });
    expect(focused()).toBe('Change protection password');
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(focused()).toBe('Delete');
    fireEvent.keyDown(menu, { key: 'End' });
    expect(focused()).toBe('Delete');
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(actions);

    fireEvent.keyDown(actions, { key: 'ArrowDown' });
    expect(focused()).toBe('Change protection password');
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'ArrowDown' });
    fireEvent.click(document.activeElement as HTMLElement);
    expect(asked).toEqual(['unprotect']);

    // A click elsewhere closes it without acting.
    fireEvent.click(actions);
    fireEvent.pointerDown(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(asked).toEqual(['unprotect']);
  });

  it('says how to start a run when there is none', () => {
    render(<RunsTable runs={[]} onAction={() => {}} />);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('link', { name: 'Ask a question' }).getAttribute('href')).toBe('#/ask');
  });
});
