import { describe, expect, it } from "vitest";
import { MAX_REPORT_DAYS } from "#shared/analytics.ts";
import { parseReportRange } from "./report-range.ts";

describe("parseReportRange", () => {
  it("takes India dates, inclusive, and counts their days", () => {
    expect(parseReportRange("2026-11-23", "2026-11-23")).toEqual({ from: "2026-11-23", to: "2026-11-23", days: 1 });
    expect(parseReportRange("2024-02-28", "2024-03-01")).toEqual({ from: "2024-02-28", to: "2024-03-01", days: 3 });
    expect(parseReportRange("2099-12-01", "2099-12-31")).toMatchObject({ days: 31 });
  });

  it.each([
    ["the last day of year 9999 (its next day once sorted before it)", "9999-12-31", "9999-12-31"],
    ["year 0000", "0000-01-01", "0000-01-01"],
    ["a year past 2099", "2100-01-01", "2100-01-01"],
    ["a year before 2000", "1999-12-31", "1999-12-31"],
    ["an impossible date", "2026-02-30", "2026-03-01"],
    ["a date with six-digit years", "+010000-01-01", "+010000-01-01"],
  ])("refuses %s, naming the years it takes", (_name, from, to) => {
    const range = parseReportRange(from, to);
    expect(range).toEqual({ problem: expect.stringMatching(/YYYY-MM-DD .*2000 to 2099/) });
  });

  it.each([
    [undefined, "2026-11-23", "`from` must be a date"],
    ["2026-11-23", ["2026-11-23"], "`to` must be a date"],
    [7, null, "`from` and `to` must be dates"],
    ["2026-11-23", "2026-11-22", "`from` must not be after `to`."],
    ["2024-11-22", "2026-11-23", `at most ${MAX_REPORT_DAYS} days`],
    ["2000-01-01", "2099-12-31", `at most ${MAX_REPORT_DAYS} days`],
  ])("refuses %j to %j: %s", (from, to, message) => {
    const range = parseReportRange(from, to);
    expect("problem" in range && range.problem).toContain(message);
  });

  it("takes the longest range it allows", () => {
    expect(parseReportRange("2024-11-23", "2026-11-23")).toMatchObject({ days: MAX_REPORT_DAYS });
  });
});
