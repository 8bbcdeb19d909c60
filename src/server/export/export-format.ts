// Formats for `npm run enquiries` and `npm run subscribers`: an aligned table for a terminal,
// CSV for a spreadsheet (with formulas neutralised), JSON for other programs.

export type ExportFormat = "table" | "csv" | "json";

/**
 * A CSV cell a spreadsheet will not run: a leading = + - @ (or tab / carriage return, which some
 * spreadsheets skip before them) gets a ' in front, and the cell is quoted when it needs to be.
 */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? "";
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(columns: string[], rows: (string | null)[][]): string {
  return [columns, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

export function toTable(columns: string[], rows: (string | null)[][], maxWidth = 48): string {
  const clip = (text: string | null) => {
    const flat = (text ?? "").replace(/\s+/g, " ");
    return flat.length > maxWidth ? `${flat.slice(0, maxWidth - 1)}…` : flat;
  };
  const cells = [columns, ...rows].map((row) => row.map(clip));
  const widths = columns.map((_, index) => Math.max(...cells.map((row) => row[index]?.length ?? 0)));
  const line = (row: string[]) => row.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join("  ").trimEnd();
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
  if (Number.isNaN(date.getTime())) throw new Error(`--since must be like 7d, 24h, 30m or a date such as 2025-01-31, not "${value}"`);
  return date;
}

export function parseExportArgs(argv: string[], options: { allowSpam: boolean; allowRemove?: boolean }) {
  const result: { since?: Date; format: ExportFormat; spam: boolean; remove?: string } = { format: "table", spam: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? "";
    const [flag, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => {
      const next = inline ?? argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    if (flag === "--since") result.since = parseSince(value());
    else if (flag === "--format") {
      const format = value();
      if (format !== "table" && format !== "csv" && format !== "json") throw new Error(`--format must be table, csv or json, not "${format}"`);
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
