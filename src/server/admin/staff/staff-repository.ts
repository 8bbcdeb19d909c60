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

/**
 * Lets a member of staff publish without being an admin ("Can publish"), or not. Returns the value
 * it had, or undefined when there is no such member; their next request sees the new one.
 */
export async function setStaffCanPublish(
  db: Database,
  staffId: string,
  canPublish: boolean,
): Promise<boolean | undefined> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ canPublish: staff.canPublish })
      .from(staff)
      .where(eq(staff.id, staffId))
      .for("update");
    if (!before) return undefined;
    if (before.canPublish !== canPublish) await tx.update(staff).set({ canPublish }).where(eq(staff.id, staffId));
    return before.canPublish;
  });
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

/**
 * How many active admins there are: the last one cannot be disabled or made staff. A count for
 * showing; a change must check and act at once: disableStaffKeepingAnAdmin, changeRoleKeepingAnAdmin.
 */
export async function countActiveAdmins(db: Database): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(staff)
    .where(and(eq(staff.role, "admin"), isNull(staff.disabledAt)));
  return row?.n ?? 0;
}

/** What a change that must keep an active admin did: made, refused (it would leave none), or no such member. */
export type KeepingAnAdmin = "done" | "last-admin" | "not-found";

/**
 * Inside a transaction: locks every active admin and the member (FOR UPDATE), and says whether
 * an active admin other than the member would remain. Two admins disabling each other at once
 * both lock the active admins in the same order: the second waits for the first to commit, then
 * sees its change (PostgreSQL checks a locked row again once it is free), so it cannot also
 * count the other as active. A check and an update in separate statements could both pass.
 */
async function lockAdminsAnd(
  tx: Database,
  staffId: string,
): Promise<{ member: StaffRow | undefined; anotherAdminStays: boolean }> {
  const admins = await tx
    .select({ id: staff.id })
    .from(staff)
    .where(and(eq(staff.role, "admin"), isNull(staff.disabledAt)))
    .orderBy(asc(staff.id))
    .for("update");
  const [member] = await tx.select().from(staff).where(eq(staff.id, staffId.toLowerCase())).for("update");
  return { member, anotherAdminStays: admins.some((admin) => admin.id !== member?.id) };
}

/**
 * Disables a member of staff unless that would leave no active admin, checked and changed in one
 * transaction with the admins locked (lockAdminsAnd). Disabling ends their sessions and makes
 * their unused links unusable, as setStaffDisabled does.
 */
export async function disableStaffKeepingAnAdmin(
  db: Database,
  staffId: string,
  now: Date,
): Promise<{ outcome: KeepingAnAdmin; sessionsEnded: number }> {
  if (!isUuid(staffId)) return { outcome: "not-found", sessionsEnded: 0 };
  return db.transaction(async (tx) => {
    const t = tx;
    const { member, anotherAdminStays } = await lockAdminsAnd(t, staffId);
    if (!member) return { outcome: "not-found" as const, sessionsEnded: 0 };
    if (member.role === "admin" && !member.disabledAt && !anotherAdminStays) {
      return { outcome: "last-admin" as const, sessionsEnded: 0 };
    }
    await t.update(staff).set({ disabledAt: now }).where(eq(staff.id, member.id));
    const ended = await t
      .delete(staffSessions)
      .where(eq(staffSessions.staffId, member.id))
      .returning({ idHash: staffSessions.idHash });
    await t
      .update(staffTokens)
      .set({ usedAt: now })
      .where(and(eq(staffTokens.staffId, member.id), isNull(staffTokens.usedAt)));
    return { outcome: "done" as const, sessionsEnded: ended.length };
  });
}

/**
 * Gives a member of staff a role unless that would leave no active admin (the only active admin
 * made staff), checked and changed in one transaction with the admins locked (lockAdminsAnd).
 */
export async function changeRoleKeepingAnAdmin(
  db: Database,
  staffId: string,
  role: StaffRole,
): Promise<KeepingAnAdmin> {
  if (!isUuid(staffId)) return "not-found";
  return db.transaction(async (tx) => {
    const t = tx;
    const { member, anotherAdminStays } = await lockAdminsAnd(t, staffId);
    if (!member) return "not-found";
    if (role !== "admin" && member.role === "admin" && !member.disabledAt && !anotherAdminStays) return "last-admin";
    if (member.role !== role) await t.update(staff).set({ role }).where(eq(staff.id, member.id));
    return "done";
  });
}

/** Deletes links that ended more than a day ago. */
export async function pruneTokens(db: Database, now: Date = new Date()): Promise<void> {
  await db.delete(staffTokens).where(sql`${staffTokens.expiresAt} < ${new Date(now.getTime() - 86_400_000)}`);
}
