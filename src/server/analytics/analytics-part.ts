import type { FastifyReply, FastifyRequest } from "fastify";
import { adminPaths } from "#shared/admin/pages.ts";
import { type AnalyticsPeriodKey, analyticsPeriods } from "#shared/analytics.ts";
import type { AdminPart } from "../admin/admin-context.ts";
import { EXCLUDE_COOKIE_NAME, type ViewCounter } from "./counting.ts";
import { indiaDay, startOfIndiaDay } from "#shared/india-time.ts";
import { analyticsReport } from "./report.ts";
import { parseReportRange } from "./report-range.ts";

// The dashboard (/admin/analytics), its JSON (/admin/api/analytics?from=&to=) and the switch
// that stops counting this browser. Behind the back office's door: any member of staff.

const DAY_MS = 86_400_000;

/** The first day of a period of `days` days ending today. */
const periodStart = (today: string, days: number) =>
  indiaDay(new Date(startOfIndiaDay(today).getTime() - (days - 1) * DAY_MS + DAY_MS / 2));

const excludedCookie = /(?:^|;\s*)analytics-exclude=1(?:;|$)/;

export function analyticsPart(counter?: ViewCounter): AdminPart {
  return (admin, context) => {
    const secure = context.siteUrl.startsWith("https://");

    /** The report, with this instance's waiting views written first. */
    async function report(from: string, to: string) {
      await counter?.flush();
      return analyticsReport(context.db, from, to);
    }

    admin.get("/api/analytics", context.route("staff"), async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const range = parseReportRange(query.from, query.to);
      if ("problem" in range) return context.problem(request, reply, 400, "Bad Request", range.problem);
      return report(range.from, range.to);
    });

    admin.get("/analytics", context.route("staff"), async (request: FastifyRequest, reply: FastifyReply) => {
      const query = request.query as Record<string, unknown>;
      const today = indiaDay(context.now());
      const periodValue =
        typeof query.period === "string"
          ? query.period
          : query.from !== undefined || query.to !== undefined
            ? "custom"
            : "30d";
      const period = analyticsPeriods.find((entry) => entry.key === periodValue);
      if (!period)
        return context.problem(
          request,
          reply,
          400,
          "Bad Request",
          "The period must be one of today, 7d, 30d, 12m or custom.",
        );
      let range: { from: string; to: string };
      if (period.key === "custom") {
        const parsed = parseReportRange(query.from, query.to);
        if ("problem" in parsed) return context.problem(request, reply, 400, "Bad Request", parsed.problem);
        range = parsed;
      } else {
        range = { from: periodStart(today, period.days), to: today };
      }
      const notice =
        query.notice === "excluded"
          ? "This browser is no longer counted."
          : query.notice === "included"
            ? "This browser is counted again."
            : undefined;
      return context.render(reply, {
        page: "analytics",
        viewer: context.viewerOf(context.sessionOf(request)),
        period: period.key as AnalyticsPeriodKey,
        report: await report(range.from, range.to),
        excluded: excludedCookie.test(request.headers.cookie ?? ""),
        enabled: counter?.enabled ?? false,
        notice,
      });
    });

    // The switch: a fixed marker on this browser, path "/" so the public pages see it. It says
    // nothing about who set it, and only staff who ask for it get it.
    admin.post("/analytics/exclusion", context.route("staff"), async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const exclude = body.exclude;
      if (exclude !== "1" && exclude !== "0") {
        return context.problem(
          request,
          reply,
          400,
          "Bad Request",
          "`exclude` must be 1 (stop counting this browser) or 0 (count it again).",
        );
      }
      const attributes = `Path=/; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`;
      reply.header(
        "set-cookie",
        exclude === "1"
          ? `${EXCLUDE_COOKIE_NAME}=1; Max-Age=31536000; ${attributes}`
          : `${EXCLUDE_COOKIE_NAME}=; Max-Age=0; ${attributes}`,
      );
      return reply
        .code(303)
        .header("location", `${adminPaths.analytics}?notice=${exclude === "1" ? "excluded" : "included"}`)
        .send();
    });
  };
}
