import type { ReactNode } from "react";
import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { type AnalyticsReport, analyticsPeriods, funnelSteps } from "#shared/analytics.ts";
import { AdminLayout } from "../../layout.tsx";
import { DataTable } from "../../ui/data-table.tsx";
import { Field } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

// The analytics dashboard: rendered on the server like every back-office page, the daily chart
// an SVG drawn here (with the same numbers as a table for those who cannot see it).

type Props = AdminPagePropsOf<"analytics">;

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "23 Nov 2026" from an India date, YYYY-MM-DD. */
function formatDay(date: string): string {
  const [year, month, day] = date.split("-");
  return `${Number(day)} ${months[Number(month) - 1]} ${year}`;
}

const percent = (part: number, whole: number) => (whole === 0 ? "–" : `${((part / whole) * 100).toFixed(1)}%`);
const number = (value: number) => value.toLocaleString("en-IN");

function Totals({ report }: { report: AnalyticsReport }) {
  const items = [
    ["Visitors", number(report.visitors)],
    ["Page views", number(report.pageviews)],
    ["Enquiries", number(report.enquiries)],
    ["Subscriptions", number(report.subscriptions)],
    ["Conversion rate", `${(report.conversionRate * 100).toFixed(2)}%`],
  ] as const;
  return (
    <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-5">
      {items.map(([label, value]) => (
        <div key={label} className="admin-card">
          <dt className="text-sm text-slate-600">{label}</dt>
          <dd className="mt-1 text-2xl font-bold text-navy-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Visitors as bars, enquiries as a line with its own scale; both start at zero. */
function DailyChart({ report }: { report: AnalyticsReport }) {
  const width = 720;
  const height = 220;
  const pad = { left: 40, right: 40, top: 12, bottom: 28 };
  const days = report.daily;
  const maxVisitors = Math.max(1, ...days.map((day) => day.visitors));
  const maxEnquiries = Math.max(1, ...days.map((day) => day.enquiries));
  const plotWidth = width - pad.left - pad.right;
  const plotHeight = height - pad.top - pad.bottom;
  const step = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(1, step * 0.7);
  const x = (index: number) => pad.left + index * step + step / 2;
  const yVisitors = (value: number) => pad.top + plotHeight - (value / maxVisitors) * plotHeight;
  const yEnquiries = (value: number) => pad.top + plotHeight - (value / maxEnquiries) * plotHeight;
  const line = days.map((day, index) => `${x(index).toFixed(1)},${yEnquiries(day.enquiries).toFixed(1)}`).join(" ");
  const first = days[0];
  const last = days[days.length - 1];
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-labelledby="chart-title chart-desc"
      className="mt-3 h-auto w-full"
    >
      <title id="chart-title">Visitors and enquiries per day</title>
      <desc id="chart-desc">
        {`Bars: visitors per day, at most ${maxVisitors}. Line: enquiries per day, at most ${maxEnquiries}. The table below the chart gives each day's numbers.`}
      </desc>
      <line x1={pad.left} x2={width - pad.right} y1={pad.top + plotHeight} y2={pad.top + plotHeight} stroke="#94a3b8" />
      <text x={pad.left - 6} y={pad.top + 10} textAnchor="end" fontSize="11" fill="#1d4ed8">
        {maxVisitors}
      </text>
      <text x={pad.left - 6} y={pad.top + plotHeight} textAnchor="end" fontSize="11" fill="#475569">
        0
      </text>
      <text x={width - pad.right + 6} y={pad.top + 10} fontSize="11" fill="#b45309">
        {maxEnquiries}
      </text>
      {days.map((day, index) => (
        <rect
          key={day.date}
          x={x(index) - barWidth / 2}
          y={yVisitors(day.visitors)}
          width={barWidth}
          height={pad.top + plotHeight - yVisitors(day.visitors)}
          fill="#93c5fd"
        />
      ))}
      {days.length > 1 ? <polyline points={line} fill="none" stroke="#b45309" strokeWidth="2" /> : null}
      {days.length <= 31
        ? days.map((day, index) => (
            <circle key={day.date} cx={x(index)} cy={yEnquiries(day.enquiries)} r="3" fill="#b45309" />
          ))
        : null}
      {first ? (
        <text x={pad.left} y={height - 8} fontSize="11" fill="#475569">
          {formatDay(first.date)}
        </text>
      ) : null}
      {last && last !== first ? (
        <text x={width - pad.right} y={height - 8} textAnchor="end" fontSize="11" fill="#475569">
          {formatDay(last.date)}
        </text>
      ) : null}
    </svg>
  );
}

/** A table of figures: the first column names the row, the others are numbers, right-aligned. */
function Table({
  label,
  headings,
  rows,
  empty,
}: {
  label: string;
  headings: string[];
  rows: (string | number)[][];
  empty: string;
}) {
  if (rows.length === 0) return <p className="mt-3 text-sm text-slate-600">{empty}</p>;
  return (
    <DataTable<(string | number)[]>
      label={`${label} (table)`}
      caption={label}
      className="mt-3"
      rows={rows}
      rowKey={(_, index) => index}
      columns={headings.map((heading, index) =>
        index === 0
          ? {
              header: heading,
              rowHeader: true,
              className: "font-normal break-words whitespace-normal",
              cell: (row) => row[0],
            }
          : {
              header: heading,
              headerClassName: "text-right",
              className: "text-right tabular-nums",
              cell: (row) => {
                const cell = row[index];
                return typeof cell === "number" ? number(cell) : cell;
              },
            },
      )}
    />
  );
}

/** Days whose views housekeeping has not rolled up yet: said, so that a gap is not read as no visitors. */
function PendingDays({ days }: { days: string[] }) {
  const first = days[0];
  const last = days[days.length - 1];
  if (!first || !last) return null;
  const which =
    days.length === 1
      ? `The page views of ${formatDay(first)} are`
      : `The page views of ${days.length} days from ${formatDay(first)} to ${formatDay(last)} are`;
  return (
    <p role="status" className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      {`${which} still being added up and are not in these numbers yet; enquiries and subscriptions are. Reload the page in a few minutes.`}
    </p>
  );
}

function Section({ id, title, children, note }: { id: string; title: string; children: ReactNode; note?: string }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="admin-card mt-6 min-w-0">
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-navy-900">
        {title}
      </h2>
      {note ? <p className="mt-1 text-sm text-slate-600">{note}</p> : null}
      {children}
    </section>
  );
}

/**
 * The site searches that found nothing, a table a week (decision 054): what visitors looked for
 * and the site does not answer yet. Words and counts only: nothing says who searched.
 */
function SearchMisses({ weeks }: { weeks: Props["searchMisses"] }) {
  return (
    <Section
      id="search-misses"
      title="Searches that found nothing"
      note="What visitors searched the site for and found nothing, by week (Monday to Sunday), most asked first: ideas for what to write about. Only the words and a count are kept, counted as page views are."
    >
      {weeks.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No search found nothing in the last eight weeks.</p>
      ) : (
        weeks.map((week) => (
          <Table
            key={week.weekStart}
            label={`Week of ${formatDay(week.weekStart)}`}
            headings={["Search", "Times"]}
            rows={week.queries.map((row) => [row.query, row.count])}
            empty="None."
          />
        ))
      )}
    </Section>
  );
}

export function AnalyticsPage({ viewer, period, report, searchMisses, excluded, enabled, notice, error }: Props) {
  const articles = report.pages.filter((page) => page.path.startsWith("/blog/"));
  const articlesWithEnquiries = articles.filter((page) => page.enquiries > 0).sort((a, b) => b.enquiries - a.enquiries);
  const funnelLabels = new Map<string, string>(funnelSteps.map((step) => [step.key, step.label]));
  const range =
    report.from === report.to ? formatDay(report.from) : `${formatDay(report.from)} to ${formatDay(report.to)}`;
  return (
    <AdminLayout viewer={viewer} current="analytics">
      <PageHeader
        title="Analytics"
        description={`${range} (India dates). Counted without cookies; bots, prefetches and browsers that send Sec-GPC are not counted.`}
      />
      <div className="mt-4">
        <Messages
          notice={notice}
          error={
            error ??
            (enabled
              ? undefined
              : "Counting is turned off on this site (ANALYTICS=false): the numbers below do not grow.")
          }
        />
        <PendingDays days={report.pendingDays} />
      </div>

      <nav aria-label="Period" className="mt-2 flex flex-wrap gap-2">
        {analyticsPeriods
          .filter((entry) => entry.key !== "custom")
          .map((entry) => (
            <a
              key={entry.key}
              href={adminHref("analytics", {}, { period: entry.key })}
              aria-current={entry.key === period ? "page" : undefined}
              className={entry.key === period ? "admin-button" : "admin-button-secondary"}
            >
              {entry.label}
            </a>
          ))}
      </nav>
      <form method="get" action={adminHref("analytics")} className="admin-card mt-3 flex flex-wrap items-end gap-3">
        <input type="hidden" name="period" value="custom" />
        <Field id="analytics-from" name="from" label="From" type="date" required defaultValue={report.from} />
        <Field id="analytics-to" name="to" label="To" type="date" required defaultValue={report.to} />
        <button type="submit" className={period === "custom" ? "admin-button" : "admin-button-secondary"}>
          Show custom period
        </button>
      </form>

      <Totals report={report} />

      <Section id="daily" title="Visitors and enquiries per day">
        <DailyChart report={report} />
        <p className="mt-2 flex flex-wrap gap-4 text-sm text-slate-700">
          <span>
            <span aria-hidden="true" className="mr-1 inline-block size-3 bg-blue-300 align-middle" />
            Visitors (left scale)
          </span>
          <span>
            <span aria-hidden="true" className="mr-1 inline-block h-0.5 w-4 bg-amber-700 align-middle" />
            Enquiries (right scale)
          </span>
        </p>
        <details className="mt-3">
          <summary className="admin-link cursor-pointer">The numbers per day, as a table</summary>
          <Table
            label="Visitors, page views and enquiries per day"
            headings={["Date", "Visitors", "Page views", "Enquiries"]}
            rows={report.daily.map((day) => [formatDay(day.date), day.visitors, day.pageviews, day.enquiries])}
            empty="No days in this period."
          />
        </details>
      </Section>

      <Section id="pages" title="Top pages" note="Enquiries: sent the same day by a visitor who had viewed the page.">
        <Table
          label="Top pages"
          headings={["Page", "Views", "Visitors", "Enquiries"]}
          rows={report.pages.slice(0, 15).map((page) => [page.path, page.views, page.visitors, page.enquiries])}
          empty="No page views in this period."
        />
      </Section>
      <div className="grid gap-x-6 lg:grid-cols-2">
        <Section id="funnel" title="Funnel" note="Each step's share is of the step before.">
          <Table
            label="Funnel"
            headings={["Step", "Visitors", "Share"]}
            rows={report.funnel.map((step, index) => [
              funnelLabels.get(step.step) ?? step.step,
              step.visitors,
              index === 0 ? "" : percent(step.visitors, report.funnel[index - 1]!.visitors),
            ])}
            empty="No visitors in this period."
          />
        </Section>
        <Section
          id="sources"
          title="Sources"
          note="A visitor's source is that of their first page that day: the UTM source, else the site that linked to it."
        >
          <Table
            label="Sources"
            headings={["Source", "Visitors", "Enquiries", "Conversion"]}
            rows={report.sources
              .slice(0, 15)
              .map((row) => [row.source, row.visitors, row.enquiries, percent(row.enquiries, row.visitors)])}
            empty="No visitors in this period."
          />
        </Section>
        <Section id="campaigns" title="Campaigns">
          <Table
            label="Campaigns"
            headings={["Campaign", "Visitors", "Enquiries", "Conversion"]}
            rows={report.campaigns
              .slice(0, 15)
              .map((row) => [row.campaign, row.visitors, row.enquiries, percent(row.enquiries, row.visitors)])}
            empty="No visits with a utm_campaign in this period."
          />
        </Section>
        <Section id="articles" title="Top articles">
          <Table
            label="Top articles by views"
            headings={["Article", "Views", "Visitors"]}
            rows={articles.slice(0, 10).map((page) => [page.path, page.views, page.visitors])}
            empty="No article views in this period."
          />
          <h3 className="mt-4 text-base font-semibold text-navy-900">Articles that led to enquiries</h3>
          <Table
            label="Articles that led to enquiries"
            headings={["Article", "Enquiries", "Visitors"]}
            rows={articlesWithEnquiries.slice(0, 10).map((page) => [page.path, page.enquiries, page.visitors])}
            empty="None in this period."
          />
        </Section>
        <Section id="devices" title="Devices">
          <Table
            label="Devices"
            headings={["Device", "Visitors", "Share"]}
            rows={report.devices.map((row) => [row.device, row.visitors, percent(row.visitors, report.visitors)])}
            empty="No visitors in this period."
          />
        </Section>
      </div>

      <SearchMisses weeks={searchMisses} />

      <section aria-labelledby="exclusion-heading" className="admin-card mt-6">
        <h2 id="exclusion-heading" className="text-lg font-semibold text-navy-900">
          This browser
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          {excluded
            ? "This browser is not counted: it carries a marker (a cookie with the fixed value 1, nothing that identifies you) that the site's pages respect."
            : "This browser is counted like any visitor's. Stop counting it so your own visits do not change the numbers: the site then sets a marker on this browser only (a cookie with the fixed value 1, nothing that identifies you)."}
        </p>
        <form method="post" action={adminHref("analyticsExclusion")} className="mt-3">
          <input type="hidden" name="exclude" value={excluded ? "0" : "1"} />
          <button type="submit" className="admin-button-secondary">
            {excluded ? "Count this browser again" : "Stop counting this browser"}
          </button>
        </form>
      </section>
    </AdminLayout>
  );
}
