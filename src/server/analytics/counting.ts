import { createHmac, randomBytes } from "node:crypto";
import Bowser from "bowser";
import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import { isbot } from "isbot";
import { DAY_MS, INDIA_OFFSET_MS, indiaDay, startOfIndiaDay } from "#shared/india-time.ts";
import type { Database } from "../db/client.ts";
import { analyticsSalts, pageViews } from "../db/schema.ts";
import { clientSubject } from "../http/client-address.ts";

// Counting page views without cookies (docs/decisions/031-cookieless-analytics.md). A visitor is
// an HMAC of the client address (as the rate limit sees it) and the user agent, keyed by a random
// salt made for each India day and shared by the instances through the database; neither the
// address nor the user agent is ever written anywhere. Views are kept in memory and written in
// batches: at most a second after the first of a batch, or at once when 500 are waiting.

/** The marker a member of staff sets on their own browser from the dashboard: it carries no identity. */
export const EXCLUDE_COOKIE_NAME = "analytics-exclude";
const excludeCookie = /(?:^|;\s*)analytics-exclude=1(?:;|$)/;

/** The longest UTM value or referrer host kept, in characters (code points). */
export const FIELD_LIMIT = 100;
/** The longest path kept. */
export const PATH_LIMIT = 300;
export const BATCH_SIZE = 500;
export const BATCH_DELAY_MS = 1000;
/** Views waiting when the database is out of reach; more are dropped rather than kept without end. */
const MAX_WAITING = 20_000;

// Control and format characters (bidirectional overrides, zero-width), never kept.
// eslint-disable-next-line no-control-regex
const unwanted = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A visitor-supplied value as stored: well-formed, without control characters, trimmed and at most `limit` code points; null when nothing is left. */
export function bounded(value: unknown, limit = FIELD_LIMIT): string | null {
  if (typeof value !== "string") return null;
  const cleaned = value
    .slice(0, limit * 4)
    .replace(loneSurrogate, "\ufffd")
    .replace(unwanted, "")
    .trim();
  const text = Array.from(cleaned).slice(0, limit).join("").trim();
  return text === "" ? null : text;
}

/** The referring site's host (without "www."), or null when there is none or it is this site. */
export function referrerHost(referer: unknown, ownHosts: readonly string[]): string | null {
  if (typeof referer !== "string" || referer === "" || referer.length > 4000) return null;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host === "" || ownHosts.includes(host)) return null;
  return bounded(host.replace(/^www\./, ""));
}

type Agent = { bot: boolean; device: string };
const agents = new Map<string, Agent>();
/** What a user agent is: a bot (`isbot`, Unlicense), and its device class (bowser, MIT); remembered per user agent. */
function agentOf(userAgent: string): Agent {
  let agent = agents.get(userAgent);
  if (agent) return agent;
  const text = userAgent.slice(0, 1024);
  const type = Bowser.parse(text).platform.type;
  agent = { bot: isbot(text), device: type === "mobile" || type === "tablet" || type === "desktop" ? type : "other" };
  if (agents.size >= 2000) agents.clear();
  agents.set(userAgent, agent);
  return agent;
}

/** "mobile", "tablet", "desktop" or "other", from the user agent. */
export function deviceClass(userAgent: string): string {
  return agentOf(userAgent).device;
}

type Headers = FastifyRequest["headers"];

/** Why a request's headers keep it from being counted (a bot, a prefetch, Sec-GPC, an excluded browser), or undefined. */
export function notCountedBecause(headers: Headers): string | undefined {
  const purpose = headers["sec-purpose"] ?? headers.purpose;
  if (purpose !== undefined && /prefetch|prerender/i.test(String(purpose))) return "prefetch";
  if (headers["sec-gpc"] === "1") return "sec-gpc";
  const cookie = headers.cookie;
  if (cookie !== undefined && excludeCookie.test(cookie)) return "excluded browser";
  const userAgent = headers["user-agent"];
  if (!userAgent || agentOf(userAgent).bot) return "bot";
  return undefined;
}

export function visitorHash(salt: string, subject: string, userAgent: string): string {
  return createHmac("sha256", salt).update(subject).update("\n").update(userAgent).digest("base64url").slice(0, 22);
}

