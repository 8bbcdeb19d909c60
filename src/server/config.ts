import { isIP } from "node:net";
import { z } from "zod";
import { retention } from "#shared/retention.ts";
import { CIN_PATTERN, type CompanyDetails, GSTIN_PATTERN } from "#shared/company.ts";
import { BucketUrlError, parseBucketUrl, type BucketUrl } from "./backup/bucket-url.ts";

const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const booleanFromEnv = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
  .transform((value) => value === "true" || value === "1" || value === "yes");

/** Names proxy-addr (Fastify's trustProxy) knows for ranges of addresses. */
const namedProxyRanges = new Set(["loopback", "linklocal", "uniquelocal"]);

function isProxyAddress(entry: string): boolean {
  if (namedProxyRanges.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Who may set X-Forwarded-For: nobody (false), the nearest `n` proxies (a hop count; `true` means
 * one, the usual nginx in front), or the proxies at these addresses. Never Fastify's
 * `trustProxy: true`, which takes the left-most address: the one the client wrote.
 */
const trustProxyFromEnv = z.string().transform((value, context): false | number | string[] => {
  const text = value.trim().toLowerCase();
  if (text === "false" || text === "no") return false;
  if (text === "true" || text === "yes") return 1;
  if (/^\d+$/.test(text)) return Number(text) === 0 ? false : Number(text);
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length > 0 && entries.every(isProxyAddress)) return entries;
  context.addIssue({
    code: "custom",
    message: "must be true, false, a number of proxy hops, or comma-separated proxy addresses or CIDR ranges",
  });
  return z.NEVER;
});

/** One line of text shown on the pages: at most `max` characters, no control characters. */
const printableLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, "must be one line, without control characters");

const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be between 0 and 65535")
    .max(65535, "must be between 0 and 65535")
    .default(3000),
  HOST: z.string().min(1, "must not be empty").default("127.0.0.1"),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" }).optional(),
  DATA_DIR: z.string().min(1, "must not be empty").default("./data"),
  SITE_URL: z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .transform((value) => value.replace(/\/+$/, ""))
    .optional(),
  LOG_LEVEL: z.enum(logLevels, { error: `must be one of ${logLevels.join(", ")}` }).default("info"),
  CONTENT_DIR: z.string().min(1, "must not be empty").default("./content"),
  BODY_LIMIT_BYTES: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1024, "must be at least 1024")
    .max(10 * 1024 * 1024, "must be at most 10485760")
    .default(64 * 1024),
  SERVE_DEV: booleanFromEnv.optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  MAIL_FROM: z.email("must be an email address").optional(),
  MAIL_TO: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((address) => address.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.email({ error: "must be one or more comma-separated email addresses" }))
        .min(1, "must be one or more comma-separated email addresses"),
    )
    .optional(),
  MAIL_ACKNOWLEDGE: booleanFromEnv.optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .default(5),
  ADMIN_ATTEMPTS_PER_MINUTE: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .default(10),
  SPAM_RETENTION_DAYS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 3650")
    .max(3650, "must be between 1 and 3650")
    .default(retention.spamDays),
  ENQUIRY_RETENTION_DAYS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 3650")
    .max(3650, "must be between 1 and 3650")
    .default(retention.closedEnquiryDays),
  TRUST_PROXY: trustProxyFromEnv.optional(),
  FORM_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  METRICS_TOKEN: z
    .string()
    .min(16, "must be at least 16 characters")
    .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces (it is sent in an Authorization header)")
    .optional(),
  MAIL_LEASE_MS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1000, "must be at least 1000")
    .default(60_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .default(10_000),
  REQUEST_TIMEOUT_MS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(100, "must be between 100 and 600000")
    .max(600_000, "must be between 100 and 600000")
    .default(30_000),
  CONNECTION_TIMEOUT_MS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(100, "must be between 100 and 600000")
    .max(600_000, "must be between 100 and 600000")
    .default(90_000),
  CONNECTION_CHECK_INTERVAL_MS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(10, "must be between 10 and 60000")
    .max(60_000, "must be between 10 and 60000")
    .default(5000),
  MAX_CONNECTIONS_PER_CLIENT: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be 0 (no cap) or more")
    .default(100),
  ANALYTICS: booleanFromEnv.optional(),
  ANALYTICS_RETENTION_DAYS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 3650")
    .max(3650, "must be between 1 and 3650")
    .default(retention.analyticsDays),
  NEWSLETTER_PER_MINUTE: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 100000")
    .max(100_000, "must be between 1 and 100000")
    .default(30),
  // The company's statutory details (#shared/company.ts): shown in every page's footer and the privacy notice.
  COMPANY_LEGAL_NAME: printableLine(200).optional(),
  COMPANY_CIN: z
    .string()
    .trim()
    .toUpperCase()
    .regex(CIN_PATTERN, "must be a Corporate Identity Number of 21 characters, as U74900GJ2009PTC056789")
    .optional(),
  COMPANY_REGISTERED_OFFICE: printableLine(300).optional(),
  COMPANY_GSTIN: z
    .string()
    .trim()
    .toUpperCase()
    .regex(GSTIN_PATTERN, "must be a GSTIN of 15 characters, as 24AAACS1234A1Z5")
    .optional(),
  GRIEVANCE_OFFICER_NAME: printableLine(200).optional(),
  GRIEVANCE_OFFICER_EMAIL: z.email("must be an email address").optional(),
  BACKUP_DIR: z.string().min(1, "must not be empty").default("./backups"),
  BACKUP_TIME: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time of day in India, HH:MM (24-hour)")
    .default("02:30"),
  BACKUP_KEEP_DAILY: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 366")
    .max(366, "must be between 1 and 366")
    .default(7),
  BACKUP_KEEP_WEEKLY: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be between 0 and 52")
    .max(52, "must be between 0 and 52")
    .default(4),
  BACKUP_PASSPHRASE: z.string().min(12, "must be at least 12 characters").optional(),
  BACKUP_SCHEDULE: booleanFromEnv.optional(),
  // Its messages never repeat the URL, which may hold a secret.
  BACKUP_S3_URL: z
    .string()
    .transform((value, context) => {
      try {
        return parseBucketUrl(value);
      } catch (error) {
        if (!(error instanceof BucketUrlError)) throw error;
        context.addIssue({ code: "custom", message: error.problem });
        return z.NEVER;
      }
    })
    .optional(),
});

