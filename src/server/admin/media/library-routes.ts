import type { FastifyReply, FastifyRequest } from "fastify";
import { firstProblem, parseForm } from "#shared/admin/forms.ts";
import type { MediaAltAnswer, MediaUploadAnswer, PageMessages } from "#shared/admin/pages.ts";
import { adminHref, admits } from "#shared/admin/routes.ts";
import { isDecorative, mediaAltForm, mediaListForm, pictureChoicesQuery } from "#shared/admin/schemas.ts";
import { MEDIA_LIMITS, mediaReference } from "#shared/media.ts";
import { isUuid } from "#shared/schemas/identifiers.ts";
import { publishedUsesOf } from "../../content/media-usage.ts";
import { thumbnailOf } from "../../media/media-choices.ts";
import {
  deletePicture,
  MEDIA_UPLOADS_WAITING,
  mediaProcessing,
  setAltText,
  type UploadOutcome,
  uploadPicture,
} from "../../media/media-store.ts";
import { cleanFileName, MediaRefusal, tooLargeMessage } from "../../media/pipeline.ts";
import { type Place, ProcessingBusy } from "../../media/processing-queue.ts";
import type { AdminContext, AdminHandlers } from "../context.ts";
import { crossSiteProblem, originOf } from "../../http/same-origin.ts";
import { listMedia, loadMediaItem, pictureChoicesPage } from "./library-queries.ts";

// The media library's screens (docs/decisions/040-the-media-library.md): the grid, an upload by
// a plain multipart form (no JavaScript needed) or by the JSON route the page's script and the
// article editor use (drop, several files, paste), a picture's page with its alt text or
// "Decorative", and Delete, refused while any item names the picture. The door has decided
// origin, session and access before a handler runs; the upload's own limits are set here, since
// a multipart body is read as a stream by the handler, not by the router.

export type MediaRouteName =
  | "media"
  | "mediaUpload"
  | "mediaUploadApi"
  | "mediaItem"
  | "mediaSave"
  | "mediaAltApi"
  | "mediaChoicesApi"
  | "mediaDelete";

const NO_SUCH_PICTURE = "There is no such picture in the library.";
const NOT_MULTIPART =
  "Send the picture as a multipart/form-data upload, in one file field (the library's Upload button does).";
const ONE_FILE = "Send one picture at a time, with no more than a few small fields.";
const INCOMPLETE = "The upload did not arrive whole (the multipart body ended early or is malformed). Try again.";
/** What a multipart body may carry besides its file: boundaries, part headers, a few small fields. */
const MULTIPART_OVERHEAD = 64 * 1024;

/** What an upload's multipart body may hold: one file of 20 MB and a few small fields. */
const UPLOAD_LIMITS = {
  fileSize: MEDIA_LIMITS.bytes,
  files: 1,
  fields: 4,
  fieldSize: 1024,
  parts: 6,
  headerPairs: 50,
};

type Refused = { status: number; title: string; message: string; retryAfter?: number };

const TITLES: Record<number, string> = {
  400: "Bad Request",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  503: "Service Unavailable",
};
const refused = (status: number, message: string, retryAfter?: number): Refused => ({
  status,
  title: TITLES[status] ?? "Bad Request",
  message,
  retryAfter,
});

