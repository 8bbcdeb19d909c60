// Figures and tables for the bench's sections.

export type Spread = { median: number; min: number; max: number };

export function spread(values: number[]): Spread {
  if (values.length === 0) throw new Error("no values");
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

/** "5,700 (5,100–6,200)": the median, then the range of the runs. */
export function showSpread(value: Spread, digits = 0): string {
  const show = (number: number) =>
    number.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return value.min === value.max ? show(value.median) : `${show(value.median)} (${show(value.min)}–${show(value.max)})`;
}

export const megabytes = (bytes: number) => Math.round(bytes / 2 ** 20);
export const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** A plain text table: the first column left-aligned, the others right-aligned. */
export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? "").length)));
  return cells
    .map((row) =>
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
        .join("  "),
    )
    .join("\n");
}
