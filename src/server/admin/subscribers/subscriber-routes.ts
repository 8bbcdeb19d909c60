import type { FastifyReply, FastifyRequest } from "fastify";
import { eq } from "drizzle-orm";
import type { PageMessages } from "#shared/admin/pages.ts";
import { parseForm } from "#shared/admin/forms.ts";
import { pageNumberOf } from "#shared/admin/pagination.ts";
import { subscriberSearchForm } from "#shared/admin/schemas.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { SUBSCRIBER_STATE_LABELS } from "#shared/admin/subscriber-states.ts";
import { indiaDay } from "#shared/india-time.ts";
import { newsletterSubscribers } from "../../db/schema.ts";
import { toCsv } from "../../export/export-format.ts";
import { isUuid } from "#shared/schemas/identifiers.ts";
import type { AdminContext, AdminHandlers } from "../context.ts";
import {
  liftBounce,
  listSubscribers,
  subscriberCounts,
  type SubscriberFilter,
  subscriberView,
} from "./subscriber-queries.ts";

// Newsletter subscribers at /admin/subscribers: each address with its state (pending, confirmed,
// unsubscribed, bouncing) and when it changed, the proof of consent of a confirmed one and the
// reason of a bouncing one; searched by address and filtered by state (both in the URL), removed
// one at a time, exported as CSV (exactly what the page's filter shows). An admin may lift a
// bounce. Removal, lifting and export are audited.

export const SUBSCRIBERS_PAGE_SIZE = 100;

/** The search and state filter a query string asks for, or an error message naming what is wrong. */
function filterOf(query: Record<string, unknown>): SubscriberFilter | { error: string } {
  const parsed = parseForm(subscriberSearchForm, query);
  if (parsed.ok) return parsed.data as SubscriberFilter;
  return { error: parsed.form.errors.q ?? parsed.form.errors.state ?? "The search is not one." };
}

export function subscriberRoutes(
  context: AdminContext,
): AdminHandlers<"subscribers" | "subscribersExport" | "subscriberRemove" | "subscriberLift"> {
  const { db } = context;

  async function page(request: FastifyRequest, reply: FastifyReply, extra: PageMessages = {}, status = 200) {
    const query = request.query as Record<string, unknown>;
    const filter = filterOf(query);
    if ("error" in filter) return context.problem(request, reply, 400, "Bad Request", filter.error);
    const pageNumber = pageNumberOf(query);
    const [{ rows, more }, counts] = await Promise.all([
      listSubscribers(db, filter, pageNumber, SUBSCRIBERS_PAGE_SIZE),
      subscriberCounts(db),
    ]);
    return context.render(
      reply,
      {
        page: "subscribers",
        viewer: context.viewerOf(context.sessionOf(request)),
        subscribers: rows.map(subscriberView),
        q: filter.q,
        state: filter.state,
        counts,
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
      const filter = filterOf(request.query as Record<string, unknown>);
      if ("error" in filter) return context.problem(request, reply, 400, "Bad Request", filter.error);
      const { rows } = await listSubscribers(db, filter, 1, 1_000_000);
      await context.audit(request, {
        actor: context.actorOf(context.sessionOf(request)),
        action: "subscribers-exported",
        target: { type: "export" },
        details: { rows: rows.length, searched: filter.q !== "", ...(filter.state ? { state: filter.state } : {}) },
      });
      // Times as ISO (UTC), as every export of the site: a spreadsheet converts them. The consent
      // columns are the proof a confirmed subscription carries.
      const csv = toCsv(
        ["Email", "State", "Changed", "Subscribed", "Confirmed", "Consent page"],
        rows.map((row) => [
          row.email,
          SUBSCRIBER_STATE_LABELS[row.status],
          row.statusChangedAt.toISOString(),
          row.createdAt.toISOString(),
          row.confirmedAt?.toISOString() ?? "",
          row.consentPage ?? "",
        ]),
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
      if (!removed) return context.notFound(request, reply, "There is no such subscriber (already removed?).");
      await context.audit(request, {
        actor: context.actorOf(context.sessionOf(request)),
        action: "subscriber-removed",
        target: { type: "subscriber", id: removed.id, label: removed.email },
      });
      return context.seeOther(reply, adminHref("subscribers", {}, { notice: "subscriber-removed" }));
    },

    // The address becomes confirmed again (it was, before its bounce) and gets the next newsletter;
    // the newsletter it bounced on is not sent again (its outbox row stays, failed).
    async subscriberLift(request, reply) {
      const { id } = request.params;
      if (!isUuid(id))
        return context.problem(request, reply, 400, "Bad Request", "The subscriber's id is malformed: it is not one.");
      const result = await liftBounce(db, id.toLowerCase(), context.now());
      if (result.outcome === "missing")
        return context.notFound(request, reply, "There is no such subscriber (removed?).");
      if (result.outcome === "not-bouncing")
        return context.problem(
          request,
          reply,
          409,
          "Conflict",
          `This address is ${SUBSCRIBER_STATE_LABELS[result.state].toLowerCase()}, not bouncing: there is no bounce to lift.`,
        );
      await context.audit(request, {
        actor: context.actorOf(context.sessionOf(request)),
        action: "subscriber-bounce-lifted",
        target: { type: "subscriber", id: result.row.id, label: result.row.email },
      });
      return context.seeOther(reply, adminHref("subscribers", {}, { notice: "subscriber-bounce-lifted" }));
    },
  };
}
