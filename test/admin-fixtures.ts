import { randomBytes } from "node:crypto";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { createSession, SESSION_COOKIE } from "#server/admin/door/sessions.ts";
import { inviteStaff, type StaffRole } from "#server/admin/staff/staff-repository.ts";
import type { AppDependencies } from "#server/app.ts";
import { staff } from "#server/db/schema.ts";
import { SoftAuthenticator } from "./soft-authenticator.ts";
import { buildTestApp, type TestApp } from "./build-test-app.ts";
import type { TestDriver } from "./databases.ts";

// The back office through inject(): a test app whose clock the test moves, staff made by
// invitation and a software passkey, and requests as the site's own pages send them.

export type AdminTestApp = TestApp & {
  clock: { now: Date; advance: (ms: number) => void };
  origin: string;
  /** A request as the back office's own pages make it: with the site's Origin, from a client of its own. */
  send: (options: InjectOptions & { cookie?: string }) => Promise<LightMyRequestResponse>;
};

let addresses = 0;
/**
 * A client address no other request of the run has used. The back office limits attempts per
 * address, and tests share an app: each request as if from its own client, unless a test says.
 */
export function freshClientAddress(): string {
  addresses += 1;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
}

/**
 * The back office's timer for queued work (a sign-in link asked for by email), held: pass `start`
 * as `queuedWorkTimer`; `turn()` runs what is queued, as the timer's turn would.
 */
export function heldTimer(): { start: NonNullable<AppDependencies["queuedWorkTimer"]>; turn: () => Promise<void> } {
  let run: () => Promise<void> = async () => {};
  return {
    start(timerRun) {
      run = timerRun;
      return () => {};
    },
    turn: () => run(),
  };
}

export async function buildAdminTestApp(
  driver: TestDriver,
  options: {
    env?: Record<string, string>;
    onMailQueued?: () => void;
    content?: boolean;
    startAt?: Date;
    queuedWorkTimer?: AppDependencies["queuedWorkTimer"];
    logger?: AppDependencies["logger"];
    thread?: "worker" | "process";
    /** The backups the Health page may ask for (site.ts passes the daily schedule's). */
    backups?: AppDependencies["backups"];
    /** How often the app polls the content version (CONTENT_POLL_MS by default). */
    contentPollMs?: number;
  } = {},
): Promise<AdminTestApp> {
  const clock = {
    now: options.startAt ?? new Date("2026-11-23T06:00:00Z"),
    advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms);
    },
  };
  const t = await buildTestApp(driver, {
    content: options.content ?? false,
    env: options.env,
    now: () => clock.now,
    onMailQueued: options.onMailQueued,
    queuedWorkTimer: options.queuedWorkTimer,
    logger: options.logger,
    thread: options.thread,
    backups: options.backups,
    contentPollMs: options.contentPollMs,
  });
  const origin = new URL(t.config.siteUrl).origin;
  return {
    ...t,
    clock,
    origin,
    send: async ({ cookie, headers, remoteAddress, ...rest }) =>
      t.app.inject({
        ...rest,
        remoteAddress: remoteAddress ?? freshClientAddress(),
        headers: { origin, ...(cookie ? { cookie } : {}), ...(headers as Record<string, string>) },
      }),
  };
}

/** The `name=value` of a Set-Cookie answer, for the next request's Cookie header. */
export function cookieFrom(setCookie: string | string[] | undefined): string {
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  if (!first) throw new Error("no Set-Cookie in the answer");
  return first.split(";")[0]!;
}

/** Another session for someone who has one already (a second window, a sign-in days later). */
export async function newSessionFor(
  t: Pick<AdminTestApp, "database" | "clock">,
  person: StaffWithSession,
): Promise<StaffWithSession> {
  const id = await createSession(t.database.db, person.staffId, {
    method: "passkey",
    device: "Test",
    now: t.clock.now,
  });
  return { ...person, cookie: `${SESSION_COOKIE}=${id}` };
}

/** A member of staff with a live session: the `name=value` for a Cookie header. */
export type StaffWithSession = { cookie: string; staffId: string; email: string };

export type SignedIn = StaffWithSession & { authenticator: SoftAuthenticator };

let minted = 0;

/**
 * A member of staff, added to the database and given a session as a sign-in gives one
 * (createSession, the cookie's value): no invitation, no passkey ceremony. For tests of what a
 * signed-in person may do; signing in itself is tested through its ceremonies
 * (admin-access.test.ts, door.test.ts). `email` defaults to one no other call of the run uses.
 */
export async function staffWithSession(
  t: Pick<AdminTestApp, "database" | "clock">,
  person: { name: string; role: StaffRole; canPublish?: boolean; email?: string },
): Promise<StaffWithSession> {
  minted += 1;
  const email = person.email ?? `${person.name.toLowerCase().replace(/[^a-z]+/g, ".")}.${minted}@staff.example`;
  const [member] = await t.database.db
    .insert(staff)
    .values({
      email,
      name: person.name,
      role: person.role,
      canPublish: person.canPublish ?? false,
      createdAt: t.clock.now,
      webauthnUserId: randomBytes(32).toString("base64url"),
    })
    .returning({ id: staff.id });
  const id = await createSession(t.database.db, member!.id, { method: "passkey", device: "Test", now: t.clock.now });
  return { cookie: `${SESSION_COOKIE}=${id}`, staffId: member!.id, email };
}

/** Invites a member of staff and accepts the invitation with a new software passkey: signed in. */
export async function joinByInvitation(
  t: AdminTestApp,
  person: { email: string; name: string; role: StaffRole },
): Promise<SignedIn & { token: string }> {
  const { token, member } = await inviteStaff(t.database.db, person, t.clock.now);
  const authenticator = new SoftAuthenticator({ origin: t.origin, rpId: new URL(t.origin).hostname });
  const options = await t.send({
    method: "POST",
    url: "/admin/api/passkeys/registration-options",
    payload: { invitation: token },
  });
  if (options.statusCode !== 200) throw new Error(`registration options: ${options.statusCode} ${options.body}`);
  const response = authenticator.register(options.json());
  const registered = await t.send({
    method: "POST",
    url: "/admin/api/passkeys/registration",
    payload: { invitation: token, response },
  });
  if (registered.statusCode !== 200) throw new Error(`registration: ${registered.statusCode} ${registered.body}`);
  return {
    cookie: cookieFrom(registered.headers["set-cookie"]),
    staffId: member.id,
    authenticator,
    email: person.email,
    token,
  };
}

/** Signs in with an existing software passkey: the new session's cookie (or the failed answer). */
export async function signInWithPasskey(
  t: AdminTestApp,
  authenticator: SoftAuthenticator,
  overrides: Parameters<SoftAuthenticator["authenticate"]>[1] = {},
) {
  const options = await t.send({ method: "POST", url: "/admin/api/sign-in/options", payload: {} });
  const response = authenticator.authenticate(options.json(), overrides);
  return t.send({ method: "POST", url: "/admin/api/sign-in", payload: { response } });
}
