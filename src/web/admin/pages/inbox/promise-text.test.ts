import { describe, expect, it } from "vitest";
import { promiseText } from "./inbox-page.tsx";

// The figure under "Answered within 24 h": what the share is of. An enquiry counts once it is
// answered or due; until then it is "not yet due", never "no enquiries yet" while one is listed.
describe("the reply promise's words", () => {
  it("says no enquiries only when there are none", () => {
    expect(promiseText({ counted: 0, answered: 0, pending: 0, medianReplyMs: null })).toBe("no enquiries yet");
  });

  it("names an enquiry not yet due instead of saying there are none", () => {
    expect(promiseText({ counted: 0, answered: 0, pending: 1, medianReplyMs: null })).toBe("1 not yet due");
  });

  it("gives the share's parts, and those not yet due after them", () => {
    expect(promiseText({ counted: 4, answered: 2, pending: 0, medianReplyMs: null })).toBe("2 of 4");
    expect(promiseText({ counted: 4, answered: 2, pending: 3, medianReplyMs: 1 })).toBe("2 of 4; 3 not yet due");
  });
});
