import { describe, expect, it } from "vitest";
import { clientSubject, plainAddress, trustedProxyMatcher } from "./client-address.ts";

describe("clientSubject", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["64:ff9b::192.0.2.33", "64:ff9b:0:0::/64"],
    ["not-an-address", "not-an-address"],
  ])("counts %s as %s", (address, subject) => {
    expect(clientSubject(address)).toBe(subject);
  });

  it("gives every address of one /64 the same subject, and another /64 another", () => {
    expect(
      new Set(["2001:db8:aa:1::1", "2001:db8:aa:1:1234::9", "2001:DB8:AA:1:ffff:ffff:ffff:ffff"].map(clientSubject))
        .size,
    ).toBe(1);
    expect(clientSubject("2001:db8:aa:2::1")).not.toBe(clientSubject("2001:db8:aa:1::1"));
  });

  it("reads an IPv4-mapped address as IPv4", () => {
    expect(plainAddress("::FFFF:10.0.0.1")).toBe("10.0.0.1");
  });
});

describe("trustedProxyMatcher", () => {
  it("trusts nobody with false, every peer with a hop count, and the listed addresses and ranges with a list", () => {
    expect(trustedProxyMatcher(false)("127.0.0.1")).toBe(false);
    expect(trustedProxyMatcher(1)("198.51.100.1")).toBe(true);
    const listed = trustedProxyMatcher(["127.0.0.1", "10.0.0.0/8", "uniquelocal", "2001:db8::/32"]);
    expect(
      ["127.0.0.1", "::ffff:127.0.0.1", "10.2.3.4", "192.168.1.1", "fd00::5", "2001:db8:1::1"].map(listed),
    ).toEqual([true, true, true, true, true, true]);
    expect(["127.0.0.2", "11.0.0.1", "2001:db9::1", "garbage"].map(listed)).toEqual([false, false, false, false]);
  });
});
