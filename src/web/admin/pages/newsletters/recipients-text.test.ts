import { describe, expect, it } from "vitest";
import { recipientsText } from "./newsletter-send-page.tsx";

// The send question's line about who gets a copy reads right for one subscriber ("Each of the 1
// subscriber" was the slip) as for many, with Indian digit grouping.
describe("who gets the newsletter, in words", () => {
  it("speaks of the one subscriber without 'each of the 1'", () => {
    expect(recipientsText(1)).toBe("The one subscriber confirmed now gets a copy.");
  });

  it("counts many subscribers with Indian digit grouping", () => {
    expect(recipientsText(3)).toBe("Each of the 3 subscribers confirmed now gets one copy.");
    expect(recipientsText(123456)).toBe("Each of the 1,23,456 subscribers confirmed now gets one copy.");
  });
});
