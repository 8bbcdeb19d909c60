import type { FastifyReply, FastifyRequest } from "fastify";
import { parseForm } from "#shared/admin/forms.ts";
import type { ErasureCounts, PageMessages } from "#shared/admin/pages.ts";
import { erasureForm, erasureLookupForm } from "#shared/admin/schemas.ts";
import type { AdminContext, AdminHandlers } from "../context.ts";
import { writeLedgerFile } from "../../backup/erasure-ledger.ts";
import { eraseAddress, erasurePreview } from "./erasure.ts";

// Erasure at /admin/privacy (admins only): look an address up, see what an erasure would delete,
// then erase it. Both steps are POSTs, so the address is never in a URL, the browser's history or
// the access log. The audit trail records that an erasure happened and its counts, never the
// address. The page also states how long the site keeps what it holds, as configured.

/**
 * `backupDir`: where the erasure ledger's file is written after each erasure, beside the backups,
 * so that a backup restored after losing the database still erases the address again
 * (docs/decisions/051-backups-that-restore.md).
 */
export function privacyRoutes(
  context: AdminContext,
  backupDir: string,
): AdminHandlers<"privacy" | "privacyPreview" | "privacyErase"> {
  const { db } = context;

  const page = (
    request: FastifyRequest,
    reply: FastifyReply,
    extra: PageMessages & { email?: string; preview?: ErasureCounts; erased?: ErasureCounts } = {},
    status = 200,
  ) =>
    context.render(
      reply,
      {
        page: "privacy",
        viewer: context.viewerOf(context.sessionOf(request)),
        retention: context.retention,
        ...extra,
      },
      status,
    );

  return {
    async privacy(request, reply) {
      if ((request.query as Record<string, unknown>).email !== undefined) {
        return page(
          request,
          reply,
          { error: "Look an address up with the form below: an address is never put in the page's address." },
          400,
        );
      }
      return page(request, reply);
    },

    async privacyPreview(request, reply) {
      const parsed = parseForm(erasureLookupForm, request.body);
      if (!parsed.ok) return page(request, reply, { form: parsed.form }, 400);
      const email = parsed.data.email.toLowerCase();
      return page(request, reply, { email, preview: await erasurePreview(db, email) });
    },

    async privacyErase(request, reply) {
      const parsed = parseForm(erasureForm, request.body);
      if (!parsed.ok) return page(request, reply, { form: parsed.form }, 400);
      const email = parsed.data.email.toLowerCase();
      if (parsed.data.confirm?.toLowerCase() !== email) {
        return page(
          request,
          reply,
          { email, preview: await erasurePreview(db, email), error: "Preview the address first, then press Erase." },
          400,
        );
      }
      const erased = await eraseAddress(db, email);
      // The erasure is committed (with its ledger row) whatever happens to the file.
      await writeLedgerFile(db, backupDir).catch((error: unknown) =>
        request.log.error({ err: error }, "writing the erasure ledger beside the backups failed"),
      );
      await context.audit(request, {
        actor: context.actorOf(context.sessionOf(request)),
        action: "erasure",
        target: { type: "person" },
        details: erased,
      });
      return page(request, reply, { erased });
    },
  };
}
