import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToken, inviteStaff } from "../admin/staff/staff-repository.ts";
import { type AdminTestApp, buildAdminTestApp } from "../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../test/databases.ts";

// An invitation or sign-in link lets in whoever holds its token, and a mail scanner opening the
// link is enough to make the site log its address: no log line may carry the token
// (request-logging.ts: withoutOneTimeTokens, and pino's logMethod hook for every other line).

describe.each(testDrivers)("one-time links in the log on %s", (driver) => {
  let t: AdminTestApp;
  const written: string[] = [];
  let invitation: string;
  let signInLink: string;

  beforeAll(async () => {
    // Every level: a token must not reach even a debug line.
    t = await buildAdminTestApp(driver, {
      logger: { level: "trace", stream: { write: (line: string) => void written.push(line) } },
    });
    const invited = await inviteStaff(
      t.database.db,
      { email: "new.engineer@example.com", name: "New Engineer", role: "staff" },
      t.clock.now,
    );
    invitation = invited.token;
    signInLink = await createToken(t.database.db, invited.member.id, "sign-in", t.clock.now);
  });
  afterAll(async () => t.close());

  /** The access lines written since `from`. */
  const accessLines = (from: number) =>
    written
      .slice(from)
      .filter((line) => line.includes('"msg":"request completed"'))
      .map((line) => JSON.parse(line) as { method: string; path: string; status: number });

  it("logs an invitation's and a sign-in link's address without the token, for GET, HEAD and POST", async () => {
    const from = written.length;
    const requests = [
      { method: "GET", url: `/admin/invite/${invitation}`, status: 200 },
      { method: "HEAD", url: `/admin/invite/${invitation}`, status: 200 },
      // No such route (an invitation is accepted through the passkey API): whatever the answer.
      { method: "POST", url: `/admin/invite/${invitation}`, status: undefined },
      { method: "GET", url: `/admin/invite/${invitation}?utm_source=mail`, status: 200 },
      { method: "GET", url: `/admin/sign-in-link/${signInLink}`, status: 200 },
      { method: "POST", url: `/admin/sign-in-link/${signInLink}`, status: 303 },
      // Used now: a scanner's second look gets the "link unusable" page, logged the same way.
      { method: "GET", url: `/admin/sign-in-link/${signInLink}`, status: 410 },
    ] as const;
    for (const { method, url, status } of requests) {
      const response = await t.send({ method, url, payload: method === "POST" ? {} : undefined });
      if (status !== undefined) expect(response.statusCode, url).toBe(status);
    }
    const lines = accessLines(from);
    expect(lines.map((line) => [line.method, line.path, line.status])).toEqual([
      ["GET", "/admin/invite/[token]", 200],
      ["HEAD", "/admin/invite/[token]", 200],
      ["POST", "/admin/invite/[token]", expect.any(Number)],
      ["GET", "/admin/invite/[token]", 200],
      ["GET", "/admin/sign-in-link/[token]", 200],
      ["POST", "/admin/sign-in-link/[token]", 303],
      ["GET", "/admin/sign-in-link/[token]", 410],
    ]);
    const log = written.join("");
    expect(log).not.toContain(invitation);
    expect(log).not.toContain(signInLink);
  });

  it("logs no token from addresses spelled otherwise: percent escapes, extra segments, other case", async () => {
    const from = written.length;
    for (const url of [
      `/admin/%69nvite/${invitation}`,
      `/admin/invite/${invitation}/more`,
      `//admin/invite/${invitation}`,
      `/ADMIN/INVITE/${invitation}`,
      `/admin/sign-in-link/${signInLink}%zz`,
    ]) {
      await t.send({ method: "GET", url });
      await t.send({ method: "POST", url, payload: {} });
    }
    expect(accessLines(from)).toHaveLength(10);
    const log = written.slice(from).join("");
    expect(log).not.toContain(invitation);
    expect(log).not.toContain(signInLink);
  });

  it("keeps the token out of every other line: messages, fields, errors and their causes", () => {
    const from = written.length;
    const link = `https://www.example.test/admin/invite/${invitation}`;
    const child = t.app.log.child({ requestId: "test" });
    t.app.log.warn(`Reply was already sent, did you forget to "return reply" in the "${link}" (GET) route?`);
    child.info({ url: link, nested: { kept: "as is" } }, "looked at %s", link);
    t.app.log.error({ err: new Error(`failed at ${link}`, { cause: new Error(`cause: ${link}`) }) }, "request failed");
    child.error(new Error(`no route for /admin/sign-in-link/${signInLink}`));
    const lines = written.slice(from);
    expect(lines).toHaveLength(4);
    expect(lines.join("")).not.toContain(invitation);
    expect(lines.join("")).not.toContain(signInLink);
    expect(lines.join("")).toContain("/admin/invite/[token]");
    expect(lines.join("")).toContain("/admin/sign-in-link/[token]");
  });
});
