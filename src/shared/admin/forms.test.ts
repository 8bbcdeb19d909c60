import { describe, expect, it } from "vitest";
import { firstProblem, formValues } from "./forms.ts";

// What a refused form shows again: its string fields, without control characters, each cut at
// 100,000 characters. Made in one pass over each value: character by character, the values of a
// refused 1 MB studio form took 0.2 s of the event loop (the event-loop kit, issue 31).

describe("formValues", () => {
  it("keeps each string field, tab, line breaks and every other character, and leaves out the control characters", () => {
    const controls = "\u0000\u0001\u0008\u000b\u000c\u000e\u001f\u007f\u0080\u009f";
    expect(
      formValues({
        body: `a${controls}\tb\r\nc\u2028é𝄞e\u0301`,
        many: ["one", "two"],
        count: 3,
      }),
    ).toEqual({ body: "a\tb\r\nc\u2028é𝄞e\u0301" });
  });

  it("cuts a value at 100,000 characters, then leaves out its control characters", () => {
    const values = formValues({ long: `${"\u0000a".repeat(60_000)}` });
    expect(values.long).toBe("a".repeat(50_000));
    expect(formValues({ long: "x".repeat(150_000) }).long).toHaveLength(100_000);
  });

  it("has nothing for a body that is not an object", () => {
    expect(formValues(undefined)).toEqual({});
    expect(formValues("a=b")).toEqual({});
  });
});

describe("firstProblem", () => {
  it("is the first field's problem, else the fallback", () => {
    expect(firstProblem({ values: {}, errors: { page: "", q: "Write fewer words." } }, "The list is not valid.")).toBe(
      "Write fewer words.",
    );
    expect(firstProblem({ values: {}, errors: {} }, "The list is not valid.")).toBe("The list is not valid.");
  });
});
