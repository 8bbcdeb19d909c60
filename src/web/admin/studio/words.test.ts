import { describe, expect, it } from "vitest";
import { formatIndiaDateTime } from "../format.ts";
import { indiaDateTimeText, presenceText, savedAtText } from "./words.ts";

describe("who else is editing", () => {
  it("names the others, and your own other window apart", () => {
    expect(presenceText([])).toBe("");
    expect(presenceText(["Meera Shah"])).toBe("Meera Shah is editing this.");
    expect(presenceText(["Meera Shah", "Ravi Patel", "Nisha Rao"])).toBe(
      "Meera Shah, Ravi Patel and Nisha Rao are editing this.",
    );
    expect(presenceText(["you, in another window"])).toBe("You have it open in another window too.");
    expect(presenceText(["Meera Shah", "you, in another window"])).toBe(
      "Meera Shah is editing this. You have it open in another window too.",
    );
  });
});

describe("times the editor writes", () => {
  it("are India times, written as the server's pages write them", () => {
    for (const iso of [
      "2026-11-26T09:02:00.000Z",
      "2026-09-05T18:29:59.000Z",
      "2026-12-31T18:30:00.000Z",
      "2027-01-01T00:00:00.000Z",
    ]) {
      expect(indiaDateTimeText(new Date(iso)), iso).toBe(formatIndiaDateTime(iso));
    }
    expect(savedAtText(new Date("2026-11-26T09:02:00.000Z"))).toBe("Saved at 14:32");
    expect(savedAtText(new Date("2026-11-26T18:45:00.000Z"))).toBe("Saved at 00:15");
  });
});
