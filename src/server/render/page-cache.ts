import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";

// Rendered pages kept in memory, so a repeated page costs no React render and no compression:
// each entry holds the HTML already compressed both ways and its ETag. Entries belong to one
// data version; a content change (any instance's, seen through the database) or the moment a
// scheduled article comes due starts a new version.

export type CachedPage = {
  status: number;
  html: string;
  /** The HTML as bytes, sent as they are: no encoding on each request. */
  raw: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
};

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private version = "";

  constructor(private readonly maxEntries = 1000) {}

  /** Drops every entry when the version differs from the one the entries were made under. */
  useVersion(version: string): void {
    if (version !== this.version) {
      this.version = version;
      this.entries.clear();
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
    const body = Buffer.from(html);
    const entry: CachedPage = {
      status,
      html,
      raw: body,
      gzip: gzipSync(body, { level: 9 }),
      brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
      etag: `W/"${createHash("sha1").update(body).digest("base64url")}"`,
    };
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return entry;
  }

  get size(): number {
    return this.entries.size;
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
 * Sends a cached entry with its ETag: 304 when the client holds that version, otherwise the bytes
 * already compressed in the encoding the client prefers.
 */
export function sendCachedPage(request: FastifyRequest, reply: FastifyReply, page: CachedPage, cacheControl = "no-cache"): FastifyReply {
  reply.header("cache-control", cacheControl).header("etag", page.etag);
  if (request.headers["if-none-match"] === page.etag) return reply.code(304).send();
  const encoding = preferredEncoding(request.headers["accept-encoding"]);
  if (!encoding) return reply.code(page.status).send(page.raw);
  return reply
    .code(page.status)
    .header("content-encoding", encoding)
    .send(encoding === "br" ? page.brotli : page.gzip);
}
