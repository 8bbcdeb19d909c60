import { randomBytes } from "node:crypto";
import { and, asc, count, eq, gt, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { passkeys, staff, staffSessions, staffTokens, type StaffRow } from "../../db/schema.ts";
import { STAFF_ROLES } from "#shared/admin/schemas.ts";
import { normaliseEmail } from "#shared/schemas/email.ts";
import { isUuid } from "#shared/schemas/identifiers.ts";
import { hashSecret, newSecret } from "../door/sessions.ts";

// Members of staff and the one-time links that let them in: an invitation (24 hours, to create a
// first passkey) and a sign-in link (15 minutes, the way back in for someone who lost their device).
// A link's token is random; only its SHA-256 is stored, and using it marks it used in the same
// statement that checks it, so two uses at once cannot both succeed.

export const INVITATION_TTL_MS = 24 * 60 * 60 * 1000;
export const SIGN_IN_LINK_TTL_MS = 15 * 60 * 1000;

export type StaffRole = (typeof STAFF_ROLES)[number];
export { normaliseEmail, STAFF_ROLES };
export type TokenKind = "invitation" | "sign-in";

export async function findStaffByEmail(db: Database, email: string): Promise<StaffRow | undefined> {
  const [row] = await db
    .select()
    .from(staff)
    .where(eq(staff.email, normaliseEmail(email)));
  return row;
}

export async function findStaffById(db: Database, id: string): Promise<StaffRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(staff).where(eq(staff.id, id));
  return row;
}

/**
 * Adds a member of staff, or finds the one with this address, and makes an invitation for them.
 * An existing member keeps their name and role: inviting them again only sends a new link (a role
 * changes by changeRoleKeepingAnAdmin, its own audited action). Returns the token for the link.
 */
export async function inviteStaff(
  db: Database,
  input: { email: string; name: string; role: StaffRole },
  now: Date,
): Promise<{ member: StaffRow; token: string; created: boolean }> {
  const email = normaliseEmail(input.email);
  const existing = await findStaffByEmail(db, email);
  const member =
    existing ??
    (
      await db
        .insert(staff)
        .values({
          email,
          name: input.name,
          role: input.role,
          createdAt: now,
          webauthnUserId: randomBytes(32).toString("base64url"),
        })
        .returning()
    )[0]!;
  const token = await createToken(db, member.id, "invitation", now);
  return { member, token, created: !existing };
}

export async function createToken(db: Database, staffId: string, kind: TokenKind, now: Date): Promise<string> {
  const token = newSecret();
  const ttl = kind === "invitation" ? INVITATION_TTL_MS : SIGN_IN_LINK_TTL_MS;
  await db
    .insert(staffTokens)
    .values({ tokenHash: hashSecret(token), kind, staffId, createdAt: now, expiresAt: new Date(now.getTime() + ttl) });
  return token;
}

const tokenShape = /^[A-Za-z0-9_-]{43}$/;

/** The active member of staff a live, unused link of this kind is for, without using it. */
export async function peekToken(
  db: Database,
  token: string,
  kind: TokenKind,
  now: Date,
): Promise<StaffRow | undefined> {
  if (!tokenShape.test(token)) return undefined;
  const [row] = await db
    .select({ member: staff })
    .from(staffTokens)
    .innerJoin(staff, eq(staff.id, staffTokens.staffId))
    .where(
      and(
        eq(staffTokens.tokenHash, hashSecret(token)),
        eq(staffTokens.kind, kind),
        isNull(staffTokens.usedAt),
        gt(staffTokens.expiresAt, now),
        isNull(staff.disabledAt),
      ),
    );
  return row?.member;
}

/** Uses a link: marks it used and returns its member of staff, or undefined if it was not live. */
export async function useToken(db: Database, token: string, kind: TokenKind, now: Date): Promise<StaffRow | undefined> {
  if (!tokenShape.test(token)) return undefined;
  const [used] = await db
    .update(staffTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(staffTokens.tokenHash, hashSecret(token)),
        eq(staffTokens.kind, kind),
        isNull(staffTokens.usedAt),
        gt(staffTokens.expiresAt, now),
      ),
    )
    .returning({ staffId: staffTokens.staffId });
  if (!used) return undefined;
  const member = await findStaffById(db, used.staffId);
  return member && !member.disabledAt ? member : undefined;
}

