import type { Key, ReactNode } from "react";

export type Column<Row> = {
  /** The column's header; a node, so it can be visually hidden ("Actions"). */
  header: ReactNode;
  /**
   * The name a cell shows above its value when a narrow screen lays rows out as cards; the header
   * when it is text. A column without one (the actions) shows its cells unnamed.
   */
  label?: string;
  cell: (row: Row) => ReactNode;
  /** Classes of the column's cells. */
  className?: string;
  /** Classes of the column's header. */
  headerClassName?: string;
  /** The cells of this column name their row (th scope="row"). */
  rowHeader?: boolean;
};

/**
 * A table in a named region (a section with a label). Below 640 px each row is a card, each cell
 * under its column's name (`admin-table-cards` in admin.css), so a row's actions are on the screen
 * without scrolling sideways; it stays a table in the markup (Chromium and Firefox keep a table's
 * semantics whatever its display; explicit roles would be redundant, which the validator refuses).
 * The region is focusable, so the keyboard can scroll
 * a wide table at other widths. The caption is for screen readers; `empty` replaces the table when
 * there are no rows.
 */
/** A column's name on a card: its label, or its header when that is text. */
function cardLabel(column: Pick<Column<never>, "label" | "header">): string | undefined {
  if (column.label !== undefined) return column.label || undefined;
  return typeof column.header === "string" ? column.header : undefined;
}

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
        <table className="admin-table admin-table-cards">
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
                {columns.map((column, index) => {
                  const label = cardLabel(column);
                  return column.rowHeader ? (
                    <th key={index} scope="row" className={column.className} data-label={label}>
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={index} className={column.className} data-label={label}>
                      {column.cell(row)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
