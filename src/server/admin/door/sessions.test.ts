import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staff, staffSessions } from "../../db/schema.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../../test/databases.ts";
import { createSession, findSession, MAX_SESSIONS_PER_PERSON } from "./sessions.ts";

const MINUTE = 60_000;
const start = new Date("2026-11-25T06:00:00Z");
const at = (minutes: number) => new Date(start.getTime() + minutes * MINUTE);

describe.each(testDrivers)("sessions per person on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver, { from: "empty" });
  });
  afterAll(async () => database.drop());

  async function person(email: string): Promise<string> {
    const [row] = await database.db
      .insert(staff)
      .values({
        email,
        name: email,
        role: "staff",
        createdAt: start,
        webauthnUserId: randomBytes(32).toString("base64url"),
      })
      .returning({ id: staff.id });
    return row!.id;
  }

  it(`keeps the ${MAX_SESSIONS_PER_PERSON} most recently used: a new sign-in ends the least recently used beyond`, async () => {
    const asha = await person("asha@example.com");
    const ravi = await person("ravi@example.com");
    const raviSession = await createSession(database.db, ravi, {
      method: "passkey",
      device: "Firefox on Linux",
      now: at(0),
    });
    const sessions: string[] = [];
    for (let minute = 0; minute < MAX_SESSIONS_PER_PERSON; minute += 1) {
      sessions.push(
        await createSession(database.db, asha, { method: "passkey", device: "Firefox on Linux", now: at(minute) }),
      );
    }
    // The oldest sign-in, used again: now the most recently used.
    expect(await findSession(database.db, sessions[0]!, at(20))).toBeDefined();

    const newest = await createSession(database.db, asha, {
      method: "sign-in-link",
      device: "Chrome on Android",
      now: at(21),
    });
    const live = async (id: string) => (await findSession(database.db, id, at(22))) !== undefined;
    expect(await live(newest)).toBe(true);
    expect(await live(sessions[0]!)).toBe(true);
    // The least recently used (signed in at minute 1, not used since) was ended.
    expect(await live(sessions[1]!)).toBe(false);
    for (const id of sessions.slice(2)) expect(await live(id)).toBe(true);
    expect(await database.db.select().from(staffSessions).where(eq(staffSessions.staffId, asha))).toHaveLength(
      MAX_SESSIONS_PER_PERSON,
    );
    // Another person's sessions are theirs alone.
    expect(await live(raviSession)).toBe(true);

    // Twenty more sign-ins: still ten, the newest ten.
    const more: string[] = [];
    for (let minute = 30; minute < 50; minute += 1) {
      more.push(
        await createSession(database.db, asha, { method: "passkey", device: "Firefox on Linux", now: at(minute) }),
      );
    }
    const left = await database.db.select().from(staffSessions).where(eq(staffSessions.staffId, asha));
    expect(left).toHaveLength(MAX_SESSIONS_PER_PERSON);
    for (const id of more.slice(-MAX_SESSIONS_PER_PERSON))
      expect(await findSession(database.db, id, at(50))).toBeDefined();
  });

  it("keeps the new session even when the others were used later by the clock", async () => {
    const meera = await person("meera@example.com");
    for (let i = 0; i < MAX_SESSIONS_PER_PERSON; i += 1) {
      await createSession(database.db, meera, { method: "passkey", device: "Firefox on Linux", now: at(100) });
    }
    const late = await createSession(database.db, meera, {
      method: "passkey",
      device: "Firefox on Linux",
      now: at(90),
    });
    expect(await findSession(database.db, late, at(101))).toBeDefined();
  });
});
