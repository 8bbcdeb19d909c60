import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.ts";

describe("parseConfig", () => {
  it("reads the company's statutory details, upper-casing the CIN and GSTIN, and refuses malformed ones", () => {
    expect(
      parseConfig({
        COMPANY_LEGAL_NAME: " Sabarmati Grid Engineering Private Limited ",
        COMPANY_CIN: "u74900gj2009ptc056789",
        COMPANY_REGISTERED_OFFICE: "4th Floor, Shivalik Business Centre, Ahmedabad 380054",
        COMPANY_GSTIN: "24aaacs1234a1z5",
        GRIEVANCE_OFFICER_NAME: "Meera Shah",
        GRIEVANCE_OFFICER_EMAIL: "grievance@sabarmatigrid.example",
      }).company,
    ).toEqual({
      legalName: "Sabarmati Grid Engineering Private Limited",
      cin: "U74900GJ2009PTC056789",
      registeredOffice: "4th Floor, Shivalik Business Centre, Ahmedabad 380054",
      gstin: "24AAACS1234A1Z5",
      grievanceOfficerName: "Meera Shah",
      grievanceOfficerEmail: "grievance@sabarmatigrid.example",
    });
    expect(() => parseConfig({ COMPANY_CIN: "U74900GJ2009PTC05678" })).toThrow(
      "Invalid configuration: COMPANY_CIN must be a Corporate Identity Number of 21 characters, as U74900GJ2009PTC056789",
    );
    expect(() => parseConfig({ COMPANY_CIN: "X74900GJ2009PTC056789" })).toThrow(/COMPANY_CIN must be/);
    expect(() => parseConfig({ COMPANY_GSTIN: "24AAACS1234A1Y5" })).toThrow(
      "Invalid configuration: COMPANY_GSTIN must be a GSTIN of 15 characters, as 24AAACS1234A1Z5",
    );
    expect(() => parseConfig({ COMPANY_LEGAL_NAME: "Sabarmati\u001b[2J Grid" })).toThrow(
      "Invalid configuration: COMPANY_LEGAL_NAME must be one line, without control characters",
    );
    expect(() => parseConfig({ COMPANY_REGISTERED_OFFICE: "x".repeat(301) })).toThrow(
      "Invalid configuration: COMPANY_REGISTERED_OFFICE must be at most 300 characters",
    );
    expect(() => parseConfig({ GRIEVANCE_OFFICER_EMAIL: "meera" })).toThrow(
      "Invalid configuration: GRIEVANCE_OFFICER_EMAIL must be an email address",
    );
  });

  it("gives every setting its default when the environment is empty", () => {
    expect(parseConfig({})).toEqual({
      env: "development",
      port: 3000,
      host: "127.0.0.1",
      databaseUrl: undefined,
      dataDir: "./data",
      siteUrl: "http://localhost:3000",
      siteUrlSet: false,
      logLevel: "info",
      contentDir: "./content",
      bodyLimitBytes: 65536,
      dev: false,
      mail: undefined,
      rateLimitPerMinute: 5,
      adminAttemptsPerMinute: 10,
      spamRetentionDays: 30,
      enquiryRetentionDays: 365,
      trustProxy: false,
      formSecret: undefined,
      metricsToken: undefined,
      shutdownTimeoutMs: 10000,
      mailLeaseMs: 60000,
      requestTimeoutMs: 30000,
      connectionTimeoutMs: 90000,
      connectionCheckIntervalMs: 5000,
      maxConnectionsPerClient: 100,
      analytics: true,
      analyticsRetentionDays: 90,
      newsletterPerMinute: 30,
      company: {},
      backup: {
        dir: "./backups",
        time: "02:30",
        keepDaily: 7,
        keepWeekly: 4,
        passphrase: undefined,
        scheduled: true,
        s3: undefined,
      },
    });
  });

  it("reads the limits on slow and greedy clients", () => {
    expect(
      parseConfig({
        REQUEST_TIMEOUT_MS: "20000",
        CONNECTION_TIMEOUT_MS: "60000",
        CONNECTION_CHECK_INTERVAL_MS: "1000",
        MAX_CONNECTIONS_PER_CLIENT: "0",
      }),
    ).toMatchObject({
      requestTimeoutMs: 20000,
      connectionTimeoutMs: 60000,
      connectionCheckIntervalMs: 1000,
      maxConnectionsPerClient: 0,
    });
  });

  it("reads the settings it is given, treating empty values as unset", () => {
    const config = parseConfig({
      PORT: "8080",
      HOST: "0.0.0.0",
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/site",
      DATA_DIR: "/var/lib/site",
      SITE_URL: "https://www.sabarmatigrid.example/",
      LOG_LEVEL: "warn",
      SERVE_DEV: "true",
      CONTENT_DIR: "",
    });
    expect(config).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      databaseUrl: "postgres://postgres@127.0.0.1:5432/site",
      dataDir: "/var/lib/site",
      siteUrl: "https://www.sabarmatigrid.example",
      siteUrlSet: true,
      logLevel: "warn",
      dev: true,
      contentDir: "./content",
    });
  });

  it("turns on mail only when SMTP_URL, MAIL_FROM and MAIL_TO are all set", () => {
    expect(
      parseConfig({
        SMTP_URL: "smtp://127.0.0.1:2525",
        MAIL_FROM: "website@sabarmatigrid.example",
        MAIL_TO: "enquiries@sabarmatigrid.example, md@sabarmatigrid.example",
        MAIL_ACKNOWLEDGE: "true",
      }).mail,
    ).toEqual({
      smtpUrl: "smtp://127.0.0.1:2525",
      from: "website@sabarmatigrid.example",
      to: ["enquiries@sabarmatigrid.example", "md@sabarmatigrid.example"],
      acknowledge: true,
    });
    expect(() => parseConfig({ SMTP_URL: "smtp://x", MAIL_FROM: "a@b.co", MAIL_TO: "nobody" })).toThrow(/MAIL_TO/);
  });

  it.each([
    ["false", false],
    ["0", false],
    // One proxy hop, never Fastify's `true` (which believes the client-written left-most address).
    ["true", 1],
    ["2", 2],
    ["127.0.0.1", ["127.0.0.1"]],
    ["10.0.0.0/8, ::1 ,loopback", ["10.0.0.0/8", "::1", "loopback"]],
  ])("reads TRUST_PROXY=%s as %o", (value, expected) => {
    expect(parseConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each([
    [{ PORT: "web" }, "Invalid configuration: PORT must be a number"],
    [{ PORT: "70000" }, "Invalid configuration: PORT must be between 0 and 65535"],
    [
      { DATABASE_URL: "mysql://root@localhost/site" },
      "Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL",
    ],
    [{ SITE_URL: "www.example.com" }, "Invalid configuration: SITE_URL must be an http:// or https:// URL"],
    [
      { LOG_LEVEL: "loud" },
      "Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
    ],
    [{ SERVE_DEV: "maybe" }, "Invalid configuration: SERVE_DEV must be true or false"],
    [{ SMTP_URL: "http://mail" }, "Invalid configuration: SMTP_URL must be an smtp:// or smtps:// URL"],
    [{ SMTP_URL: "smtp://127.0.0.1:2525" }, "Invalid configuration: MAIL_FROM and MAIL_TO must be set too"],
    [{ RATE_LIMIT_PER_MINUTE: "0" }, "Invalid configuration: RATE_LIMIT_PER_MINUTE must be at least 1"],
    [{ FORM_SECRET: "short" }, "Invalid configuration: FORM_SECRET must be at least 16 characters"],
    [
      { TRUST_PROXY: "nginx" },
      "Invalid configuration: TRUST_PROXY must be true, false, a number of proxy hops, or comma-separated proxy addresses or CIDR ranges",
    ],
    [{ TRUST_PROXY: "10.0.0.0/33" }, "Invalid configuration: TRUST_PROXY must be true, false"],
    [{ REQUEST_TIMEOUT_MS: "0" }, "Invalid configuration: REQUEST_TIMEOUT_MS must be between 100 and 600000"],
    [{ REQUEST_TIMEOUT_MS: "soon" }, "Invalid configuration: REQUEST_TIMEOUT_MS must be a number"],
    [
      { CONNECTION_TIMEOUT_MS: "900000" },
      "Invalid configuration: CONNECTION_TIMEOUT_MS must be between 100 and 600000",
    ],
    [
      { CONNECTION_CHECK_INTERVAL_MS: "5" },
      "Invalid configuration: CONNECTION_CHECK_INTERVAL_MS must be between 10 and 60000",
    ],
    [
      { MAX_CONNECTIONS_PER_CLIENT: "-1" },
      "Invalid configuration: MAX_CONNECTIONS_PER_CLIENT must be 0 (no cap) or more",
    ],
    [{ MAX_CONNECTIONS_PER_CLIENT: "1.5" }, "Invalid configuration: MAX_CONNECTIONS_PER_CLIENT must be a whole number"],
    [{ ANALYTICS: "maybe" }, "Invalid configuration: ANALYTICS must be true or false"],
    [{ ANALYTICS_RETENTION_DAYS: "0" }, "Invalid configuration: ANALYTICS_RETENTION_DAYS must be between 1 and 3650"],
  ])("rejects %o with one line naming the variable", (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
    try {
      parseConfig(env);
    } catch (error) {
      expect((error as Error).message).not.toContain("\n");
    }
  });
});
