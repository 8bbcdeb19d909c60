import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimitWindows, spamTally, usedFormTokens } from "../db/schema.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { FORM_TOKEN_LIFETIME_MS } from "./form-token.ts";
import { hitRateLimit, pruneRateLimits } from "./rate-limit.ts";
import { pruneSpamRecords, useFormToken } from "./spam.ts";

// What the spam defences keep does not grow for ever: housekeeping (every 10 minutes on every
// instance) deletes what can no longer matter.

describe.each(testDrivers)("housekeeping of the spam defences on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver, { from: "empty" });
  });
  afterAll(async () => {
    await database.drop();
  });

  it("forgets a used token once the token is past its lifetime (plus an hour), and keeps the others", async () => {
    const hour = 60 * 60 * 1000;
    const issued = (ago: number) => ({ signature: randomUUID(), issuedAt: new Date(Date.now() - ago) });
    const outlived = issued(FORM_TOKEN_LIFETIME_MS + 2 * hour);
    const recent = issued(FORM_TOKEN_LIFETIME_MS - hour);
    for (const token of [outlived, recent]) await useFormToken(database.db, token, randomUUID());
    await pruneSpamRecords(database.db);
    const left = await database.db.select({ signature: usedFormTokens.signature }).from(usedFormTokens);
    expect(left.map((row) => row.signature)).toEqual([recent.signature]);
  });

  it("deletes spam tallies past the spam retention period", async () => {
    await database.db.execute(sql`insert into spam_tally (hour, stored) values
      (date_trunc('hour', now()) - interval '31 days', 5), (date_trunc('hour', now()) - interval '29 days', 7)`);
    await pruneSpamRecords(database.db);
    expect((await database.db.select().from(spamTally)).map((row) => row.stored)).toEqual([7]);
  });

  it("deletes rate-limit windows nothing has hit for longer than their length", async () => {
    await hitRateLimit(database.db, "old-minute", 5, 60);
    await hitRateLimit(database.db, "fresh-minute", 5, 60);
    await hitRateLimit(database.db, "day-long", 1, 24 * 60 * 60);
    await database.db.execute(
      sql`update rate_limit_windows set expires_at = expires_at - interval '61 seconds' where key in ('old-minute', 'day-long')`,
    );
    await pruneRateLimits(database.db);
    const left = await database.db.select({ key: rateLimitWindows.key }).from(rateLimitWindows);
    expect(left.map((row) => row.key).sort()).toEqual(["day-long", "fresh-minute"]);
  });
});
