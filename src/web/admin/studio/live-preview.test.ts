import { describe, expect, it } from "vitest";
import { LIVE_PREVIEWS_PER_MINUTE } from "#shared/admin/routes.ts";
import { PREVIEW_PAUSE_MS, previewWaitText } from "./live-preview.ts";

// The live preview against the session's limit of previews (decision 048).

describe("the live preview's limit", () => {
  it("is more than the editor can ask for: one preview per pause of 300 ms at most", () => {
    expect(LIVE_PREVIEWS_PER_MINUTE).toBeGreaterThan(60_000 / PREVIEW_PAUSE_MS);
  });

  it("says how long the preview waits when refused", () => {
    expect(previewWaitText(12)).toBe(
      "The preview waits: too many previews this minute. It updates again in 12 seconds.",
    );
    expect(previewWaitText(1)).toContain("in 1 second.");
  });
});
