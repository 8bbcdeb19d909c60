import { describe, expect, it } from "vitest";
import { canonicalMailbox } from "./mailbox.ts";

describe("the mailbox an address reaches", () => {
  it("is the address in lower case without its +tag", () => {
    expect(canonicalMailbox("Victim+1@Example.com")).toBe("victim@example.com");
    expect(canonicalMailbox("victim+news+2@example.com")).toBe("victim@example.com");
    expect(canonicalMailbox("victim@example.com")).toBe("victim@example.com");
    expect(canonicalMailbox("+only-a-tag@example.com")).toBe("+only-a-tag@example.com");
  });

  it("drops the dots only where the provider ignores them, and takes googlemail.com as gmail.com", () => {
    expect(canonicalMailbox("V.I.C.Tim@gmail.com")).toBe("victim@gmail.com");
    expect(canonicalMailbox("vic.tim+x@googlemail.com")).toBe("victim@gmail.com");
    expect(canonicalMailbox("vic.tim@example.com")).toBe("vic.tim@example.com");
    expect(canonicalMailbox("vic.tim@mail.gmail.com")).toBe("vic.tim@mail.gmail.com");
  });
});
