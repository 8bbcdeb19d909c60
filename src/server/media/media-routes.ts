import fastifyMultipart from "@fastify/multipart";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ApiErrorBody } from "#shared/api-types.ts";
import { MEDIA_KEY_PATTERN } from "#shared/media.ts";
import type { Database } from "../db/client.ts";
import { ByteCache, type CachedFile } from "./byte-cache.ts";
import { findMediaByKey, makeMissingVariant, readMediaFile, servedNames } from "./media-store.ts";
import { ProcessingBusy } from "./processing-queue.ts";

// The library's public side (docs/decisions/040-the-media-library.md): GET and HEAD
// /media/<key>/<name>, the kept original ("original.jpg") or one width of the ladder in one format
// ("640.avif"), from media_files; a variant not stored yet is made from the original (in line,
// bounded), stored and served. An address names fixed bytes (the key is their original's hash), so
// every answer may be kept for a year. Not a page: no page cache, no analytics, no compression.
// Also here: the multipart parser of the back office, which only its upload routes accept.

/** Immutable: the bytes at an address never change. */
export const MEDIA_CACHE_CONTROL = "public, max-age=31536000, immutable";
/** The bytes this instance keeps of the pictures it served last. */
export const MEDIA_BYTE_CACHE = 32 * 1024 * 1024;

const NAME_PATTERN = /^(?:original\.(?:jpg|png|webp|avif)|[1-9]\d{0,3}\.(?:avif|webp|jpg))$/;
const ADDRESS_RULE =
  "A picture's address is /media/<its key: 16 hexadecimal digits>/<original.jpg, .png, .webp or .avif, or a width and format such as 640.avif>.";

/** The back office's routes that take a multipart upload (src/shared/admin/routes.ts); every other route refuses one. */
export const MULTIPART_ROUTES = new Set<string>(["mediaUpload", "mediaUploadApi"]);

export type MediaRouteDependencies = {
  db: Database;
  /** The content version: this instance's kept bytes are dropped when it moves (a deletion moves it). */
  contentVersion: () => string;
  /** The kept bytes (tests pass a small one to look into it). */
  cache?: ByteCache;
};

function problem(reply: FastifyReply, status: number, message: string) {
  const body: ApiErrorBody = {
    error: status === 400 ? "Bad Request" : status === 404 ? "Not Found" : "Service Unavailable",
    message,
  };
  return reply.code(status).header("cache-control", "no-store").send(body);
}

/**
 * Multipart bodies in the back office (called by the door inside its own context, so no public
 * route pays for the parser's hooks): read as a stream by the upload handlers themselves, which
 * set the limits (one file of 20 MB, a few small fields); every other back-office route answers
 * one 415. Public routes take no multipart body at all (Fastify's own 415).
 */
export async function registerMultipartUploads(admin: FastifyInstance): Promise<void> {
  await admin.register(fastifyMultipart, {
    limits: { files: 1, fields: 4, fieldSize: 1024, parts: 6, headerPairs: 50 },
  });
  admin.addHook("preValidation", async (request, reply) => {
    if (!request.isMultipart() || MULTIPART_ROUTES.has(String(request.routeOptions.config?.adminRoute ?? ""))) return;
    const body: ApiErrorBody = {
      error: "Unsupported Media Type",
      message:
        "This content type is not accepted here; send JSON (application/json) or a form (application/x-www-form-urlencoded).",
    };
    return reply.code(415).header("connection", "close").send(body);
  });
}

/**
 * The site's pictures are public and meant to be shown elsewhere: in a subscriber's mail client (a
 * browser engine that loads them from another origin) and in a page that links to ours. Every other
 * answer keeps the security headers' `same-origin` (plugins/security-headers.ts).
 */
export const PUBLIC_PICTURE_CORP = "cross-origin";

export async function registerMedia(app: FastifyInstance, deps: MediaRouteDependencies): Promise<void> {
  const { db } = deps;
  const cache = deps.cache ?? new ByteCache(MEDIA_BYTE_CACHE);
  let cachedVersion = deps.contentVersion();

  const send = (reply: FastifyReply, key: string, name: string, file: CachedFile) =>
    reply
      .code(200)
      .header("cross-origin-resource-policy", PUBLIC_PICTURE_CORP)
      .header("content-type", file.contentType)
      .header("content-length", String(file.bytes.length))
      .header("cache-control", MEDIA_CACHE_CONTROL)
      .header("etag", `"${key}-${name}"`)
      .send(file.bytes);

  app.get<{ Params: { key: string; name: string } }>(
    "/media/:key/:name",
    { compress: false },
    async (request, reply) => {
      const { key, name } = request.params;
      if (!MEDIA_KEY_PATTERN.test(key) || !NAME_PATTERN.test(name)) return problem(reply, 400, ADDRESS_RULE);
      const address = `${key}/${name}`;
      if (request.headers["if-none-match"] === `"${key}-${name}"`) {
        // The tag names the bytes: a browser that has them has the right ones.
        return reply
          .code(304)
          .header("cross-origin-resource-policy", PUBLIC_PICTURE_CORP)
          .header("cache-control", MEDIA_CACHE_CONTROL)
          .header("etag", `"${key}-${name}"`)
          .send();
      }
      const version = deps.contentVersion();
      if (version !== cachedVersion) {
        cache.clear();
        cachedVersion = version;
      }
      const kept = cache.get(address);
      if (kept) return send(reply, key, name, kept);

      let file: CachedFile | undefined;
      try {
        const row = await findMediaByKey(db, key);
        if (!row || !servedNames(row).has(name))
          return problem(reply, 404, `There is no picture at /media/${key}/${name}.`);
        file = (await readMediaFile(db, row.id, name)) ?? (await makeMissingVariant(db, row, name));
      } catch (error) {
        // A line of pictures being made that is full, or a database that cannot be read now (an
        // outage, a restart): the picture is there to be had again in a moment, so 503 and when
        // to ask again, never a 500. Logged, since a database that fails is worth knowing about.
        if (!(error instanceof ProcessingBusy)) request.log.error({ err: error }, "a picture could not be read");
        reply.header("retry-after", error instanceof ProcessingBusy ? "2" : "5");
        return problem(
          reply,
          503,
          error instanceof ProcessingBusy
            ? error.message
            : "The picture cannot be read right now. Try again in a moment.",
        );
      }
      if (!file) return problem(reply, 404, `There is no picture at /media/${key}/${name}.`);
      cache.set(address, { contentType: file.contentType, bytes: file.bytes });
      return send(reply, key, name, file);
    },
  );
}
