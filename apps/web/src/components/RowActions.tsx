import type { ReactNode } from 'react';
import './RowActions.css';

/** A row button's accessible name: what it does and the run's query, cut to its first 60 characters. */
export function rowActionLabel(action: string, query: string): string {
  return `${action}: ${Array.from(query).slice(0, 60).join('')}`;
}

/** A table row's buttons, side by side (the table scrolls sideways on a narrow screen). */
export function RowActions({ children }: { children: ReactNode }) {
  return <div className="row-actions">{children}</div>;
}

/** A short button in a run's row, named for assistive technology by what it does to which run ("Delete run: …"). */
export function RowButton({
  text,
  action,
  query,
  danger,
  onClick,
}: {
  text: string;
  action: string;
  query: string;
  danger?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={danger ? 'danger' : 'secondary'}
      aria-label={rowActionLabel(action, query)}
      onClick={onClick}
    >
      {text}
    </button>
  );
}
