import { describe, expect, it } from "vitest";
import { formatLongDate } from "./format-date.ts";

describe("formatLongDate", () => {
  it.each([
    // Midnight in India, as the content files date articles.
    ["2025-01-04T18:30:00.000Z", "January 5, 2025"],
    // The last minute of a day in India, and the first of the next.
    ["2025-03-31T18:29:00.000Z", "March 31, 2025"],
    ["2025-03-31T18:30:00.000Z", "April 1, 2025"],
    ["2024-12-31T20:00:00.000Z", "January 1, 2025"],
    ["2024-02-29T00:00:00.000Z", "February 29, 2024"],
  ])("reads %s as %s", (iso, expected) => {
    expect(formatLongDate(iso)).toBe(expected);
  });

  it("agrees with the platform's own formatting in India's time zone across two years", () => {
    const reference = new Intl.DateTimeFormat("en-US", {
      year: "numeric",
      month: "long",
      day: "numeric",
      timeZone: "Asia/Kolkata",
    });
    for (let time = Date.UTC(2024, 0, 1); time < Date.UTC(2026, 0, 1); time += 7 * 3_600_000 + 13 * 60_000) {
      const iso = new Date(time).toISOString();
      expect(formatLongDate(iso), iso).toBe(reference.format(new Date(time)));
    }
  });
});
