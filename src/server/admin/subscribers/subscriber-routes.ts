import type { FastifyReply, FastifyRequest } from "fastify";
import { desc, eq, ilike } from "drizzle-orm";
import type { PageMessages } from "#shared/admin/pages.ts";
import { parseForm } from "#shared/admin/forms.ts";
import { pageNumberOf } from "#shared/admin/pagination.ts";
import { subscriberSearchForm } from "#shared/admin/schemas.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { indiaDay } from "#shared/india-time.ts";
import type { Database } from "../../db/client.ts";
import { newsletterSubscribers } from "../../db/schema.ts";
import { toCsv } from "../../export/export-format.ts";
import { isUuid } from "#shared/schemas/identifiers.ts";
import type { AdminContext, AdminHandlers } from "../context.ts";

// Newsletter subscribers at /admin/subscribers: searched by address, removed one at a time, and
// exported as CSV (exactly what the search shows). Removal and export are audited.

export const SUBSCRIBERS_PAGE_SIZE = 100;

/** The search a query string asks for, or an error message. */
function searchOf(query: Record<string, unknown>): { q: string } | { error: string } {
  const parsed = parseForm(subscriberSearchForm, query);
  return parsed.ok ? parsed.data : { error: parsed.form.errors.q ?? "The search is not one." };
}

async function listSubscribers(db: Database, q: string, page: number, limit: number) {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const rows = await db
    .select()
    .from(newsletterSubscribers)
    .where(q ? ilike(newsletterSubscribers.email, pattern) : undefined)
    .orderBy(desc(newsletterSubscribers.createdAt), desc(newsletterSubscribers.id))
    .limit(limit + 1)
    .offset((page - 1) * limit);
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

export function subscriberRoutes(
  context: AdminContext,
): AdminHandlers<"subscribers" | "subscribersExport" | "subscriberRemove"> {
  const { db } = context;

  async function page(request: FastifyRequest, reply: FastifyReply, extra: PageMessages = {}, status = 200) {
    const query = request.query as Record<string, unknown>;
    const search = searchOf(query);
    if ("error" in search) return context.problem(request, reply, 400, "Bad Request", search.error);
    const pageNumber = pageNumberOf(query);
    const { rows, more } = await listSubscribers(db, search.q, pageNumber, SUBSCRIBERS_PAGE_SIZE);
    return context.render(
      reply,
      {
        page: "subscribers",
        viewer: context.viewerOf(context.sessionOf(request)),
        subscribers: rows.map((row) => ({ id: row.id, email: row.email, createdAt: row.createdAt.toISOString() })),
        q: search.q,
        pageNumber,
        more,
        ...extra,
      },
      status,
    );
  }

  return {
    subscribers: (request, reply) => page(request, reply),

    async subscribersExport(request, reply) {
      const search = searchOf(request.query as Record<string, unknown>);
      if ("error" in search) return context.problem(request, reply, 400, "Bad Request", search.error);
      const { rows } = await listSubscribers(db, search.q, 1, 1_000_000);
      await context.audit(request, {
        actor: context.actorOf(context.sessionOf(request)),
        action: "subscribers-exported",
        target: { type: "export" },
        details: { rows: rows.length, searched: search.q !== "" },
      });
      const csv = toCsv(
        ["Email", "Subscribed"],
        rows.map((row) => [row.email, row.createdAt.toISOString()]),
      );
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="subscribers-${indiaDay(context.now())}.csv"`)
        .send(`\uFEFF${csv}`);
    },

    async subscriberRemove(request, reply) {
      const { id } = request.params;
      const [removed] = isUuid(id)
        ? await db.delete(newsletterSubscribers).where(eq(newsletterSubscribers.id, id.toLowerCase())).returning()
        : [];
      if (!removed)
        return context.problem(request, reply, 404, "Not Found", "There is no such subscriber (already removed?).");
      await context.audit(request, {
        actor: context.actorOf(context.sessionOf(request)),
        action: "subscriber-removed",
        target: { type: "subscriber", id: removed.id, label: removed.email },
      });
      return context.seeOther(reply, adminHref("subscribers", {}, { notice: "subscriber-removed" }));
    },
  };
}
