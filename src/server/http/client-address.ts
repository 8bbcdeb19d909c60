import { BlockList, isIP } from "node:net";
import type { FastifyInstance } from "fastify";

// Who a client is, for the rate limit and the connection cap: an IPv4 address, or the /64 an
// IPv6 address belongs to (one subscriber line gets a whole /64, so counting single IPv6
// addresses would give a client 2^64 limits).

/** The address without an IPv6 zone (fe80::1%eth0) and with an IPv4-mapped IPv6 address (::ffff:1.2.3.4) as IPv4. */
export function plainAddress(address: string): string {
  const withoutZone = address.includes("%") ? address.slice(0, address.indexOf("%")) : address;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(withoutZone);
  return mapped?.[1] ?? withoutZone;
}

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.toLowerCase();
  // An IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is two groups written as four bytes.
  const tail = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", rest] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = rest ? rest.split(":") : [];
  const missing = 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(rest === undefined ? 0 : missing).fill("0"), ...right];
  return groups.length === 8 ? groups.map((group) => parseInt(group, 16)) : undefined;
}

/**
 * What the rate limit and the connection cap count: an IPv4 address as it is, an IPv6 address by
 * its /64 (`2001:db8:1:2::/64`). Anything else (a test's made-up address) is taken as it is.
 */
export function clientSubject(address: string): string {
  const plain = plainAddress(address);
  const groups = ipv6Groups(plain);
  if (!groups) return plain;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** Names proxy-addr (and so TRUST_PROXY) knows for ranges of addresses. */
const namedRanges: Record<string, [string, number, "ipv4" | "ipv6"][]> = {
  loopback: [
    ["127.0.0.0", 8, "ipv4"],
    ["::1", 128, "ipv6"],
  ],
  linklocal: [
    ["169.254.0.0", 16, "ipv4"],
    ["fe80::", 10, "ipv6"],
  ],
  uniquelocal: [
    ["10.0.0.0", 8, "ipv4"],
    ["172.16.0.0", 12, "ipv4"],
    ["192.168.0.0", 16, "ipv4"],
    ["fc00::", 7, "ipv6"],
  ],
};

/**
 * Whether a direct peer is one of the trusted proxies of TRUST_PROXY: with a hop count (or `true`)
 * every peer is taken for one; with a list, the peers at those addresses and ranges; with `false`, none.
 */
export function trustedProxyMatcher(trustProxy: false | number | string[]): (address: string) => boolean {
  if (trustProxy === false) return () => false;
  if (typeof trustProxy === "number") return () => true;
  const list = new BlockList();
  for (const entry of trustProxy) {
    const ranges = namedRanges[entry];
    if (ranges) {
      for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
      continue;
    }
    const [network = "", prefix] = entry.split("/");
    const family = isIP(network) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(network, family);
    else list.addSubnet(network, Number(prefix), family);
  }
  return (address) => {
    const plain = plainAddress(address);
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? "ipv6" : "ipv4");
  };
}

/**
 * Drops the X-Forwarded-For entries that are not IP addresses, before anything reads the client
 * address from it: Fastify would otherwise take such an entry ("not-an-ip") for the client, and
 * a client free to write anything there could give itself a new rate limit with every post.
 * With the bad entries gone, the address comes from the valid ones or, when none is left, from
 * the connection itself.
 */
export function registerForwardedForFilter(app: FastifyInstance): void {
  app.addHook("onRequest", (request, _reply, done) => {
    // The raw request's headers: the ones Fastify's client address (proxy-addr) reads.
    const headers = request.raw.headers;
    const header = headers["x-forwarded-for"];
    if (header !== undefined) {
      const entries = (Array.isArray(header) ? header.join(",") : header).split(",").map((entry) => entry.trim());
      const valid = entries.filter((entry) => isIP(plainAddress(entry)) !== 0);
      if (valid.length !== entries.length) {
        if (valid.length) headers["x-forwarded-for"] = valid.join(", ");
        else delete headers["x-forwarded-for"];
      }
    }
    done();
  });
}