/** The salt of an India day: made once, by whichever instance asks first (insert … on conflict do nothing). */
export async function saltOf(db: Database, day: string, now: Date): Promise<string> {
  await db
    .insert(analyticsSalts)
    .values({ day, salt: randomBytes(32).toString("base64url"), createdAt: now })
    .onConflictDoNothing();
  const [row] = await db.select({ salt: analyticsSalts.salt }).from(analyticsSalts).where(eq(analyticsSalts.day, day));
  if (!row) throw new Error(`no analytics salt for ${day}`);
  return row.salt;
}

/** What a view says about where it came from: its path and query (the UTM parameters), and the referring site. */
export type ViewSource = { url: string; referrer: string | null };

type WaitingView = {
  at: Date;
  /** Identical views (same visitor, page and source) of the batch. */
  views: number;
  path: string;
  referrerHost: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  userAgent: string;
  subject: string;
};

/** Where a conversion came from: its sender's first view that India day. */
export type Attribution = {
  visitorHash: string;
  landingPage: string;
  attributionSource: string | null;
  attributionMedium: string | null;
  attributionCampaign: string | null;
};

export type ViewCounterOptions = {
  db: Database;
  /** ANALYTICS: when false, nothing is counted or attributed. */
  enabled: boolean;
  siteUrl: string;
  now?: () => Date;
  log?: FastifyBaseLogger;
};

export class ViewCounter {
  readonly enabled: boolean;
  private readonly db: Database;
  private readonly now: () => Date;
  private readonly log?: FastifyBaseLogger;
  private readonly siteHost: string;
  /** Waiting views by visitor, page and source: identical ones share an entry, and a row. */
  private waiting = new Map<string, WaitingView>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly salts = new Map<string, Promise<string>>();

  constructor(options: ViewCounterOptions) {
    this.db = options.db;
    this.enabled = options.enabled;
    this.now = options.now ?? (() => new Date());
    this.log = options.log;
    this.siteHost = new URL(options.siteUrl).hostname.toLowerCase();
  }

