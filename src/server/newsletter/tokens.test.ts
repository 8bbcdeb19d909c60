import { describe, expect, it } from "vitest";
import {
  hashToken,
  isConfirmationToken,
  newConfirmationToken,
  subscriberOfUnsubscribeToken,
  unsubscribeMailto,
  unsubscribeToken,
} from "./tokens.ts";

const secret = "a-secret-of-the-site-0123456789";
const id = "0b5f3c1e-8d2a-4c6b-9e7f-1a2b3c4d5e6f";

describe("newsletter tokens", () => {
  it("a confirmation token is random, URL-safe, and only its hash is kept", () => {
    const one = newConfirmationToken();
    const two = newConfirmationToken();
    expect(one.token).not.toBe(two.token);
    expect(isConfirmationToken(one.token)).toBe(true);
    expect(one.hash).toBe(hashToken(one.token));
    expect(one.hash).not.toContain(one.token);
    expect(isConfirmationToken(`${one.token.slice(1)}/`)).toBe(false);
  });

  it("an unsubscribe token names its subscriber and cannot be forged or moved to another", () => {
    const token = unsubscribeToken(secret, id);
    expect(subscriberOfUnsubscribeToken(secret, token)).toBe(id);
    expect(subscriberOfUnsubscribeToken(secret, token.toUpperCase())).toBeUndefined();
    expect(subscriberOfUnsubscribeToken("another-secret-0123456789", token)).toBeUndefined();
    const other = "1b5f3c1e-8d2a-4c6b-9e7f-1a2b3c4d5e6f";
    expect(subscriberOfUnsubscribeToken(secret, `${other}${token.slice(36)}`)).toBeUndefined();
    expect(subscriberOfUnsubscribeToken(secret, `${id}.`)).toBeUndefined();
    expect(subscriberOfUnsubscribeToken(secret, "test")).toBeUndefined();
  });

  it("the mailto names the token in its subject", () => {
    expect(unsubscribeMailto("info@example.com", "t.k")).toBe("mailto:info@example.com?subject=unsubscribe%20t.k");
  });
});
