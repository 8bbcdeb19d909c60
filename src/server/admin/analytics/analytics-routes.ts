import { parseForm } from "#shared/admin/forms.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { analyticsExclusionForm } from "#shared/admin/schemas.ts";
import { type AnalyticsPeriodKey, analyticsPeriods } from "#shared/analytics.ts";
import { addIndiaDays, indiaDay } from "#shared/india-time.ts";
import { EXCLUDE_COOKIE_NAME, type ViewCounter } from "../../analytics/counting.ts";
import { analyticsReport } from "../../analytics/report.ts";
import { weeklySearchMisses } from "../../analytics/search-misses.ts";
import { parseReportRange } from "../../analytics/report-range.ts";
import type { AdminContext, AdminHandlers } from "../context.ts";

// The dashboard (/admin/analytics), its JSON (/admin/api/analytics?from=&to=) and the switch
// that stops counting this browser. Behind the back office's door: any member of staff.

/** The first day of a period of `days` days ending today. */
const periodStart = (today: string, days: number) => addIndiaDays(today, -(days - 1));

const excludedCookie = /(?:^|;\s*)analytics-exclude=1(?:;|$)/;

export function analyticsRoutes(
  context: AdminContext,
  counter?: ViewCounter,
): AdminHandlers<"analytics" | "analyticsReport" | "analyticsExclusion"> {
  const secure = context.secure;

  /** The report, with this instance's waiting views written first. */
  async function report(from: string, to: string) {
    await counter?.flush();
    return analyticsReport(context.db, from, to, context.now());
  }

  return {
    async analyticsReport(request, reply) {
      const query = request.query as Record<string, unknown>;
      const range = parseReportRange(query.from, query.to);
      if ("problem" in range) return context.problem(request, reply, 400, "Bad Request", range.problem);
      return report(range.from, range.to);
    },

    async analytics(request, reply) {
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
      return context.render(reply, {
        page: "analytics",
        viewer: context.viewerOf(context.sessionOf(request)),
        period: period.key as AnalyticsPeriodKey,
        report: await report(range.from, range.to),
        searchMisses: await weeklySearchMisses(context.db, context.now()),
        excluded: excludedCookie.test(request.headers.cookie ?? ""),
        enabled: counter?.enabled ?? false,
      });
    },

    // The switch: a fixed marker on this browser, path "/" so the public pages see it. It says
    // nothing about who set it, and only staff who ask for it get it.
    async analyticsExclusion(request, reply) {
      const parsed = parseForm(analyticsExclusionForm, request.body);
      if (!parsed.ok) return context.problem(request, reply, 400, "Bad Request", parsed.form.errors.exclude!);
      const exclude = parsed.data.exclude;
      const attributes = `Path=/; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`;
      reply.header(
        "set-cookie",
        exclude === "1"
          ? `${EXCLUDE_COOKIE_NAME}=1; Max-Age=31536000; ${attributes}`
          : `${EXCLUDE_COOKIE_NAME}=; Max-Age=0; ${attributes}`,
      );
      return context.seeOther(reply, adminHref("analytics", {}, { notice: exclude === "1" ? "excluded" : "included" }));
    },
  };
}
