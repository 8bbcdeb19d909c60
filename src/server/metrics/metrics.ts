import { type IntervalHistogram, monitorEventLoopDelay } from "node:perf_hooks";
import { type SQL, sql } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { matchRoute, routes } from "#shared/routes.ts";
import type { Database } from "../db/client.ts";
import { errorCode } from "../plugins/request-logging.ts";

// What /metrics exports (metrics-routes.ts; docs/operations.md, "Metrics"): the requests by route
// pattern, the process and its event loop, and, read from the database at each scrape, the mail
// outbox and the last backup. Every app has a registry of its own, never prom-client's global
// one: the tests build many apps in one process, and each must count its own requests.

/** The label of a request that matched no route (Fastify's 404 handler, or no page of the route table). */
export const NO_ROUTE = "(no route)";
/** The pages' catch-all (pages/page-routes.ts): its requests are labelled by the route table's pattern. */
const PAGES_ROUTE = "/*";
/** Methods labelled as themselves; any other is "OTHER", so a client cannot grow the label set. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** Request durations' buckets, in seconds: from a cached page (a few ms) to a request cut at its timeout. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** How long a scrape waits for the database before it answers without the database's gauges. */
export const DATABASE_TIMEOUT_MS = 5000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The event loop's sampling interval (monitorEventLoopDelay's resolution), in ms. */
const LOOP_SAMPLE_MS = 10;

/**
 * The route a request is counted under: Fastify's pattern (`/admin/enquiries/:id`), never the
 * address asked for. The pages share one catch-all route, so a page is counted under its pattern
 * in the route table (`/blog/:slug`), and an address no route or page matches under NO_ROUTE.
 */
export function routeLabel(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return NO_ROUTE;
  if (pattern !== PAGES_ROUTE) return pattern;
  const url = request.url;
  const queryAt = url.indexOf("?");
  const match = matchRoute(queryAt === -1 ? url : url.slice(0, queryAt));
  return match ? routes[match.id].pattern : NO_ROUTE;
}

/** What one scrape read from the database; times in seconds since the epoch. */
export type DatabaseReadings = {
  /** Enquiry and staff mail waiting to be sent (status pending, no newsletter). */
  waiting: number;
  /** When the oldest of those was queued; null when none waits. */
  oldestQueuedAt: number | null;
  /** Enquiry and staff mail marked failed whose last attempt was due in the last 24 hours. */
  failedLastDay: number;
  /** Newsletter mail waiting to be sent. */
  newsletterWaiting: number;
  /** When the newest successful backup finished; null when none has. */
  lastBackupAt: number | null;
  /** How the newest finished backup ended; null when none has finished. */
  lastBackupResult: "done" | "failed" | null;
  /** The newest restore drill's result; null when none has been run. */
  lastDrill: "passed" | "failed" | null;
};

type ReadingsRow = {
  waiting: number | string;
  oldest_queued_at: number | string | null;
  failed_last_day: number | string;
  newsletter_waiting: number | string;
  last_backup_at: number | string | null;
  last_backup_result: string | null;
  last_drill: string | null;
};

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

/**
 * One statement, every part of it answered by an index: pending and failed mail by
 * mail_outbox_due_idx (status, next_attempt_at), so the count grows with the queue alone, never
 * with the mail already sent; the backups by backup_runs_started_idx, read from the newest run
 * back. backup_runs has no index on finished_at, so the newest finish is looked for among the runs
 * started within a day before the newest one started (a backup does not run for a day).
 * mail_outbox has no time of failure: a failed mail is dated by its last attempt's due time.
 */
export function readingsQuery(since: Date): SQL {
  return sql`
    with pending as (
      select count(*) filter (where newsletter_id is null)::int as waiting,
             extract(epoch from (min(created_at) filter (where newsletter_id is null)))::float8 as oldest_queued_at,
             count(*) filter (where newsletter_id is not null)::int as newsletter_waiting
      from mail_outbox
      where status = 'pending'
    ),
    failed as (
      select count(*)::int as failed_last_day
      from mail_outbox
      where status = 'failed' and next_attempt_at > ${since.toISOString()}::timestamptz and newsletter_id is null
    ),
    last_done as (
      select started_at from backup_runs where status = 'done' order by started_at desc limit 1
    ),
    last_finished as (
      select started_at from backup_runs where status in ('done', 'failed') order by started_at desc limit 1
    )
    select pending.waiting, pending.oldest_queued_at, pending.newsletter_waiting, failed.failed_last_day,
      (select extract(epoch from max(finished_at))::float8 from backup_runs
        where status = 'done' and started_at >= (select started_at from last_done) - interval '1 day'
      ) as last_backup_at,
      (select status from backup_runs
        where status in ('done', 'failed') and started_at >= (select started_at from last_finished) - interval '1 day'
        order by finished_at desc nulls last, started_at desc limit 1
      ) as last_backup_result,
      (select drill_status from backup_runs
        where drill_status in ('passed', 'failed') order by started_at desc limit 1
      ) as last_drill
    from pending, failed`;
}

