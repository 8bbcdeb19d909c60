import { describe, expect, it } from "vitest";
import type { AutosaveAnswer } from "#shared/admin/pages.ts";
import { adminHref, AUTOSAVES_PER_MINUTE } from "#shared/admin/routes.ts";
import { autosaveOutcome, byteLength, laterMessage, SIGNED_OUT_MESSAGE } from "./autosave-answer.ts";
import { AUTOSAVE_QUIET_MS } from "./autosave-schedule.ts";

// What each answer of the autosave route means for the editor (decision 038, section 4).

const limit = 1_048_576;
const revision = {
  id: 114,
  number: 14,
  by: "Nisha Rao",
  at: "2026-11-26T09:02:00.000Z",
  source: "autosave",
  restoredFrom: null,
  published: false,
};

describe("an autosave's answer", () => {
  it("saved: the new revision, which the next save is based on", () => {
    const answer: AutosaveAnswer = { saved: true, revision, unchanged: false };
    expect(autosaveOutcome(200, answer, limit)).toEqual({ kind: "saved", revision, unchanged: false });
  });

  it("409: the conflict's message and where to compare, from the server", () => {
    const answer: AutosaveAnswer = {
      error: "Conflict",
      message: "Changed by Meera Shah at 14:32 (revision 13), so your change was not saved.",
      current: { revisionId: 113, number: 13, by: "Meera Shah", at: "2026-11-26T09:02:00.000Z" },
      compareHref: adminHref("articleCompare", { id: "a" }, { from: 112, to: 113 }),
      yours: false,
    };
    expect(autosaveOutcome(409, answer, limit)).toEqual({
      kind: "conflict",
      message: answer.message,
      compareHref: answer.compareHref,
      yours: false,
    });
    expect(autosaveOutcome(409, { ...answer, yours: true }, limit)).toMatchObject({ yours: true });
    expect(autosaveOutcome(409, undefined, limit)).toMatchObject({
      kind: "conflict",
      compareHref: undefined,
      yours: false,
    });
  });

  it("401: the session has ended, in the words the issue gives", () => {
    expect(
      autosaveOutcome(401, { error: "Unauthorized", message: "Sign in to the back office first." }, limit),
    ).toEqual({ kind: "signed-out", message: SIGNED_OUT_MESSAGE });
    expect(SIGNED_OUT_MESSAGE).toBe("Your session has ended: sign in in a new tab, then save.");
  });

  it("413: too large, naming the limit", () => {
    expect(autosaveOutcome(413, {}, limit)).toMatchObject({
      kind: "too-large",
      message: expect.stringContaining("1,024 KB"),
    });
  });

  it("429: wait as long as Retry-After says (1 s to 5 min, 10 s when it says nothing usable), then save again", () => {
    const body = { error: "Too Many Requests", message: "Too many autosaves from this session." };
    expect(autosaveOutcome(429, body, limit, "17")).toEqual({
      kind: "later",
      message: laterMessage(17),
      retryAfterSeconds: 17,
    });
    expect(laterMessage(17)).toBe(
      "Autosave is waiting: it saves again in 17 seconds. Your text stays here and in this browser.",
    );
    expect(laterMessage(1)).toContain("in 1 second.");
    expect(autosaveOutcome(429, body, limit, "0.2")).toMatchObject({ retryAfterSeconds: 10 });
    expect(autosaveOutcome(429, undefined, limit, null)).toMatchObject({ kind: "later", retryAfterSeconds: 10 });
    expect(autosaveOutcome(429, body, limit, "Wed, 21 Oct 2026 07:28:00 GMT")).toMatchObject({ retryAfterSeconds: 10 });
    expect(autosaveOutcome(429, body, limit, "86400")).toMatchObject({ retryAfterSeconds: 300 });
  });

  it("the session's limit never stops the schedule: twice the most autosaves it sends a minute", () => {
    expect(AUTOSAVES_PER_MINUTE).toBeGreaterThanOrEqual((2 * 60_000) / AUTOSAVE_QUIET_MS);
  });

  it("422 (and 400) with problems: each problem at its field", () => {
    const body = {
      error: "Unprocessable Entity",
      message: "Check the fields.",
      problems: { slug: "Slug must be…", x: 1 },
    };
    expect(autosaveOutcome(422, body, limit)).toEqual({
      kind: "invalid",
      message: "Check the fields.",
      fields: { slug: "Slug must be…" },
    });
    expect(autosaveOutcome(400, body, limit).kind).toBe("invalid");
  });

  it("anything else, or no answer at all: failed, with the server's words when it gave some", () => {
    expect(autosaveOutcome(500, { message: "Database down" }, limit)).toEqual({
      kind: "failed",
      message: "Database down",
    });
    expect(autosaveOutcome(0, undefined, limit)).toEqual({ kind: "failed", message: "The site could not be reached." });
    expect(autosaveOutcome(200, { saved: false }, limit)).toMatchObject({ kind: "failed" });
    expect(autosaveOutcome(403, "html", limit)).toEqual({ kind: "failed", message: "The site answered 403." });
  });

  it("measures a body in UTF-8 bytes, as the route's limit does", () => {
    expect(byteLength("abc")).toBe(3);
    expect(byteLength("ગુજરાતી")).toBe(21);
  });
});
