import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, lt, ne, notInArray, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { staff, staffSessions, type StaffRow } from "../../db/schema.ts";

// Staff sessions live in the database, so every instance sees a sign-out, a disabled account or
// an ended session on the next request. The cookie holds a random 256-bit ID; the table holds only
// its SHA-256, so a copy of the table cannot be used to sign in.
// docs/decisions/026-passkeys-and-database-sessions.md says why.

export const SESSION_COOKIE = "staff_session";
/** A session ends after this long without a request… */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** …and this long after sign-in, however active. */
export const SESSION_MAX_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * Sessions kept per person: a new sign-in ends the least recently used beyond this many. Enough
 * for every device someone uses; it bounds the rows a person's sign-ins (or a stolen passkey's)
 * can pile up, and the sessions a forgotten browser keeps alive.
 */
export const MAX_SESSIONS_PER_PERSON = 10;
/** last_seen_at is written at most this often per session, not on every request. */
const TOUCH_EVERY_MS = 60 * 1000;

export type SessionMethod = "passkey" | "invitation" | "sign-in-link";

export type StaffMember = Pick<StaffRow, "id" | "email" | "name" | "role" | "canPublish">;
export type StaffSession = { idHash: string; staff: StaffMember; createdAt: Date; method: string };

export const hashSecret = (value: string) => createHash("sha256").update(value).digest("hex");

/** A new random secret for a cookie or a link: 32 bytes, base64url. */
export const newSecret = () => randomBytes(32).toString("base64url");

/**
 * Starts a session for a member of staff, ending their least recently used beyond
 * MAX_SESSIONS_PER_PERSON; returns the ID for the cookie (never stored itself).
 */
export async function createSession(
  db: Database,
  staffId: string,
  options: { method: SessionMethod; device: string; now: Date },
): Promise<string> {
  const id = newSecret();
  const idHash = hashSecret(id);
  await db.insert(staffSessions).values({
    idHash,
    staffId,
    createdAt: options.now,
    lastSeenAt: options.now,
    expiresAt: new Date(options.now.getTime() + SESSION_MAX_MS),
    method: options.method,
    device: options.device.slice(0, 80),
  });
  // Kept: the new session (whatever the clocks say) and the most recently used of the others.
  const others = and(eq(staffSessions.staffId, staffId), ne(staffSessions.idHash, idHash));
  const kept = db
    .select({ idHash: staffSessions.idHash })
    .from(staffSessions)
    .where(others)
    .orderBy(desc(staffSessions.lastSeenAt), desc(staffSessions.createdAt), desc(staffSessions.idHash))
    .limit(MAX_SESSIONS_PER_PERSON - 1);
  await db.delete(staffSessions).where(and(others, notInArray(staffSessions.idHash, kept)));
  await db.update(staff).set({ lastSignInAt: options.now }).where(eq(staff.id, staffId));
  return id;
}

/**
 * The live session this cookie value names, with its member of staff: not ended, not past its
 * idle or absolute limit, and its person not disabled. Undefined otherwise.
 */
export async function findSession(db: Database, cookieValue: string, now: Date): Promise<StaffSession | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(cookieValue)) return undefined;
  const idHash = hashSecret(cookieValue);
  const [row] = await db
    .select({
      idHash: staffSessions.idHash,
      createdAt: staffSessions.createdAt,
      lastSeenAt: staffSessions.lastSeenAt,
      method: staffSessions.method,
      staff: { id: staff.id, email: staff.email, name: staff.name, role: staff.role, canPublish: staff.canPublish },
    })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .where(
      and(
        eq(staffSessions.idHash, idHash),
        gt(staffSessions.expiresAt, now),
        gt(staffSessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)),
        sql`${staff.disabledAt} is null`,
      ),
    );
  if (!row) return undefined;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.idHash, idHash));
  }
  return { idHash: row.idHash, staff: row.staff, createdAt: row.createdAt, method: row.method };
}

/** Ends one session (signing out). */
export async function endSession(db: Database, idHash: string): Promise<void> {
  await db.delete(staffSessions).where(eq(staffSessions.idHash, idHash));
}

/** Ends every session of a member of staff; returns how many there were. */
export async function endSessionsOf(db: Database, staffId: string): Promise<number> {
  const ended = await db
    .delete(staffSessions)
    .where(eq(staffSessions.staffId, staffId))
    .returning({ idHash: staffSessions.idHash });
  return ended.length;
}

/** Deletes sessions past their limits: they can never be used again. */
export async function pruneSessions(db: Database, now: Date = new Date()): Promise<void> {
  await db
    .delete(staffSessions)
    .where(
      or(lt(staffSessions.expiresAt, now), lt(staffSessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS))),
    );
}

/** The Set-Cookie value for a session: HttpOnly, SameSite=Strict, Path=/admin, Secure on https. */
export function sessionCookie(id: string, options: { secure: boolean }): string {
  return [
    `${SESSION_COOKIE}=${id}`,
    "Path=/admin",
    "HttpOnly",
    "SameSite=Strict",
    `Max-Age=${SESSION_MAX_MS / 1000}`,
    ...(options.secure ? ["Secure"] : []),
  ].join("; ");
}

/** The Set-Cookie value that removes the session cookie. */
export function clearedSessionCookie(options: { secure: boolean }): string {
  return [
    `${SESSION_COOKIE}=`,
    "Path=/admin",
    "HttpOnly",
    "SameSite=Strict",
    "Max-Age=0",
    ...(options.secure ? ["Secure"] : []),
  ].join("; ");
}

/** The session cookie's value from a Cookie header, if there is one. */
export function sessionCookieValue(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** "Firefox on Linux": what a person needs to tell their sessions and passkeys apart. */
export function describeDevice(userAgent: string | undefined): string {
  const ua = userAgent ?? "";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : "A browser";
  const system = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad/.test(ua)
      ? "iOS"
      : /Mac OS X/.test(ua)
        ? "macOS"
        : /Windows/.test(ua)
          ? "Windows"
          : /Linux/.test(ua)
            ? "Linux"
            : "an unknown system";
  return `${browser} on ${system}`;
}