/** Reads the outbox and the backups (readingsQuery) as of `now`. */
export async function readDatabase(db: Database, now: Date): Promise<DatabaseReadings> {
  const result = (await db.execute(readingsQuery(new Date(now.getTime() - DAY_MS)))) as unknown as {
    rows: ReadingsRow[];
  };
  const row = result.rows[0];
  if (!row) throw new Error("metrics: the readings query returned no row");
  return {
    waiting: Number(row.waiting),
    oldestQueuedAt: numberOrNull(row.oldest_queued_at),
    failedLastDay: Number(row.failed_last_day),
    newsletterWaiting: Number(row.newsletter_waiting),
    lastBackupAt: numberOrNull(row.last_backup_at),
    lastBackupResult:
      row.last_backup_result === "done" || row.last_backup_result === "failed" ? row.last_backup_result : null,
    lastDrill: row.last_drill === "passed" || row.last_drill === "failed" ? row.last_drill : null,
  };
}

export type SiteMetricsOptions = {
  db: Database;
  /** The instance's clock (the ages are measured on it). */
  now?: () => Date;
  log?: FastifyBaseLogger;
  /** How long a scrape waits for the database (DATABASE_TIMEOUT_MS by default). */
  databaseTimeoutMs?: number;
};

/** One app's metrics: its registry, what its requests add to it, and what each scrape reads. */
export class SiteMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<"method" | "route" | "status">;
  private readonly durations: Histogram<"method" | "route">;
  private readonly loopDelay: IntervalHistogram;
  private readonly now: () => Date;
  private readonly databaseTimeoutMs: number;
  /** The readings of the scrape in hand, shared by its gauges. */
  private scrapeReadings: Promise<DatabaseReadings | undefined> | undefined;
  /** The database's query in flight: one at a time, even while a database that hangs keeps it. */
  private query: Promise<DatabaseReadings> | undefined;

  constructor(private readonly options: SiteMetricsOptions) {
    this.now = options.now ?? (() => new Date());
    this.databaseTimeoutMs = options.databaseTimeoutMs ?? DATABASE_TIMEOUT_MS;
    const registers = [this.registry];

    this.requests = new Counter({
      name: "http_requests_total",
      help: "HTTP requests answered, by method, route pattern and status.",
      labelNames: ["method", "route", "status"] as const,
      registers,
    });
    this.durations = new Histogram({
      name: "http_request_duration_seconds",
      help: "Time from a request's arrival to its answer, by method and route pattern.",
      labelNames: ["method", "route"] as const,
      buckets: DURATION_BUCKETS,
      registers,
    });

    // The process: what prom-client's default metrics call these, a few of them only.
    const cpuCounter = (name: string, help: string, part: "user" | "system") => {
      let reported = 0;
      new Counter({
        name,
        help,
        registers,
        collect() {
          const total = process.cpuUsage()[part];
          this.inc((total - reported) / 1e6);
          reported = total;
        },
      });
    };
    cpuCounter("process_cpu_user_seconds_total", "User CPU time the process has spent, in seconds.", "user");
    cpuCounter("process_cpu_system_seconds_total", "System CPU time the process has spent, in seconds.", "system");
    new Gauge({
      name: "process_start_time_seconds",
      help: "When the process started, in seconds since the epoch.",
      registers,
    }).set(Math.round(Date.now() / 1000 - process.uptime()));
    new Gauge({
      name: "process_resident_memory_bytes",
      help: "Resident memory of the process, in bytes.",
      registers,
      collect() {
        this.set(process.memoryUsage.rss());
      },
    });
    new Gauge({
      name: "nodejs_heap_size_used_bytes",
      help: "V8's heap in use, in bytes.",
      registers,
      collect() {
        this.set(process.memoryUsage().heapUsed);
      },
    });

    // The event loop's delay since the previous scrape (the histogram is reset after each).
    // monitorEventLoopDelay records the time between the ticks of a timer of LOOP_SAMPLE_MS, the
    // interval included: an idle loop reads about 10 ms. The delay is what it records beyond it.
    // Its reset also restarts its clock at the next tick, so a stall in the 10 ms after a scrape
    // goes unseen: a blind spot of one tick a scrape.
    this.loopDelay = monitorEventLoopDelay({ resolution: LOOP_SAMPLE_MS });
    this.loopDelay.enable();
    const loop = this.loopDelay;
    const loopGauge = (name: string, help: string, nanoseconds: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(loop.count > 0 ? Math.max(0, nanoseconds() / 1e6 - LOOP_SAMPLE_MS) / 1000 : 0);
        },
      });
    loopGauge("nodejs_eventloop_delay_p50_seconds", "Median event loop delay since the last scrape, in seconds.", () =>
      loop.percentile(50),
    );
    loopGauge(
      "nodejs_eventloop_delay_p99_seconds",
      "99th percentile of the event loop delay since the last scrape, in seconds.",
      () => loop.percentile(99),
    );
    loopGauge(
      "nodejs_eventloop_delay_max_seconds",
      "Longest event loop delay since the last scrape, in seconds.",
      () => loop.max,
    );

    // The database's, read at each scrape by one query that every gauge below shares. When the
    // database does not answer, metrics_database_up is 0 and the others have no value.
    const readings = () => this.readings();
    const databaseGauge = (name: string, help: string, value: (read: DatabaseReadings) => number | null) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          const read = await readings();
          const current = read ? value(read) : null;
          if (current === null) this.remove();
          else this.set(current);
        },
      });
    new Gauge({
      name: "metrics_database_up",
      help: "1 when the database answered this scrape's queries, 0 when it did not (its gauges are then absent).",
      registers,
      async collect() {
        this.set((await readings()) ? 1 : 0);
      },
    });
    const secondsSince = (at: number | null) => (at === null ? null : Math.max(0, this.now().getTime() / 1000 - at));
    databaseGauge(
      "mail_outbox_waiting",
      "Enquiry and staff mail waiting to be sent (newsletters not included).",
      (read) => read.waiting,
    );
    databaseGauge(
      "mail_outbox_oldest_waiting_seconds",
      "How long the oldest mail waiting to be sent has waited since it was queued, in seconds; 0 when none waits.",
      (read) => secondsSince(read.oldestQueuedAt) ?? 0,
    );
    databaseGauge(
      "mail_outbox_failed_24h",
      "Enquiry and staff mail given up as failed whose last attempt was due in the last 24 hours.",
      (read) => read.failedLastDay,
    );
    databaseGauge("newsletter_queue_waiting", "Newsletter mail waiting to be sent.", (read) => read.newsletterWaiting);
    databaseGauge(
      "backup_last_success_age_seconds",
      "Seconds since the newest successful backup finished; absent when no backup has succeeded.",
      (read) => secondsSince(read.lastBackupAt),
    );
    databaseGauge(
      "backup_last_result",
      "1 when the newest finished backup succeeded, 0 when it failed; absent when none has finished.",
      (read) => (read.lastBackupResult === null ? null : read.lastBackupResult === "done" ? 1 : 0),
    );
    databaseGauge(
      "backup_last_drill_passed",
      "1 when the newest restore drill passed, 0 when it failed; absent when none has been run.",
      (read) => (read.lastDrill === null ? null : read.lastDrill === "passed" ? 1 : 0),
    );
  }

  /** Counts an answered request (an onResponse hook). */
  observe(request: FastifyRequest, reply: FastifyReply): void {
    const method = METHODS.has(request.method) ? request.method : "OTHER";
    const route = routeLabel(request);
    this.requests.inc({ method, route, status: String(reply.statusCode) });
    this.durations.observe({ method, route }, reply.elapsedTime / 1000);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The metrics in Prometheus's text format. Never rejects for the database: its gauges are left out. */
  async scrape(): Promise<string> {
    try {
      return await this.registry.metrics();
    } finally {
      this.loopDelay.reset();
    }
  }

  /** Stops watching the event loop (the app's onClose). */
  close(): void {
    this.loopDelay.disable();
  }

  /**
   * The database's readings for the scrape in hand, or undefined when the database failed or did
   * not answer within the timeout. The gauges of one scrape ask together and share one answer.
   */
  private readings(): Promise<DatabaseReadings | undefined> {
    this.scrapeReadings ??= this.readWithinTimeout().finally(() => {
      this.scrapeReadings = undefined;
    });
    return this.scrapeReadings;
  }

  private async readWithinTimeout(): Promise<DatabaseReadings | undefined> {
    this.query ??= readDatabase(this.options.db, this.now()).finally(() => {
      this.query = undefined;
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.databaseTimeoutMs);
    });
    try {
      const read = await Promise.race([this.query, timeout]);
      if (!read) this.options.log?.debug("metrics: the database did not answer in time");
      return read;
    } catch (error) {
      this.options.log?.debug({ errCode: errorCode(error) }, "metrics: the database's readings failed");
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}
