import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, asc, count, eq, gt, lt } from "drizzle-orm";
import { site } from "#shared/site.ts";
import type { Database } from "../../db/client.ts";
import { passkeys, staff, type StaffRow, webauthnChallenges } from "../../db/schema.ts";

// Passkeys (WebAuthn) for the back office, through @simplewebauthn/server. The relying party is
// SITE_URL's host: a passkey made for the site works nowhere else, and browsers refuse a bare IP
// address (tests use http://localhost:<port>). Each ceremony's challenge is kept in the database,
// so the options may come from one instance and the answer go to another, and is deleted as it is
// checked, so an answer can be used once. User verification (the device's PIN or biometric) is
// required: a passkey is a whole sign-in on its own, with no password beside it.

export type RelyingParty = { id: string; name: string; origin: string };

const CHALLENGE_TTL_MS = 5 * 60 * 1000;

export function relyingPartyFor(siteUrl: string): RelyingParty {
  const url = new URL(siteUrl);
  return { id: url.hostname, name: `${site.shortName} back office`, origin: url.origin };
}

/** Takes a challenge of this purpose (and person) if it is live: true once, false after. */
async function takeChallenge(
  db: Database,
  challenge: string,
  purpose: string,
  staffId: string | null,
  now: Date,
): Promise<boolean> {
  const taken = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        staffId ? eq(webauthnChallenges.staffId, staffId) : undefined,
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return taken.length === 1;
}

export async function registrationOptions(db: Database, rp: RelyingParty, member: StaffRow, now: Date) {
  const existing = await db
    .select({ id: passkeys.id, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.staffId, member.id));
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: member.email,
    userDisplayName: member.name,
    userID: Buffer.from(member.webauthnUserId, "base64url"),
    attestationType: "none",
    excludeCredentials: existing.map((key) => ({
      id: key.id,
      transports: (key.transports ?? undefined) as AuthenticatorTransport[] | undefined,
    })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await db.insert(webauthnChallenges).values({
    challenge: options.challenge,
    purpose: "registration",
    staffId: member.id,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
  return options;
}

/** Checks a new passkey's answer; returns the row to store, or a reason it was refused. */
export async function verifyRegistration(
  db: Database,
  rp: RelyingParty,
  member: StaffRow,
  response: RegistrationResponseJSON,
  label: string,
  now: Date,
): Promise<{ ok: true; passkey: typeof passkeys.$inferInsert } | { ok: false; status: 400 | 409; reason: string }> {
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: (challenge) => takeChallenge(db, challenge, "registration", member.id, now),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (error) {
    return {
      ok: false,
      status: 400,
      reason: error instanceof Error ? error.message : "the passkey's answer could not be checked",
    };
  }
  if (!verification.verified) return { ok: false, status: 400, reason: "the passkey's answer did not verify" };
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  // A credential ID is one passkey's, for good: the same one offered again is a conflict, not a 500.
  const [taken] = await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.id, credential.id));
  if (taken) return { ok: false, status: 409, reason: "this passkey is already registered" };
  return {
    ok: true,
    passkey: {
      id: credential.id,
      staffId: member.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? null,
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      label: label.slice(0, 80),
      createdAt: now,
    },
  };
}

export async function authenticationOptions(db: Database, rp: RelyingParty, now: Date) {
  // No list of credentials: the person picks one of the site's passkeys on their device, and
  // it says who they are. So the page asks for no email address, and reveals none.
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: "required",
    allowCredentials: [],
  });
  await db.insert(webauthnChallenges).values({
    challenge: options.challenge,
    purpose: "authentication",
    staffId: null,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
  return options;
}

export type AuthenticationResult = { ok: true; member: StaffRow } | { ok: false; reason: string; member?: StaffRow };

/** Checks a sign-in answer against the stored passkey it names; updates its counter on success. */
export async function verifyAuthentication(
  db: Database,
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  now: Date,
): Promise<AuthenticationResult> {
  if (typeof response?.id !== "string" || response.id.length > 1024)
    return { ok: false, reason: "no passkey was named" };
  const [found] = await db
    .select({ key: passkeys, member: staff })
    .from(passkeys)
    .innerJoin(staff, eq(staff.id, passkeys.staffId))
    .where(eq(passkeys.id, response.id));
  if (!found) return { ok: false, reason: "this passkey is not registered here (it may have been removed)" };
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) => takeChallenge(db, challenge, "authentication", null, now),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: found.key.id,
        publicKey: new Uint8Array(found.key.publicKey),
        counter: found.key.counter,
        transports: (found.key.transports ?? undefined) as AuthenticatorTransport[] | undefined,
      },
    });
  } catch (error) {
    return {
      ok: false,
      reason: error instanceof Error ? error.message : "the passkey's answer could not be checked",
      member: found.member,
    };
  }
  if (!verification.verified) return { ok: false, reason: "the passkey's answer did not verify", member: found.member };
  if (found.member.disabledAt) return { ok: false, reason: "this account is disabled", member: found.member };
  await db
    .update(passkeys)
    .set({
      counter: verification.authenticationInfo.newCounter,
      lastUsedAt: now,
      backedUp: verification.authenticationInfo.credentialBackedUp,
    })
    .where(eq(passkeys.id, found.key.id));
  return { ok: true, member: found.member };
}

export async function listPasskeys(db: Database, staffId: string) {
  return db
    .select({ id: passkeys.id, label: passkeys.label, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
    .from(passkeys)
    .where(eq(passkeys.staffId, staffId))
    .orderBy(asc(passkeys.createdAt));
}

/**
 * Removes one of a person's own passkeys, unless it is their last: removing that would leave only
 * a sign-in link as the way back in. Returns what happened.
 */
export async function removePasskey(
  db: Database,
  staffId: string,
  passkeyId: string,
): Promise<"removed" | "last" | "not-found"> {
  // A credential ID is base64url (WebAuthn allows up to 1023 bytes): anything else names no passkey.
  if (!/^[A-Za-z0-9_-]{1,1400}$/.test(passkeyId)) return "not-found";
  return db.transaction(async (tx) => {
    const [owned] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.staffId, staffId));
    const [mine] = await tx
      .select({ id: passkeys.id })
      .from(passkeys)
      .where(and(eq(passkeys.id, passkeyId), eq(passkeys.staffId, staffId)));
    if (!mine) return "not-found";
    if ((owned?.n ?? 0) <= 1) return "last";
    await tx.delete(passkeys).where(and(eq(passkeys.id, passkeyId), eq(passkeys.staffId, staffId)));
    return "removed";
  });
}

/** Deletes challenges whose time has passed. */
export async function pruneChallenges(db: Database, now: Date = new Date()): Promise<void> {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
}
