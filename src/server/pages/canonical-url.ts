import { matchRoute } from "#shared/routes.ts";

// Every page has one address. A request for it in another spelling (a trailing slash, doubled
// slashes, dot segments, percent-encoded letters, capitals, or the absolute form of the request
// line) is sent there with a 301; anything that is not a page in any spelling is left to routing,
// which answers 404. docs/decisions/015-one-route-table.md has the rules and why.

/** Whether a decoded segment holds a control character (below U+0020, or DEL). */
const hasControlCharacter = (segment: string) => {
  for (let index = 0; index < segment.length; index += 1) {
    const code = segment.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
};

/**
 * Whether a request target may be a page in another spelling. Most requests are already
 * canonical: this cheap test lets them pass without the work below.
 */
export function mayNeedCanonicalising(target: string): boolean {
  if (target.charCodeAt(0) !== 47 /* "/" */) return true;
  const queryAt = target.indexOf("?");
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  return (
    path.includes("//") ||
    path.includes("/.") ||
    path.includes("%") ||
    (path.length > 1 && path.endsWith("/")) ||
    path !== path.toLowerCase()
  );
}

/**
 * The canonical address (path and the query string as it was) of the page a request target
 * names, or undefined when it names no page. An already canonical target comes back unchanged.
 */
export function canonicalPageTarget(target: string): string | undefined {
  let pathAndQuery = target;
  if (!target.startsWith("/")) {
    // The absolute form, "GET http://other.example/about HTTP/1.1": only the path counts.
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return undefined;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    pathAndQuery = `${url.pathname}${url.search}`;
  }
  const queryAt = pathAndQuery.indexOf("?");
  const rawPath = queryAt === -1 ? pathAndQuery : pathAndQuery.slice(0, queryAt);
  const query = queryAt === -1 ? "" : pathAndQuery.slice(queryAt);

  const segments: string[] = [];
  for (const raw of rawPath.split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    // An encoded slash or a control character is never part of a page's address.
    if (segment.includes("/") || segment.includes("\\") || hasControlCharacter(segment)) return undefined;
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  const path = `/${segments.join("/")}`;
  if (matchRoute(path)) return `${path}${query}`;
  const lower = path.toLowerCase();
  if (matchRoute(lower)) return `${lower}${query}`;
  return undefined;
}
