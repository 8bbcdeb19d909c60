import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../../test/databases.ts";
import { auditEvents } from "../../db/schema.ts";
import { COMMAND_LINE, pruneAudit, recordAudit } from "./audit.ts";

describe.each(testDrivers)("the audit trail's retention on %s", (driver) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
  });

  it("deletes events older than 24 months, and only those", async () => {
    database = await createTestDatabase(driver, { from: "empty" });
    const now = new Date("2026-11-23T12:00:00Z");
    await recordAudit(database.db, { actor: COMMAND_LINE, action: "sign-out" }, new Date("2024-11-23T11:59:59Z"));
    await recordAudit(database.db, { actor: COMMAND_LINE, action: "sign-in" }, new Date("2024-11-23T12:00:01Z"));
    expect(await pruneAudit(database.db, now)).toBe(1);
    expect((await database.db.select().from(auditEvents)).map((event) => event.action)).toEqual(["sign-in"]);
  });
});