export type StaffListEntry = StaffRow & { passkeys: number; sessions: number };

/** Every member of staff, with how many passkeys and live sessions each has. */
export async function listStaff(db: Database, now: Date): Promise<StaffListEntry[]> {
  const members = await db.select().from(staff).orderBy(asc(staff.name));
  const keyCounts = await db.select({ staffId: passkeys.staffId, n: count() }).from(passkeys).groupBy(passkeys.staffId);
  const sessionCounts = await db
    .select({ staffId: staffSessions.staffId, n: count() })
    .from(staffSessions)
    .where(gt(staffSessions.expiresAt, now))
    .groupBy(staffSessions.staffId);
  const keys = new Map(keyCounts.map((row) => [row.staffId, row.n]));
  const sessions = new Map(sessionCounts.map((row) => [row.staffId, row.n]));
  return members.map((member) => ({
    ...member,
    passkeys: keys.get(member.id) ?? 0,
    sessions: sessions.get(member.id) ?? 0,
  }));
}

/** Active members of staff (not disabled), by name: who an enquiry can be given to. */
export async function listActiveStaff(db: Database): Promise<Pick<StaffRow, "id" | "name" | "email">[]> {
  return db
    .select({ id: staff.id, name: staff.name, email: staff.email })
    .from(staff)
    .where(isNull(staff.disabledAt))
    .orderBy(asc(staff.name));
}

/** Disables (or enables again) a member of staff. Disabling ends their sessions in the same transaction. */
export async function setStaffDisabled(
  db: Database,
  staffId: string,
  disabled: boolean,
  now: Date,
): Promise<{ sessionsEnded: number }> {
  return db.transaction(async (tx) => {
    await tx
      .update(staff)
      .set({ disabledAt: disabled ? now : null })
      .where(eq(staff.id, staffId));
    if (!disabled) return { sessionsEnded: 0 };
    const ended = await tx
      .delete(staffSessions)
      .where(eq(staffSessions.staffId, staffId))
      .returning({ idHash: staffSessions.idHash });
    // Links made before cannot be used either.
    await tx
      .update(staffTokens)
      .set({ usedAt: now })
      .where(and(eq(staffTokens.staffId, staffId), isNull(staffTokens.usedAt)));
    return { sessionsEnded: ended.length };
  });
}

/** How many active admins there are: the last one cannot be disabled or made staff. */
export async function countActiveAdmins(db: Database): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(staff)
    .where(and(eq(staff.role, "admin"), isNull(staff.disabledAt)));
  return row?.n ?? 0;
}

/** Deletes links that ended more than a day ago. */
export async function pruneTokens(db: Database, now: Date = new Date()): Promise<void> {
  await db.delete(staffTokens).where(sql`${staffTokens.expiresAt} < ${new Date(now.getTime() - 86_400_000)}`);
}

// PLACEHOLDER until the security branch lands its atomic versions.
export async function disableStaffKeepingAnAdmin(
  db: Database,
  staffId: string,
  now: Date,
): Promise<{ status: "done"; sessionsEnded: number } | { status: "last-admin" | "not-found" }> {
  const member = await findStaffById(db, staffId);
  if (!member) return { status: "not-found" };
  if (member.role === "admin" && !member.disabledAt && (await countActiveAdmins(db)) <= 1)
    return { status: "last-admin" };
  return { status: "done", ...(await setStaffDisabled(db, staffId, true, now)) };
}

export async function changeRoleKeepingAnAdmin(
  db: Database,
  staffId: string,
  role: StaffRole,
): Promise<"done" | "last-admin" | "not-found"> {
  const member = await findStaffById(db, staffId);
  if (!member) return "not-found";
  if (member.role === "admin" && role !== "admin" && !member.disabledAt && (await countActiveAdmins(db)) <= 1)
    return "last-admin";
  await db.update(staff).set({ role }).where(eq(staff.id, staffId));
  return "done";
}
