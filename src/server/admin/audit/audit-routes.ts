import { pageNumberOf } from "#shared/admin/pagination.ts";
import { firstProblem, parseForm } from "#shared/admin/forms.ts";
import { auditFilterForm } from "#shared/admin/schemas.ts";
import { nextIndiaDay, startOfIndiaDay } from "#shared/india-time.ts";
import { isUuid } from "#shared/schemas/identifiers.ts";
import { staff } from "../../db/schema.ts";
import type { AdminContext, AdminHandlers } from "../context.ts";
import { AUDIT_ACTIONS, listAudit } from "./audit.ts";

// The audit trail (admins), filtered by action, person and India dates; newest first, in pages.

export function auditRoutes(context: AdminContext): AdminHandlers<"audit"> {
  const { db } = context;
  return {
    async audit(request, reply) {
      const query = request.query as Record<string, unknown>;
      const parsed = parseForm(auditFilterForm, query);
      if (!parsed.ok) {
        const problem = firstProblem(parsed.form, "The filter is not one.");
        return context.problem(request, reply, 400, "Bad Request", problem);
      }
      const { from, to } = parsed.data;
      const action = (AUDIT_ACTIONS as readonly string[]).includes(parsed.data.action) ? parsed.data.action : "";
      const pageNumber = pageNumberOf(query);
      const actors = await db.select({ id: staff.id, name: staff.name }).from(staff).orderBy(staff.name);
      const wanted = parsed.data.actor.toLowerCase();
      const actor = isUuid(wanted) && actors.some((row) => row.id === wanted) ? wanted : "";
      const { events, more } = await listAudit(
        db,
        {
          action: action || undefined,
          actorId: actor || undefined,
          from: from ? startOfIndiaDay(from) : undefined,
          to: to ? startOfIndiaDay(nextIndiaDay(to)) : undefined,
        },
        pageNumber,
      );
      return context.render(reply, {
        page: "audit",
        viewer: context.viewerOf(context.sessionOf(request)),
        events: events.map((event) => ({
          id: event.id,
          at: event.at.toISOString(),
          actor: event.actorLabel,
          action: event.action,
          target:
            event.targetLabel ??
            (event.targetType ? `${event.targetType}${event.targetId ? ` ${event.targetId.slice(0, 12)}` : ""}` : null),
          clientAddress: event.clientAddress,
          details: event.details ? JSON.stringify(event.details) : null,
        })),
        filter: { action, actor, from, to },
        actions: AUDIT_ACTIONS,
        actors,
        pageNumber,
        more,
      });
    },
  };
}
