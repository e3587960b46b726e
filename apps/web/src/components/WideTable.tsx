import type { ReactNode } from 'react';
import './WideTable.css';

/**
 * A table with a caption and column headings (its rows are the children), in a region of its own that scrolls
 * sideways, so a narrow screen never scrolls the whole page; the region takes the focus so the keyboard can scroll it.
 */
export function WideTable({ caption, columns, children }: { caption: string; columns: string[]; children: ReactNode }) {
  return (
    <div className="wide-table" role="region" aria-label={`${caption}, scrolls sideways`} tabIndex={0}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