/** The error of @fastify/multipart, by its code, as a refusal in words. */
function multipartRefusal(error: unknown, fileName: string | undefined): Refused | undefined {
  const code = (error as { code?: unknown }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE") return refused(413, tooLargeMessage(fileName));
  if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT")
    return refused(413, ONE_FILE);
  if (code === "FST_PROTO_VIOLATION" || code === "FST_INVALID_JSON_FIELD_ERROR") return refused(400, INCOMPLETE);
  if (code === "FST_MP_PREMATURE_CLOSE" || code === "FST_INVALID_MULTIPART_CONTENT_TYPE")
    return refused(400, INCOMPLETE);
  if (error instanceof Error && /multipart|boundary|Unexpected end/i.test(error.message))
    return refused(400, INCOMPLETE);
  return undefined;
}

/**
 * Runs an upload received whole, which may wait its turn in line (decision 047) for longer than a
 * connection may sit idle (CONNECTION_TIMEOUT_MS), with that limit lifted from its connection (the
 * line is bounded), then set again for the answer. inject()'s requests have no real socket.
 */
async function withoutIdleLimit<Result>(request: FastifyRequest, work: () => Promise<Result>): Promise<Result> {
  const socket = request.raw.socket;
  if (typeof socket?.setTimeout !== "function") return work();
  const limit = socket.timeout;
  socket.setTimeout(0);
  try {
    return await work();
  } finally {
    if (limit) socket.setTimeout(limit);
  }
}

export function mediaRoutes(context: AdminContext): AdminHandlers<MediaRouteName> {
  const { db } = context;
  const actor = (request: FastifyRequest) => context.actorOf(context.sessionOf(request));
  /**
   * Who may not change this picture's alt text: a member of staff without "Can publish", when
   * published content shows the picture (the alt text is public at once: on the pages, in article
   * bodies, in og:image:alt). The answer's words, or undefined when the change may go ahead.
   */
  async function altChangeRefused(request: FastifyRequest, item: { key: string; sourcePath: string | null }) {
    if (mayDelete(request)) return undefined;
    const uses = await publishedUsesOf(db, item);
    if (!uses.length) return undefined;
    const names = uses.map((use) => `«${use.title}»`).join(", ");
    return `This picture is on the public site (${names}), where its alt text is read at once: changing it needs an admin, or a member of staff an admin has allowed to publish.`;
  }
  const mayDelete = (request: FastifyRequest) => {
    const { staff } = context.sessionOf(request);
    return admits("publisher", { role: staff.role as "admin" | "staff", canPublish: staff.canPublish });
  };

  /** The library's grid, page 1 unless the query says, with messages (an upload's refusal among them). */
  async function renderLibrary(
    request: FastifyRequest,
    reply: FastifyReply,
    options: { needsAltOnly?: boolean; pageNumber?: number } & PageMessages = {},
    status = 200,
  ) {
    const { needsAltOnly = false, pageNumber = 1, ...messages } = options;
    const list = await listMedia(db, { needsAltOnly }, pageNumber);
    return context.render(
      reply,
      {
        page: "media",
        viewer: context.viewerOf(context.sessionOf(request)),
        show: needsAltOnly ? "needs-alt" : "all",
        ...list,
        canDelete: mayDelete(request),
        pageNumber,
        ...messages,
      },
      status,
    );
  }

  /** A picture's page, or a 404 when there is no such picture. */
  async function renderItem(
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    messages: PageMessages = {},
    status = 200,
  ) {
    const id = request.params.id;
    const item = isUuid(id) ? await loadMediaItem(db, id.toLowerCase()) : undefined;
    if (!item) return context.notFound(request, reply, NO_SUCH_PICTURE);
    return context.render(
      reply,
      {
        page: "media-item",
        viewer: context.viewerOf(context.sessionOf(request)),
        item,
        canDelete: mayDelete(request),
        ...messages,
      },
      status,
    );
  }

  /**
   * Receives one upload: its place in line first (so a full line turns it away before its body
   * is read), then its file (at most 20 MB, refused while still arriving past that), then the
   * pipeline and the store. A refusal in words, or what was stored.
   */
  async function receive(request: FastifyRequest): Promise<Refused | { outcome: UploadOutcome; fileName: string }> {
    if (!request.isMultipart()) return refused(415, NOT_MULTIPART);
    const declared = Number(request.headers["content-length"]);
    if (Number.isFinite(declared) && declared > MEDIA_LIMITS.bytes + MULTIPART_OVERHEAD)
      return refused(413, tooLargeMessage(undefined, declared));
    let place: Place;
    try {
      place = mediaProcessing.enter(MEDIA_UPLOADS_WAITING);
    } catch (error) {
      if (error instanceof ProcessingBusy) return refused(503, error.message, 5);
      throw error;
    }
    let fileName: string | undefined;
    try {
      let bytes: Buffer | undefined;
      try {
        // The whole body, part by part: one file (a second is refused by the limits), fields ignored.
        for await (const part of request.parts({ limits: UPLOAD_LIMITS })) {
          if (part.type !== "file") continue;
          fileName = cleanFileName(part.filename);
          bytes = await part.toBuffer();
        }
      } catch (error) {
        const refusal = multipartRefusal(error, fileName);
        if (refusal) return refusal;
        throw error;
      }
      if (!bytes || fileName === undefined) return refused(400, "Choose a picture to upload.");
      const upload = { bytes, fileName, createdBy: actor(request) };
      const outcome = await withoutIdleLimit(request, () => uploadPicture(db, place, upload));
      return { outcome, fileName };
    } catch (error) {
      if (error instanceof MediaRefusal) return refused(error.status, error.message);
      throw error;
    } finally {
      place.leave();
    }
  }

  /** After an upload: audited when it added a picture (the door refreshes the content version: routes.ts). */
  async function uploaded(request: FastifyRequest, outcome: UploadOutcome, fileName: string) {
    if (outcome.existing) return;
    await context.audit(request, {
      actor: actor(request),
      action: "media-uploaded",
      target: { type: "media", id: outcome.id, label: fileName },
      details: { key: outcome.key },
    });
  }

  /** A refused upload answered: 413s close the connection, so the rest of a large body is not read. */
  function prepareRefusal(reply: FastifyReply, refusal: Refused) {
    if (refusal.retryAfter) reply.header("retry-after", String(refusal.retryAfter));
    if (refusal.status === 413) reply.header("connection", "close");
  }

  return {
    async media(request, reply) {
      const parsed = parseForm(mediaListForm, request.query);
      if (!parsed.ok) {
        const problem = firstProblem(parsed.form, "The list's options are not valid.");
        return context.problem(request, reply, 400, "Bad Request", problem);
      }
      const pageNumber = parsed.data.page ? Number(parsed.data.page) : 1;
      return renderLibrary(request, reply, { needsAltOnly: parsed.data.show === "needs-alt", pageNumber });
    },

    async mediaUpload(request, reply) {
      const result = await receive(request);
      if ("status" in result) {
        prepareRefusal(reply, result);
        return renderLibrary(request, reply, { error: result.message }, result.status);
      }
      await uploaded(request, result.outcome, result.fileName);
      return context.seeOther(
        reply,
        adminHref(
          "mediaItem",
          { id: result.outcome.id },
          { notice: result.outcome.existing ? "media-exists" : "media-uploaded" },
        ),
      );
    },

    async mediaUploadApi(request, reply) {
      const result = await receive(request);
      if ("status" in result) {
        prepareRefusal(reply, result);
        return reply.code(result.status).send({ error: result.title, message: result.message });
      }
      await uploaded(request, result.outcome, result.fileName);
      const item = await loadMediaItem(db, result.outcome.id);
      if (!item) return context.notFound(request, reply, NO_SUCH_PICTURE);
      const answer: MediaUploadAnswer = {
        id: item.id,
        key: item.key,
        fileName: item.fileName,
        existing: result.outcome.existing,
        reference: mediaReference(item.key, item.format),
        href: adminHref("mediaItem", { id: item.id }),
        thumbnail: thumbnailOf(item),
        alt: item.alt,
        decorative: item.decorative,
        message: result.outcome.existing
          ? `“${result.fileName}” is in the library already, as “${item.fileName}”: nothing was added.`
          : `“${result.fileName}” is in the library.`,
      };
      return reply.code(result.outcome.existing ? 200 : 201).send(answer);
    },

    mediaItem: (request, reply) => renderItem(request, reply),

    async mediaSave(request, reply) {
      const id = request.params.id;
      const item = isUuid(id) ? await loadMediaItem(db, id.toLowerCase()) : undefined;
      if (!item) return context.notFound(request, reply, NO_SUCH_PICTURE);
      const parsed = parseForm(mediaAltForm, request.body);
      if (!parsed.ok) return renderItem(request, reply, { form: parsed.form }, 422);
      const decorative = isDecorative(parsed.data);
      const unchanged = item.decorative === decorative && (decorative || item.alt === parsed.data.alt);
      const refusal = unchanged ? undefined : await altChangeRefused(request, item);
      if (refusal) return renderItem(request, reply, { error: refusal }, 403);
      const changed = await setAltText(db, item.id, { alt: parsed.data.alt, decorative });
      if (!changed) return context.notFound(request, reply, NO_SUCH_PICTURE);
      await recordAltChange(request, item.id, item.fileName, item.key, changed.before, {
        alt: decorative ? "" : parsed.data.alt,
        decorative,
      });
      return context.seeOther(reply, adminHref("mediaItem", { id: item.id }, { notice: "media-saved" }));
    },

    async mediaAltApi(request, reply) {
      const id = request.params.id;
      const item = isUuid(id) ? await loadMediaItem(db, id.toLowerCase()) : undefined;
      if (!item) return context.notFound(request, reply, NO_SUCH_PICTURE);
      const parsed = parseForm(mediaAltForm, request.body);
      if (!parsed.ok) {
        const message = firstProblem(parsed.form, "The alt text is not valid.");
        return reply.code(422).send({ error: "Unprocessable Entity", message, problems: parsed.form.errors });
      }
      const decorative = isDecorative(parsed.data);
      const next = { alt: decorative ? "" : parsed.data.alt, decorative };
      const unchanged = item.decorative === next.decorative && item.alt === next.alt;
      const refusal = unchanged ? undefined : await altChangeRefused(request, item);
      if (refusal) return reply.code(403).send({ error: "Forbidden", message: refusal });
      const changed = await setAltText(db, item.id, next);
      if (!changed) return context.notFound(request, reply, NO_SUCH_PICTURE);
      await recordAltChange(request, item.id, item.fileName, item.key, changed.before, next);
      const answer: MediaAltAnswer = { id: item.id, reference: mediaReference(item.key, item.format), ...next };
      return reply.send(answer);
    },

    async mediaChoicesApi(request, reply) {
      // A read, but of the library's words: only for the back office's own pages (the door
      // checks where posts come from; a read that says it came from another site is refused too).
      const elsewhere = crossSiteProblem(request.headers, {
        siteOrigin: originOf(context.siteUrl),
        acceptLoopback: false,
      });
      if (elsewhere) return context.problem(request, reply, 403, "Forbidden", elsewhere);
      const parsed = parseForm(pictureChoicesQuery, request.query);
      if (!parsed.ok) {
        const problem = firstProblem(parsed.form, "The list's options are not valid.");
        return context.problem(request, reply, 400, "Bad Request", problem);
      }
      const page = parsed.data.page ? Number(parsed.data.page) : 1;
      return reply.send(await pictureChoicesPage(db, { q: parsed.data.q, page }));
    },

    async mediaDelete(request, reply) {
      const id = request.params.id;
      if (!isUuid(id)) return context.notFound(request, reply, NO_SUCH_PICTURE);
      const outcome = await deletePicture(db, id.toLowerCase());
      if (!outcome) return context.notFound(request, reply, NO_SUCH_PICTURE);
      if ("inUse" in outcome) {
        const count = outcome.inUse.length;
        const names = outcome.inUse.map((use) => `«${use.title}»${use.trashed ? " (in the trash)" : ""}`).join(", ");
        return renderItem(
          request,
          reply,
          {
            error: `This picture is used by ${count} ${count === 1 ? "item" : "items"} (${names}), so it cannot be deleted. Choose another picture in ${count === 1 ? "it" : "them"} first.`,
          },
          409,
        );
      }
      await context.audit(request, {
        actor: actor(request),
        action: "media-deleted",
        target: { type: "media", id: id.toLowerCase(), label: outcome.deleted.fileName },
        details: {
          key: outcome.deleted.key,
          ...(outcome.deleted.sourcePath ? { sourcePath: outcome.deleted.sourcePath } : {}),
        },
      });
      return context.seeOther(reply, adminHref("media", {}, { notice: "media-deleted" }));
    },
  };

  async function recordAltChange(
    request: FastifyRequest,
    id: string,
    fileName: string,
    key: string,
    before: { alt: string; decorative: boolean },
    after: { alt: string; decorative: boolean },
  ) {
    if (before.alt === after.alt && before.decorative === after.decorative) return;
    await context.audit(request, {
      actor: actor(request),
      action: "media-alt-changed",
      target: { type: "media", id, label: fileName },
      details: { key, alt: after.alt, decorative: after.decorative },
    });
  }
}