  /** Counts a view of a public page (the caller has checked it is one, answered 200 to a GET) unless its headers say not to. */
  count(request: FastifyRequest, source: ViewSource): void {
    if (!this.enabled || notCountedBecause(request.headers) !== undefined) return;
    const userAgent = request.headers["user-agent"]!;
    const at = this.now();
    // A repeat of a waiting view (the same India day, client, browser, address and referrer) only
    // adds to its number: nothing is parsed for it.
    const day = Math.floor((at.getTime() + INDIA_OFFSET_MS) / DAY_MS);
    const key = `${day}\n${request.ip}\n${userAgent}\n${source.url}\n${source.referrer ?? ""}`;
    const same = this.waiting.get(key);
    if (same) {
      same.views += 1;
      return;
    }
    if (this.waiting.size >= MAX_WAITING) return;
    const queryAt = source.url.indexOf("?");
    const path = queryAt === -1 ? source.url : source.url.slice(0, queryAt);
    let utmSource = null;
    let utmMedium = null;
    let utmCampaign = null;
    if (queryAt !== -1 && source.url.includes("utm_", queryAt)) {
      const query = new URLSearchParams(source.url.slice(queryAt + 1));
      utmSource = bounded(query.get("utm_source"));
      utmMedium = bounded(query.get("utm_medium"));
      utmCampaign = bounded(query.get("utm_campaign"));
    }
    const requestHost = String(request.headers.host ?? "")
      .replace(/:\d+$/, "")
      .toLowerCase();
    this.waiting.set(key, {
      at,
      views: 1,
      path: bounded(path, PATH_LIMIT) ?? "/",
      referrerHost: source.referrer ? referrerHost(source.referrer, [this.siteHost, requestHost]) : null,
      utmSource,
      utmMedium,
      utmCampaign,
      userAgent,
      subject: clientSubject(request.ip),
    });
    if (this.waiting.size >= BATCH_SIZE) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), BATCH_DELAY_MS).unref();
  }

  /** Views waiting to be written. */
  get pending(): number {
    let views = 0;
    for (const view of this.waiting.values()) views += view.views;
    return views;
  }

  private salt(day: string): Promise<string> {
    let salt = this.salts.get(day);
    if (!salt) {
      salt = saltOf(this.db, day, this.now());
      salt.catch(() => this.salts.delete(day));
      this.salts.set(day, salt);
      // Only today's and, around midnight, yesterday's are needed.
      if (this.salts.size > 2) this.salts.delete(this.salts.keys().next().value!);
    }
    return salt;
  }

  /** The visitor hash of this request, now. */
  async visitorOf(request: FastifyRequest): Promise<string> {
    const salt = await this.salt(indiaDay(this.now()));
    return visitorHash(salt, clientSubject(request.ip), request.headers["user-agent"] ?? "");
  }

  /** Writes every waiting view; resolves once they (and any batch before them) are written or given up. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = [...this.waiting.values()];
    this.waiting = new Map();
    if (batch.length === 0) return this.writing;
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  private async write(batch: WaitingView[]): Promise<void> {
    try {
      const rows = [];
      for (const view of batch) {
        const salt = await this.salt(indiaDay(view.at));
        rows.push({
          at: view.at.toISOString(),
          path: view.path,
          referrer_host: view.referrerHost,
          utm_source: view.utmSource,
          utm_medium: view.utmMedium,
          utm_campaign: view.utmCampaign,
          device: deviceClass(view.userAgent),
          visitor_hash: visitorHash(salt, view.subject, view.userAgent),
          views: view.views,
        });
      }
      // One parameter for the whole batch: far cheaper to send and parse than nine per row.
      await this.db.execute(sql`
        insert into page_views (at, path, referrer_host, utm_source, utm_medium, utm_campaign, device, visitor_hash, views)
        select at, path, referrer_host, utm_source, utm_medium, utm_campaign, device, visitor_hash, views
        from json_to_recordset(${JSON.stringify(rows)}::json) as batch(
          at timestamptz, path text, referrer_host text, utm_source text, utm_medium text, utm_campaign text,
          device text, visitor_hash text, views integer
        )`);
    } catch (error) {
      // Kept for the next batch while there is room: a short outage loses nothing.
      let kept = 0;
      for (const view of batch) {
        if (this.waiting.size >= MAX_WAITING) break;
        const key = `${view.subject}\n${view.userAgent}\n${view.path}\n${view.at.getTime()}\n${kept}`;
        this.waiting.set(key, view);
        kept += 1;
      }
      this.log?.warn({ err: error, views: batch.length, kept }, "writing page views failed");
      if (this.waiting.size > 0) this.timer ??= setTimeout(() => void this.flush(), BATCH_DELAY_MS * 5).unref();
    }
  }

  /**
   * The attribution of a conversion sent with this request: the same visitor's first view that
   * India day. Undefined when it is not counted (headers, ANALYTICS=false) or had no view today.
   */
  async attributionOf(request: FastifyRequest): Promise<Attribution | undefined> {
    if (!this.enabled || notCountedBecause(request.headers) !== undefined) return undefined;
    const now = this.now();
    const hash = await this.visitorOf(request);
    await this.flush();
    const [first] = await this.db
      .select()
      .from(pageViews)
      .where(and(eq(pageViews.visitorHash, hash), gte(pageViews.at, startOfIndiaDay(indiaDay(now)))))
      .orderBy(asc(pageViews.at), asc(pageViews.id))
      .limit(1);
    if (!first) return undefined;
    return {
      visitorHash: hash,
      landingPage: first.path,
      attributionSource: first.utmSource ?? first.referrerHost,
      attributionMedium: first.utmMedium,
      attributionCampaign: first.utmCampaign,
    };
  }

  /** Stops the timer and writes what is waiting (the app's close). */
  async close(): Promise<void> {
    await this.flush();
  }
}

/** How the inbox shows an enquiry's attribution: "via google, landed on /blog/…"; null when it has none. */
export function attributionLabel(row: {
  landingPage: string | null;
  attributionSource: string | null;
  attributionCampaign?: string | null;
}): string | null {
  if (!row.landingPage) return null;
  const campaign = row.attributionCampaign ? ` (campaign ${row.attributionCampaign})` : "";
  return `via ${row.attributionSource ?? "a direct visit"}${campaign}, landed on ${row.landingPage}`;
}
