import { randomBytes, randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staff, staffSessions, staffTokens } from "../../db/schema.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../../test/databases.ts";
import { createSession } from "../door/sessions.ts";
import {
  changeRoleKeepingAnAdmin,
  createToken,
  disableStaffKeepingAnAdmin,
  peekToken,
  type StaffRole,
} from "./staff-repository.ts";

// The last-admin rule: no change may leave the back office without an active admin. The check
// and the change are one transaction with the admins locked, so two admins disabling (or
// demoting) each other at once leave one, not none.

const now = new Date("2026-11-25T06:00:00Z");
let people = 0;

describe.each(testDrivers)("keeping an active admin on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver, { from: "empty" });
  });
  afterAll(async () => database.drop());

  async function member(role: StaffRole): Promise<string> {
    people += 1;
    const [row] = await database.db
      .insert(staff)
      .values({
        email: `person.${people}@example.com`,
        name: `Person ${people}`,
        role,
        createdAt: now,
        webauthnUserId: randomBytes(32).toString("base64url"),
      })
      .returning({ id: staff.id });
    return row!.id;
  }

  /** Disables every active admin behind the rule's back: each case starts from the admins it makes. */
  async function noAdmins() {
    await database.db
      .update(staff)
      .set({ disabledAt: now })
      .where(and(eq(staff.role, "admin"), isNull(staff.disabledAt)));
  }

  const activeAdmins = async () =>
    (
      await database.db
        .select({ id: staff.id })
        .from(staff)
        .where(and(eq(staff.role, "admin"), isNull(staff.disabledAt)))
    ).map((row) => row.id);

  it("refuses to disable or demote the last active admin, one change after another", async () => {
    await noAdmins();
    const first = await member("admin");
    const second = await member("admin");
    const engineer = await member("staff");

    expect(await disableStaffKeepingAnAdmin(database.db, engineer, now)).toEqual({ outcome: "done", sessionsEnded: 0 });
    expect(await changeRoleKeepingAnAdmin(database.db, second, "staff")).toBe("done");
    expect(await activeAdmins()).toEqual([first]);
    expect(await disableStaffKeepingAnAdmin(database.db, first, now)).toEqual({
      outcome: "last-admin",
      sessionsEnded: 0,
    });
    expect(await changeRoleKeepingAnAdmin(database.db, first, "staff")).toBe("last-admin");
    expect(await activeAdmins()).toEqual([first]);
    // Making someone admin, or an admin admin again, is never refused; then the first may go.
    expect(await changeRoleKeepingAnAdmin(database.db, first, "admin")).toBe("done");
    expect(await changeRoleKeepingAnAdmin(database.db, second, "admin")).toBe("done");
    expect((await disableStaffKeepingAnAdmin(database.db, first, now)).outcome).toBe("done");
    expect(await activeAdmins()).toEqual([second]);
    // A disabled admin is no active admin: demoting one leaves the rule untouched.
    expect(await changeRoleKeepingAnAdmin(database.db, first, "staff")).toBe("done");
  });

  it("says not-found for an unknown or malformed id", async () => {
    expect(await disableStaffKeepingAnAdmin(database.db, randomUUID(), now)).toEqual({
      outcome: "not-found",
      sessionsEnded: 0,
    });
    expect(await changeRoleKeepingAnAdmin(database.db, randomUUID(), "staff")).toBe("not-found");
    expect((await disableStaffKeepingAnAdmin(database.db, "nonsense", now)).outcome).toBe("not-found");
    expect(await changeRoleKeepingAnAdmin(database.db, "1' or '1'='1", "admin")).toBe("not-found");
  });

  it("ends the sessions and links of the member it disables", async () => {
    await member("admin");
    const engineer = await member("staff");
    await createSession(database.db, engineer, { method: "passkey", device: "Firefox on Linux", now });
    await createSession(database.db, engineer, { method: "passkey", device: "Chrome on Android", now });
    const link = await createToken(database.db, engineer, "sign-in", now);
    expect(await disableStaffKeepingAnAdmin(database.db, engineer, now)).toEqual({ outcome: "done", sessionsEnded: 2 });
    expect(await database.db.select().from(staffSessions).where(eq(staffSessions.staffId, engineer))).toEqual([]);
    expect(await peekToken(database.db, link, "sign-in", now)).toBeUndefined();
    const [token] = await database.db.select().from(staffTokens).where(eq(staffTokens.staffId, engineer));
    expect(token?.usedAt).toEqual(now);
  });

  // On PostgreSQL the two transactions run at once on two connections; PGlite runs them one after
  // the other, where the rule holds as in the first test.
  it("leaves exactly one active admin when the last two disable or demote each other at once, 20 times", async () => {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      await noAdmins();
      const a = await member("admin");
      const b = await member("admin");
      const results = await Promise.all(
        attempt % 2 === 0
          ? [
              disableStaffKeepingAnAdmin(database.db, a, now).then((result) => result.outcome),
              disableStaffKeepingAnAdmin(database.db, b, now).then((result) => result.outcome),
            ]
          : [
              disableStaffKeepingAnAdmin(database.db, a, now).then((result) => result.outcome),
              changeRoleKeepingAnAdmin(database.db, b, "staff"),
            ],
      );
      expect(results.sort(), `attempt ${attempt}`).toEqual(["done", "last-admin"]);
      expect(await activeAdmins(), `attempt ${attempt}`).toHaveLength(1);
    }
  });
});
