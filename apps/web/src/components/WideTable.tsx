import type { ReactNode } from 'react';
import './WideTable.css';

/** A column: its heading, and what a row shows under it. */
export interface Column<Row> {
  label: string;
  cell: (row: Row) => ReactNode;
}

/**
 * A table with a caption and column headings, one row per item. On a wide screen it is a table in a region of
 * its own that scrolls sideways when it must (the region takes the focus so the keyboard can scroll it); on a
 * narrow one each row is a card: the first column (the long text) beside the last (the row's actions), the
 * others below it, each named by its column (`data-label`).
 */
export function WideTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string;
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
}) {
  // Explicit roles: a table laid out as cards (display: flex) keeps its semantics in every browser.
  return (
    <div className="wide-table" role="region" aria-label={caption} tabIndex={0}>
      <table role="table">
        <caption>{caption}</caption>
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((column) => (
              <th key={column.label} scope="col" role="columnheader">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {rows.map((row) => (
            <tr key={rowKey(row)} role="row">
              {columns.map((column) => (
                <td key={column.label} role="cell" data-label={column.label}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
