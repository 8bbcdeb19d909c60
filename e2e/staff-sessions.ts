import { randomBytes } from "node:crypto";
import type { BrowserContext, Page } from "@playwright/test";
import { baseURL } from "../playwright.config.ts";
import { adminHref } from "../src/shared/admin/routes.ts";
import { COMMAND_LINE, recordAudit } from "../src/server/admin/audit/audit.ts";
import { createSession, SESSION_COOKIE, SESSION_MAX_MS } from "../src/server/admin/door/sessions.ts";
import { inviteStaff } from "../src/server/admin/staff/staff-repository.ts";
import type { Database } from "../src/server/db/client.ts";
import { passkeys, staff } from "../src/server/db/schema.ts";
import { readSiteDatabase, uniqueEmail } from "./site-data.ts";

// Signed in without signing in: a member of staff added to the running site's database and given
// a session as a sign-in gives one (createSession), over the site's socket (scripts/e2e-server.ts),
// with no `npm run staff` process and no passkey ceremony. The browser gets the session's cookie,
// as a sign-in's Set-Cookie would give it. Signing in itself, with passkeys and one-time links, is
// tested in admin-sign-in.spec.ts. docs/testing.md says when to use which.

/** The back office's origin: browsers refuse passkeys on a bare IP address, so staff pages are on localhost. */
export const adminOrigin = `http://localhost:${new URL(baseURL).port}`;

/** Who may do what: an admin, a member of staff, or a member of staff allowed to publish. */
export type StaffRole = "admin" | "staff" | "publisher";

export type StaffMember = { staffId: string; email: string; name: string; role: StaffRole; session: string };

/** Adds a member of staff to the running site and makes a session for them. */
export async function mintStaff(person: { name: string; role: StaffRole; email?: string }): Promise<StaffMember> {
  return readSiteDatabase((db) => mintStaffIn(db, person));
}

/**
 * Adds a member of staff to `db` and makes a session for them, as a sign-in makes one: for a
 * server of a test's own (its PostgreSQL database) as well as the running site's.
 */
export async function mintStaffIn(
  db: Database,
  person: { name: string; role: StaffRole; email?: string },
): Promise<StaffMember> {
  const email = person.email ?? uniqueEmail(person.name.toLowerCase().replace(/[^a-z]+/g, "-"));
  const now = new Date();
  const [row] = await db
    .insert(staff)
    .values({
      email,
      name: person.name,
      role: person.role === "admin" ? "admin" : "staff",
      canPublish: person.role === "publisher",
      createdAt: now,
      webauthnUserId: randomBytes(32).toString("base64url"),
    })
    .returning({ id: staff.id });
  const session = await createSession(db, row!.id, { method: "passkey", device: "Chromium (test)", now });
  return { staffId: row!.id, email, name: person.name, role: person.role, session };
}

/**
 * An invitation to the running site, made and audited as `npm run staff -- invite` makes it (that
 * command itself is run in admin-sign-in.spec.ts): its link.
 */
export async function inviteToSite(person: { name: string; role: "admin" | "staff"; email?: string }): Promise<string> {
  const email = person.email ?? uniqueEmail(person.name.toLowerCase().replace(/[^a-z]+/g, "-"));
  const token = await readSiteDatabase(async (db) => {
    const now = new Date();
    const invited = await inviteStaff(db, { email, name: person.name, role: person.role }, now);
    await recordAudit(
      db,
      {
        actor: COMMAND_LINE,
        action: "invitation-created",
        target: { type: "staff", id: invited.member.id, label: email },
        details: { role: person.role },
      },
      now,
    );
    return invited.token;
  });
  return `${adminOrigin}${adminHref("invitation", { token })}`;
}

/**
 * A passkey on the member's account, stored as a registration stores one (its key is never used:
 * the member signs in by their minted session), for the pages that list a person's passkeys.
 */
export async function addPasskey(member: StaffMember): Promise<void> {
  await readSiteDatabase((db) =>
    db.insert(passkeys).values({
      id: randomBytes(16).toString("base64url"),
      staffId: member.staffId,
      publicKey: randomBytes(77),
      transports: ["internal"],
      deviceType: "singleDevice",
      label: "Chrome on Linux",
      createdAt: new Date(),
    }),
  );
}

/** A new session for someone who has one: signing in again, on another device or in another tab. */
export async function mintSession(member: StaffMember): Promise<StaffMember> {
  const session = await readSiteDatabase((db) =>
    createSession(db, member.staffId, { method: "passkey", device: "Chromium (test)", now: new Date() }),
  );
  return { ...member, session };
}

/** Gives the browser (the page's, or a context) the member's session cookie, as the sign-in's answer sets it. */
export async function useSession(target: Page | BrowserContext, member: StaffMember): Promise<void> {
  const context = "context" in target ? target.context() : target;
  await context.addCookies([
    {
      name: SESSION_COOKIE,
      value: member.session,
      domain: "localhost",
      path: "/admin",
      httpOnly: true,
      sameSite: "Strict",
      secure: false,
      expires: Math.floor((Date.now() + SESSION_MAX_MS) / 1000),
    },
  ]);
}
