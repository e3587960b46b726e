/** @jest-environment jsdom */
import { fireEvent, render, screen } from '@testing-library/react';
import { Pager } from './Pager';

describe('the pager', () => {
  it('says where the reader is and moves a page at a time, not past either end', () => {
    const moves: number[] = [];
    const { rerender } = render(<Pager page={1} pages={3} onPage={(page) => moves.push(page)} />);
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Previous page' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    rerender(<Pager page={3} pages={3} onPage={(page) => moves.push(page)} />);
    expect(screen.getByRole('button', { name: 'Next page' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(moves).toEqual([2, 2]);
  });
});
