import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";

// Rendered pages kept in memory, so a repeated page costs no React render and no compression:
// each entry holds the HTML already compressed both ways and its ETag. Entries belong to one
// data version; a content change (any instance's, seen through the database) or the moment a
// scheduled article comes due starts a new version. Only pages of the site enter it, under their
// canonical path (pages/page-routes.ts), and it is bounded by entries and by bytes, so no run of
// requests can make it grow past what the site's own pages need.

export type CachedPage = {
  status: number;
  html: string;
  /** The HTML as bytes, sent as they are: no encoding on each request. */
  raw: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
};

/** What an entry costs in memory: its string (two bytes a character at most) and its three buffers. */
const entryBytes = (entry: CachedPage) =>
  entry.html.length * 2 + entry.raw.length + entry.gzip.length + entry.brotli.length;

/** An answer made ready to keep: its bytes, compressed both ways, and its ETag. */
export function cachedEntry(status: number, html: string): CachedPage {
  const body = Buffer.from(html);
  return {
    status,
    html,
    raw: body,
    gzip: gzipSync(body, { level: 9 }),
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    etag: `W/"${createHash("sha1").update(body).digest("base64url")}"`,
  };
}

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private version = "";
  private bytes = 0;

  constructor(
    private readonly maxEntries = 500,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  /** Drops every entry when the version differs from the one the entries were made under. */
  useVersion(version: string): void {
    if (version !== this.version) {
      this.version = version;
      this.entries.clear();
      this.bytes = 0;
    }
  }

  get(key: string): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      // Most recently used last: the oldest is the first to go when the cache is full.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, status: number, html: string): CachedPage {
    const entry = cachedEntry(status, html);
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= entryBytes(previous);
    }
    // An entry larger than the whole cache is answered but not kept.
    if (entryBytes(entry) > this.maxBytes) return entry;
    this.entries.set(key, entry);
    this.bytes += entryBytes(entry);
    for (const [oldest, kept] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entryBytes(kept);
    }
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The memory the kept entries take, as entryBytes counts it. */
  get sizeInBytes(): number {
    return this.bytes;
  }
}

/** Picks the encoding a client accepts: brotli, then gzip, else none. */
export function preferredEncoding(acceptEncoding: string | undefined): "br" | "gzip" | undefined {
  const accepted = (acceptEncoding ?? "").toLowerCase();
  if (/\bbr\b/.test(accepted)) return "br";
  if (/\bgzip\b/.test(accepted)) return "gzip";
  return undefined;
}

/**
 * Sends a cached entry: the bytes already compressed in the encoding the client prefers. A page
 * (status 200) carries its ETag, and a client that holds that version gets 304; a 404 carries
 * none, since conditional requests apply to successful answers only (RFC 9110, section 13.2.1).
 */
export function sendCachedPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: CachedPage,
  cacheControl = "no-cache",
): FastifyReply {
  reply.header("cache-control", cacheControl);
  if (page.status === 200) {
    reply.header("etag", page.etag);
    if (request.headers["if-none-match"] === page.etag) return reply.code(304).send();
  }
  const encoding = preferredEncoding(request.headers["accept-encoding"]);
  if (!encoding) return reply.code(page.status).send(page.raw);
  return reply
    .code(page.status)
    .header("content-encoding", encoding)
    .send(encoding === "br" ? page.brotli : page.gzip);
}
