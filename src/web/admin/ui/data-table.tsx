import type { Key, ReactNode } from "react";

export type Column<Row> = {
  /** The column's header; a node, so it can be visually hidden ("Actions"). */
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Classes of the column's cells. */
  className?: string;
  /** Classes of the column's header. */
  headerClassName?: string;
  /** The cells of this column name their row (th scope="row"). */
  rowHeader?: boolean;
};

/**
 * A table in a named region (a section with a label) that scrolls sideways on a narrow screen; the
 * region is focusable, so the keyboard can scroll it too. The caption is for screen readers;
 * `empty` replaces the table when there are no rows.
 */
export function DataTable<Row>({
  label,
  caption,
  columns,
  rows,
  rowKey,
  empty,
  className,
}: {
  /** The region's name: what screen readers and the browser tests find the table by. */
  label: string;
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => Key;
  empty?: ReactNode;
  /** Classes of the scrolling region (a card, a margin). */
  className?: string;
}) {
  return (
    <section className={`relative overflow-x-auto ${className ?? ""}`.trim()} aria-label={label} tabIndex={0}>
      {rows.length === 0 && empty !== undefined ? (
        empty
      ) : (
        <table className="admin-table">
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              {columns.map((column, index) => (
                <th key={index} scope="col" className={column.headerClassName}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, rowIndex) => (
              <tr key={rowKey(row, rowIndex)}>
                {columns.map((column, index) =>
                  column.rowHeader ? (
                    <th key={index} scope="row" className={column.className}>
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={index} className={column.className}>
                      {column.cell(row)}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
