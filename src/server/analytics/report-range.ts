import { MAX_REPORT_DAYS } from "#shared/analytics.ts";
import { FIRST_YEAR, indiaDaysBetween, LAST_YEAR, parseIndiaDate } from "#shared/india-time.ts";

// The dates of a report as a visitor's query string gives them. Only parseIndiaDate's years
// (FIRST_YEAR..LAST_YEAR) get through: past year 9999 the "next day" of a date is no longer a
// date that sorts after it, and a loop over days ran until the heap was gone.

export type ReportRange = { from: string; to: string; days: number };

/** The India dates `from` to `to` (inclusive) and how many days they cover, or the problem with them. */
export function parseReportRange(fromValue: unknown, toValue: unknown): ReportRange | { problem: string } {
  const from = parseIndiaDate(fromValue);
  const to = parseIndiaDate(toValue);
  if (!from || !to) {
    const which =
      !from && !to ? "`from` and `to` must be dates" : !from ? "`from` must be a date" : "`to` must be a date";
    return {
      problem: `${which} written YYYY-MM-DD (India dates, inclusive), in the years ${FIRST_YEAR} to ${LAST_YEAR}.`,
    };
  }
  const days = indiaDaysBetween(from, to) + 1;
  if (days < 1) return { problem: "`from` must not be after `to`." };
  if (days > MAX_REPORT_DAYS) return { problem: `A report covers at most ${MAX_REPORT_DAYS} days.` };
  return { from, to, days };
}
