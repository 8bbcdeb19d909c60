import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  newSessionFor,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";
import { adminHref, LIVE_PREVIEWS_PER_MINUTE } from "#shared/admin/routes.ts";
import { draftRenderCount } from "../../content/draft-rendering.ts";
import { PREVIEW_PAGES_PER_MINUTE, previewsLimitedMessage } from "../../routes/preview-routes.ts";
import { articleFields, createArticle, headOf, postJson, uniqueEmail } from "./studio-test-kit.ts";

// What a draft's rendering costs, through inject() on both databases: the studio's live preview is
// limited per session and the share and preview links' pages (/preview/*) per client, each 429
// with Retry-After past its limit; a draft's body is rendered once per revision, however often its
// preview is opened.

vi.mock("#web/admin/entry-server.tsx", async (importOriginal) =>
  (await import("./studio-test-kit.ts")).recordingEntry(await importOriginal()),
);

describe.each(testDrivers)("the limits of previews on %s", (driver) => {
  let t: AdminTestApp;
  let member: StaffWithSession;
  beforeAll(async () => {
    t = await buildAdminTestApp(driver);
    member = await staffWithSession(t, { email: uniqueEmail("ravi"), name: "Ravi Desai", role: "staff" });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A preview link of a new article with this body: its path, /preview/<token>. */
  const previewLinkOf = async (title: string, body: string) => {
    const id = await createArticle(t, member, { title, body });
    const made = await t.send({ method: "POST", url: adminHref("articlePreviewLink", { id }), cookie: member.cookie });
    expect(made.statusCode).toBe(303);
    return { id, path: String(made.headers.location) };
  };
  const open = (path: string, remoteAddress: string) => t.send({ method: "GET", url: path, remoteAddress });
  const livePreview = (person: StaffWithSession, body: string) =>
    postJson(t, adminHref("markdownPreview"), person, { body });

  it("answers a session's live previews past LIVE_PREVIEWS_PER_MINUTE with 429, Retry-After and what to do; another session's are answered", async () => {
    const session = await newSessionFor(t, member);
    for (let sent = 0; sent < LIVE_PREVIEWS_PER_MINUTE; sent += 1) {
      const response = await livePreview(session, `A pause in typing, number ${sent}.`);
      if (response.statusCode !== 200) throw new Error(`preview ${sent}: ${response.statusCode} ${response.body}`);
    }
    const refused = await livePreview(session, "One too many.");
    expect(refused.statusCode).toBe(429);
    const seconds = Number(refused.headers["retry-after"]);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(refused.json()).toEqual({
      error: "Too Many Requests",
      message: `Too many previews from this session. Please wait ${seconds} seconds and try again.`,
    });
    const elsewhere = await livePreview(await newSessionFor(t, member), "From another window.");
    expect(elsewhere.statusCode).toBe(200);
  });

  it("answers a client's preview pages past PREVIEW_PAGES_PER_MINUTE with 429, Retry-After and what to do; another client's are answered", async () => {
    const { path } = await previewLinkOf("Opened often", "## Reviewed\n\nRead again and again.");
    for (let opened = 0; opened < PREVIEW_PAGES_PER_MINUTE; opened += 1) {
      const response = await open(path, "203.0.113.7");
      if (response.statusCode !== 200) throw new Error(`page ${opened}: ${response.statusCode}`);
    }
    const refused = await open(path, "203.0.113.7");
    expect(refused.statusCode).toBe(429);
    const seconds = Number(refused.headers["retry-after"]);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect(refused.body).toBe(previewsLimitedMessage(seconds));
    expect(refused.body).toMatch(/^You have opened many preview pages in the last minute\. Please wait \d+ seconds/);
    // Any token counts, one that opens nothing too: a client cannot try tokens past the limit.
    expect((await open("/preview/not-a-token", "203.0.113.7")).statusCode).toBe(429);
    expect((await open(path, "203.0.113.8")).statusCode).toBe(200);
  });

  it("renders a draft's body once per revision, however often its preview pages are opened", async () => {
    const body = `## A long draft\n\n${"Transformer inrush under sympathetic interaction. ".repeat(1500)}`;
    const { id, path } = await previewLinkOf("Rendered once", body);
    const before = draftRenderCount();
    for (let opened = 0; opened < 3; opened += 1) {
      const page = await open(path, `198.51.100.${opened + 1}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("Transformer inrush under sympathetic interaction.");
    }
    expect(draftRenderCount() - before).toBe(1);

    // A new revision is a new rendering, once.
    const saved = await postJson(t, adminHref("articleAutosave", { id }), member, {
      ...articleFields({ title: "Rendered once", body: `${body}\n\nA last paragraph.` }),
      baseRevisionId: String(await headOf(t, id)),
    });
    expect(saved.statusCode).toBe(200);
    for (let opened = 0; opened < 2; opened += 1) {
      const page = await open(path, `198.51.100.${opened + 10}`);
      expect(page.body).toContain("A last paragraph.");
    }
    expect(draftRenderCount() - before).toBe(2);
  });
});