export type Config = {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  /** Set: PostgreSQL server through `pg`. Unset: embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  siteUrl: string;
  /**
   * SITE_URL was set. When it was not, the site is taken to run on a developer's machine: forms
   * are accepted from any loopback origin (localhost, 127.0.0.1, [::1]) as well.
   */
  siteUrlSet: boolean;
  logLevel: (typeof logLevels)[number];
  contentDir: string;
  bodyLimitBytes: number;
  /** Vite in middleware mode (npm run dev) instead of the built assets. */
  dev: boolean;
  /** Set when SMTP_URL, MAIL_FROM and MAIL_TO all are: enquiries are then emailed to the firm. */
  mail: { smtpUrl: string; from: string; to: string[]; acknowledge: boolean } | undefined;
  rateLimitPerMinute: number;
  /** Spam is deleted this many days after it arrived. */
  spamRetentionDays: number;
  /** Closed enquiries (Won, Lost) are deleted this many days after they closed. */
  enquiryRetentionDays: number;
  /** Sign-in, invitation and sign-in-link attempts one client may make a minute in the back office. */
  adminAttemptsPerMinute: number;
  /**
   * Which proxies' X-Forwarded-For entries to believe (Fastify's trustProxy): none, the nearest
   * `n` hops, or the listed addresses and ranges. The client address is the first one not trusted.
   */
  trustProxy: false | number | string[];
  /** Signs the form timestamps; when unset the instances share one generated in the database. */
  formSecret: string | undefined;
  /** Set: GET /metrics answers whoever sends `Authorization: Bearer <it>` (metrics/). Unset: /metrics is off. */
  metricsToken: string | undefined;
  /** How long a worker's claim on a mail lasts; another instance sends it after that. */
  mailLeaseMs: number;
  /** How long a shutdown waits for requests in flight before cutting their connections. */
  shutdownTimeoutMs: number;
  /** The whole request (headers and body) must arrive within this, or it is answered 408 and closed. */
  requestTimeoutMs: number;
  /** A connection on which nothing moves for this long is closed. */
  connectionTimeoutMs: number;
  /** How often Node looks for requests past their timeout. */
  connectionCheckIntervalMs: number;
  /** Connections one client (an IPv4 address, an IPv6 /64) may hold at once; 0: no cap. Trusted proxies are not capped. */
  maxConnectionsPerClient: number;
  /** Count page views (cookieless analytics); ANALYTICS=false turns counting and its storage off. */
  analytics: boolean;
  /** Raw page views are deleted after this many days; the daily roll-up stays. */
  analyticsRetentionDays: number;
  /**
   * Newsletter mails all instances together send a minute (docs/decisions/045-newsletter-sending.md).
   * 30 by default: Exchange Online's limit of 30 messages a minute per mailbox is the strictest of
   * the common providers, and at 30 a minute 1,000 subscribers take about half an hour, which a
   * monthly letter can wait. Raise it only as far as the SMTP provider allows.
   */
  newsletterPerMinute: number;
  /** The company's statutory details, each unset until configured (#shared/company.ts). */
  company: CompanyDetails;
  /** Backups (docs/decisions/051-backups-that-restore.md). */
  backup: {
    /** Where archives are written and kept, with the erasure ledger beside them. */
    dir: string;
    /** The daily backup's time of day, India time, "HH:MM". */
    time: string;
    keepDaily: number;
    keepWeekly: number;
    /** Set: archives are encrypted with it (archive-crypto.ts). */
    passphrase: string | undefined;
    /** The site makes the daily backup; BACKUP_SCHEDULE=false turns it off (the commands still work). */
    scheduled: boolean;
    /** BACKUP_S3_URL: each archive is copied to this bucket and kept there by the same rules (backup/offsite.ts). */
    s3: BucketUrl | undefined;
  };
};

