import { parseForm } from "#shared/admin/forms.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { analyticsExclusionForm } from "#shared/admin/schemas.ts";
import { type AnalyticsPeriodKey, analyticsPeriods, MAX_REPORT_DAYS } from "#shared/analytics.ts";
import type { AdminContext, AdminHandlers } from "../context.ts";
import { EXCLUDE_COOKIE_NAME, type ViewCounter } from "../../analytics/counting.ts";
import { indiaDay, startOfIndiaDay } from "#shared/india-time.ts";
import { analyticsReport } from "../../analytics/report.ts";

// The dashboard (/admin/analytics), its JSON (/admin/api/analytics?from=&to=) and the switch
// that stops counting this browser. Behind the back office's door: any member of staff.

const DAY_MS = 86_400_000;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;

/** A real date written YYYY-MM-DD, or undefined. */
function validDate(value: unknown): string | undefined {
  if (typeof value !== "string" || !datePattern.test(value)) return undefined;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value ? value : undefined;
}

/** The range from two query values, or the problem with them. */
export function parseRange(fromValue: unknown, toValue: unknown): { from: string; to: string } | { problem: string } {
  const from = validDate(fromValue);
  const to = validDate(toValue);
  if (!from || !to) {
    const which =
      !from && !to ? "`from` and `to` must be dates" : !from ? "`from` must be a date" : "`to` must be a date";
    return { problem: `${which} written YYYY-MM-DD (India dates, inclusive).` };
  }
  if (from > to) return { problem: "`from` must not be after `to`." };
  const days = Math.round((startOfIndiaDay(to).getTime() - startOfIndiaDay(from).getTime()) / DAY_MS) + 1;
  if (days > MAX_REPORT_DAYS) return { problem: `A report covers at most ${MAX_REPORT_DAYS} days.` };
  return { from, to };
}

/** The first day of a period of `days` days ending today. */
const periodStart = (today: string, days: number) =>
  indiaDay(new Date(startOfIndiaDay(today).getTime() - (days - 1) * DAY_MS + DAY_MS / 2));

const excludedCookie = /(?:^|;\s*)analytics-exclude=1(?:;|$)/;

export function analyticsRoutes(
  context: AdminContext,
  counter?: ViewCounter,
): AdminHandlers<"analytics" | "analyticsReport" | "analyticsExclusion"> {
  const secure = context.secure;

  /** The report, with this instance's waiting views written first. */
  async function report(from: string, to: string) {
    await counter?.flush();
    return analyticsReport(context.db, from, to);
  }

  return {
    async analyticsReport(request, reply) {
      const query = request.query as Record<string, unknown>;
      const range = parseRange(query.from, query.to);
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
        const parsed = parseRange(query.from, query.to);
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
