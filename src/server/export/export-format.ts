// Formats for `npm run enquiries` and `npm run subscribers`: an aligned table for a terminal,
// CSV for a spreadsheet (with formulas neutralised), JSON for other programs. Every one is
// printed, so none may carry a control character: stored text comes from visitors, and an
// ESC ] 0 ; … in a message would retitle the terminal that shows it, or erase its lines.

export type ExportFormat = "table" | "csv" | "json";

/**
 * C0 controls but tab and line feed, DEL, the C1 controls (which some terminals obey like ESC
 * sequences), and the bidirectional overrides and isolates (which reorder what a terminal shows).
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const unprintable = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** Text safe to print: line breaks as LF, every other control character removed. */
export function printable(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(unprintable, "");
}

/** A value with every string in it made printable (for JSON, which escapes C0 controls but not DEL or C1). */
export function printableValue<T>(value: T): T {
  if (typeof value === "string") return printable(value) as T;
  if (Array.isArray(value)) return value.map(printableValue) as T;
  if (value && typeof value === "object" && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [printable(key), printableValue(entry)]),
    ) as T;
  }
  return value;
}

/** Pretty-printed JSON of `value`, every string in it printable. */
export function toJson(value: unknown): string {
  return `${JSON.stringify(printableValue(value), null, 2)}\n`;
}

/**
 * What a spreadsheet may read as the start of a formula: = + - @, or a tab or carriage return
 * (which some spreadsheets skip before them), at the cell's start or after a `;`, `,`, tab or
 * line break inside it, with spaces or quotes between: a spreadsheet that splits on `;` (Excel
 * in many locales), or that ignores the quotes, starts a new cell there, and one that ignores the
 * quotes starts a new row at a line break (the review's `=HYPERLINK(…)` after a line break).
 */
const formulaStart = /(?<=^|[;,\t\r\n])[ "]*(?=[=+\-@\t\r])/g;

/**
 * A CSV cell a spreadsheet will not run: a ' goes in front of every formula start (formulaStart),
 * and every cell is quoted, so no separator inside it splits it for a reader that honours quotes.
 */
export function csvCell(value: string | null | undefined): string {
  const text = printable(value ?? "").replace(formulaStart, "$&'");
  return `"${text.replace(/"/g, '""')}"`;
}

export function toCsv(columns: string[], rows: (string | null)[][]): string {
  return csvLines([columns, ...rows]);
}

/** Rows as lines of CSV, each ended by CRLF: a part of a file toCsv would write, made a batch at a time. */
export function csvLines(rows: (string | null)[][]): string {
  return rows.map((row) => `${row.map(csvCell).join(",")}\r\n`).join("");
}

export function toTable(columns: string[], rows: (string | null)[][], maxWidth = 48): string {
  const clip = (text: string | null) => {
    const flat = printable(text ?? "").replace(/\s+/g, " ");
    return flat.length > maxWidth ? `${flat.slice(0, maxWidth - 1)}…` : flat;
  };
  const cells = [columns, ...rows].map((row) => row.map(clip));
  const widths = columns.map((_, index) => Math.max(...cells.map((row) => row[index]?.length ?? 0)));
  const line = (row: string[]) =>
    row
      .map((cell, index) => cell.padEnd(widths[index] ?? 0))
      .join("  ")
      .trimEnd();
  const [head, ...body] = cells;
  return [line(head ?? []), widths.map((width) => "-".repeat(width)).join("  "), ...body.map(line)].join("\n") + "\n";
}

/** "7d", "24h", "30m" or a date: the moment that long ago, or that date. */
export function parseSince(value: string, now: Date = new Date()): Date {
  const relative = /^(\d+)([dhm])$/.exec(value.trim());
  if (relative) {
    const amount = Number(relative[1]);
    const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[relative[2] as "d" | "h" | "m"];
    return new Date(now.getTime() - amount * unit);
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new Error(`--since must be like 7d, 24h, 30m or a date such as 2025-01-31, not "${value}"`);
  return date;
}

export function parseExportArgs(argv: string[], options: { allowSpam: boolean; allowRemove?: boolean }) {
  const result: { since?: Date; format: ExportFormat; spam: boolean; remove?: string } = {
    format: "table",
    spam: false,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? "";
    const [flag, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    const value = () => {
      const next = inline ?? argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    if (flag === "--since") result.since = parseSince(value());
    else if (flag === "--format") {
      const format = value();
      if (format !== "table" && format !== "csv" && format !== "json")
        throw new Error(`--format must be table, csv or json, not "${format}"`);
      result.format = format;
    } else if (flag === "--spam" && options.allowSpam) result.spam = true;
    else if (flag === "--remove" && options.allowRemove) result.remove = value().trim().toLowerCase();
    else {
      const extra = `${options.allowSpam ? ", --spam" : ""}${options.allowRemove ? " or --remove <email>" : ""}`;
      throw new Error(`unknown option ${arg}; use --since 7d, --format table|csv|json${extra}`);
    }
  }
  if (result.remove !== undefined && argv.length > 2) throw new Error("--remove <email> takes no other option");
  return result;
}