export class ConfigError extends Error {}

/**
 * Parses the process environment into the typed configuration. The only module that reads
 * environment variables; a bad value throws a ConfigError whose message is one line naming the
 * variable and what is wrong with it.
 */
export function parseConfig(env: Record<string, string | undefined>): Config {
  // Empty strings (KEY= in a .env file) mean "not set".
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
  const result = configSchema.safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  }
  const c = result.data;
  const mailParts = [c.SMTP_URL, c.MAIL_FROM, c.MAIL_TO];
  if (mailParts.some(Boolean) && !mailParts.every(Boolean)) {
    const missing = ["SMTP_URL", "MAIL_FROM", "MAIL_TO"].filter((_, index) => !mailParts[index]);
    throw new ConfigError(
      `Invalid configuration: ${missing.join(" and ")} must be set too when any of SMTP_URL, MAIL_FROM, MAIL_TO is`,
    );
  }
  return {
    env: c.NODE_ENV,
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL,
    dataDir: c.DATA_DIR,
    siteUrl: c.SITE_URL ?? `http://localhost:${c.PORT}`,
    siteUrlSet: c.SITE_URL !== undefined,
    logLevel: c.LOG_LEVEL,
    contentDir: c.CONTENT_DIR,
    bodyLimitBytes: c.BODY_LIMIT_BYTES,
    dev: c.SERVE_DEV ?? false,
    mail:
      c.SMTP_URL && c.MAIL_FROM && c.MAIL_TO
        ? { smtpUrl: c.SMTP_URL, from: c.MAIL_FROM, to: c.MAIL_TO, acknowledge: c.MAIL_ACKNOWLEDGE ?? false }
        : undefined,
    rateLimitPerMinute: c.RATE_LIMIT_PER_MINUTE,
    adminAttemptsPerMinute: c.ADMIN_ATTEMPTS_PER_MINUTE,
    spamRetentionDays: c.SPAM_RETENTION_DAYS,
    enquiryRetentionDays: c.ENQUIRY_RETENTION_DAYS,
    trustProxy: c.TRUST_PROXY ?? false,
    formSecret: c.FORM_SECRET,
    metricsToken: c.METRICS_TOKEN,
    shutdownTimeoutMs: c.SHUTDOWN_TIMEOUT_MS,
    mailLeaseMs: c.MAIL_LEASE_MS,
    requestTimeoutMs: c.REQUEST_TIMEOUT_MS,
    connectionTimeoutMs: c.CONNECTION_TIMEOUT_MS,
    connectionCheckIntervalMs: c.CONNECTION_CHECK_INTERVAL_MS,
    maxConnectionsPerClient: c.MAX_CONNECTIONS_PER_CLIENT,
    analytics: c.ANALYTICS ?? true,
    analyticsRetentionDays: c.ANALYTICS_RETENTION_DAYS,
    newsletterPerMinute: c.NEWSLETTER_PER_MINUTE,
    company: {
      legalName: c.COMPANY_LEGAL_NAME,
      cin: c.COMPANY_CIN,
      registeredOffice: c.COMPANY_REGISTERED_OFFICE,
      gstin: c.COMPANY_GSTIN,
      grievanceOfficerName: c.GRIEVANCE_OFFICER_NAME,
      grievanceOfficerEmail: c.GRIEVANCE_OFFICER_EMAIL,
    },
    backup: {
      dir: c.BACKUP_DIR,
      time: c.BACKUP_TIME,
      keepDaily: c.BACKUP_KEEP_DAILY,
      keepWeekly: c.BACKUP_KEEP_WEEKLY,
      passphrase: c.BACKUP_PASSPHRASE,
      scheduled: c.BACKUP_SCHEDULE ?? true,
      s3: c.BACKUP_S3_URL,
    },
  };
}
