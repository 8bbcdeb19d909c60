import { asc, count, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { auditEvents, mailOutbox, newsletters, newsletterSubscribers } from "../../db/schema.ts";
import { listBlogPosts } from "../../content/public-content.ts";
import { propsOf, setCanPublish, uniqueEmail } from "../studio/studio-test-kit.ts";

// Newsletters in the back office, through inject() on both databases: compose (create, save, a
// stale save refused with the typed text kept and who saved in between), the preview under its
// sandboxing policy, a test to oneself, the send behind its question (the count asked again
// when it changed, staff without "Can publish" refused, a second send refused), the counts as
// JSON; and every hostile request (no session, another origin, malformed ids and inputs, control
// characters, an oversize body) a clear 4xx that changes nothing.
//
// The preview, the test, the send and the counts run the newsletter's own code
// (src/server/newsletter/queue.ts and newsletter-email.ts), not a stand-in.

vi.mock("#web/admin/entry-server.tsx", async (importOriginal) =>
  (await import("../studio/studio-test-kit.ts")).recordingEntry(await importOriginal()),
);

const someId = "00000000-0000-4000-8000-000000000000";
const MAIL_ENV = {
  SMTP_URL: "smtp://127.0.0.1:2525",
  MAIL_FROM: "site@example.test",
  MAIL_TO: "office@example.test",
};

describe.each(testDrivers)("newsletters in the back office on %s", (driver) => {
  let t: AdminTestApp;
  let admin: StaffWithSession;
  let staffer: StaffWithSession;
  let publisher: StaffWithSession;
  let articles: { id: string; title: string }[];
  beforeAll(async () => {
    t = await buildAdminTestApp(driver, { content: true, env: MAIL_ENV, startAt: new Date() });
    admin = await staffWithSession(t, { email: uniqueEmail("meera"), name: "Meera Shah", role: "admin" });
    staffer = await staffWithSession(t, { email: uniqueEmail("ravi"), name: "Ravi Desai", role: "staff" });
    publisher = await staffWithSession(t, { email: uniqueEmail("asha"), name: "Asha Patel", role: "staff" });
    await setCanPublish(t, publisher, true);
    articles = (await listBlogPosts(t.database.db, t.clock.now)).map((post) => ({ id: post.id, title: post.title }));
    if (articles.length < 4) throw new Error("the site's content has too few public articles for these tests");
    // Three confirmed subscribers, and one of each other state, whom a send must not reach.
    const now = t.clock.now;
    await t.database.db.insert(newsletterSubscribers).values([
      { email: "one@example.com", status: "confirmed", confirmedAt: now },
      { email: "two@example.com", status: "confirmed", confirmedAt: now },
      { email: "three@example.com", status: "confirmed", confirmedAt: now },
      { email: "pending@example.com", status: "pending" },
      { email: "gone@example.com", status: "unsubscribed" },
      { email: "bounced@example.com", status: "bouncing" },
    ]);
  });
  afterAll(async () => {
    await t.close();
  });

  const fields = (overrides: Record<string, string | string[]> = {}) => ({
    subject: "Insights for plant engineers",
    introduction: "Two **new** studies this month.",
    articleIds: [articles[0]!.id, articles[1]!.id],
    ...overrides,
  });
  /** A form post with repeated keys for the checked boxes, as a browser sends it. */
  const post = (
    url: string,
    person: StaffWithSession | undefined,
    body: Record<string, string | string[] | number>,
  ) => {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(body)) {
      for (const one of Array.isArray(value) ? value : [value]) form.append(key, String(one));
    }
    return t.send({
      method: "POST",
      url,
      ...(person ? { cookie: person.cookie } : {}),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: form.toString(),
    });
  };
  const create = async (person: StaffWithSession = staffer, overrides: Record<string, string | string[]> = {}) => {
    const response = await post(adminHref("newsletterCreate"), person, fields(overrides));
    expect(response.statusCode, response.body.slice(0, 300)).toBe(303);
    return /\/admin\/newsletters\/([0-9a-f-]{36})\?notice=newsletter-created$/.exec(
      String(response.headers.location),
    )![1]!;
  };
  const rowOf = async (id: string) =>
    (await t.database.db.select().from(newsletters).where(eq(newsletters.id, id)))[0]!;
  const page = async (id: string, person: StaffWithSession = staffer) =>
    propsOf(await t.send({ method: "GET", url: adminHref("newsletter", { id }), cookie: person.cookie }), "newsletter");
  const auditOf = async (id: string) =>
    (
      await t.database.db.select().from(auditEvents).where(eq(auditEvents.targetId, id)).orderBy(asc(auditEvents.id))
    ).map((event) => ({ action: event.action, actor: event.actorLabel, details: event.details }));
  /** Everything a refused request could have changed. */
  const state = async () => ({
    newsletters: await t.database.db.select().from(newsletters).orderBy(asc(newsletters.id)),
    outbox: (await t.database.db.select({ n: count() }).from(mailOutbox).where(isNotNull(mailOutbox.newsletterId)))[0]!
      .n,
    audit: (await t.database.db.select({ n: count() }).from(auditEvents))[0]!.n,
  });

  describe("composing", () => {
    it("offers the public articles, newest first, the newest three chosen when none was ever sent", async () => {
      const props = propsOf(
        await t.send({ method: "GET", url: adminHref("newsletterNew"), cookie: staffer.cookie }),
        "newsletter",
      );
      expect(props.newsletter.id).toBeNull();
      expect(props.newsletter.articles.map((article) => article.id)).toEqual(articles.map((article) => article.id));
      expect(props.newsletter.fields.articleIds).toEqual(articles.slice(0, 3).map((article) => article.id));
      expect(props.newsletter.subscribers).toBe(3);
      const html = (await t.send({ method: "GET", url: adminHref("newsletterNew"), cookie: staffer.cookie })).body;
      for (const text of ["Subject", "Introduction", "Articles to feature", "Save draft"]) expect(html).toContain(text);
      const list = await t.send({ method: "GET", url: adminHref("newsletters"), cookie: staffer.cookie });
      expect(list.statusCode).toBe(200);
      expect(list.body).toContain("New newsletter");
      expect(propsOf(list, "newsletters").subscribers).toBe(3);
    });

    it("makes 60 drafts of one subject in one month, each with a campaign of its own (the 51st was a 500)", async () => {
      const subject = { subject: "Monthly grid notes" };
      const campaigns: string[] = [];
      for (let made = 0; made < 60; made += 1) campaigns.push((await rowOf(await create(staffer, subject))).campaign);
      expect(new Set(campaigns).size).toBe(60);
      expect(campaigns.at(-1)).toMatch(/^20\d\d-\d\d-monthly-grid-notes-60$/);
      // A subject whose words end as another's suffix does not collide with it either.
      const numbered = await rowOf(await create(staffer, { subject: "Monthly grid notes 61" }));
      expect(numbered.campaign).toMatch(/-monthly-grid-notes-61$/);
      const next = await rowOf(await create(staffer, subject));
      expect(next.campaign).toMatch(/-monthly-grid-notes-62$/);
    });

    it("creates a draft with its campaign made once from the month and subject (unique), audited", async () => {
      const id = await create(staffer);
      const row = await rowOf(id);
      expect(row).toMatchObject({
        subject: "Insights for plant engineers",
        introduction: "Two **new** studies this month.",
        articleIds: [articles[0]!.id, articles[1]!.id],
        status: "draft",
        version: 1,
        updatedByLabel: "Ravi Desai",
      });
      expect(row.campaign).toMatch(/^20\d\d-\d\d-insights-for-plant-engineers$/);
      const again = await rowOf(await create(staffer));
      expect(again.campaign).toBe(`${row.campaign}-2`);
      expect(await auditOf(id)).toEqual([
        {
          action: "newsletter-created",
          actor: "Ravi Desai",
          details: { version: 1, campaign: row.campaign, articles: 2 },
        },
      ]);
    });

    it("saves a draft with the version it was made from; a stale save is refused with the typed text kept and who saved", async () => {
      const id = await create(staffer);
      const saved = await post(adminHref("newsletterSave", { id }), admin, {
        ...fields({ subject: "Insights, November", articleIds: [articles[2]!.id] }),
        version: 1,
      });
      expect(saved.statusCode).toBe(303);
      expect(saved.headers.location).toBe(adminHref("newsletter", { id }, { notice: "newsletter-saved" }));
      expect(await rowOf(id)).toMatchObject({
        subject: "Insights, November",
        articleIds: [articles[2]!.id],
        version: 2,
        updatedByLabel: "Meera Shah",
      });
      // Ravi still has version 1 open.
      const before = await state();
      const stale = await post(adminHref("newsletterSave", { id }), staffer, {
        ...fields({ subject: "Ravi's subject", introduction: "Ravi's words, not lost." }),
        version: 1,
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.body).toContain("Ravi&#x27;s words, not lost.");
      const props = propsOf(stale, "newsletter");
      expect(props.error).toMatch(/^Changed by Meera Shah at .*, so your change was not saved/);
      expect(props.newsletter.fields.subject).toBe("Ravi's subject");
      expect(props.newsletter.fields.introduction).toBe("Ravi's words, not lost.");
      expect(props.newsletter.version).toBe(2);
      expect(props.newsletter.conflict).toMatchObject({ by: "Meera Shah", version: 2 });
      expect(props.newsletter.conflict!.fields.subject).toBe("Insights, November");
      expect(await state()).toEqual(before);
      // Saving again, now knowingly based on version 2, goes through.
      const resaved = await post(adminHref("newsletterSave", { id }), staffer, {
        ...fields({ subject: "Ravi's subject" }),
        version: 2,
      });
      expect(resaved.statusCode).toBe(303);
      expect((await rowOf(id)).version).toBe(3);
      expect((await auditOf(id)).map((event) => event.action)).toEqual([
        "newsletter-created",
        "newsletter-saved",
        "newsletter-saved",
      ]);
    });

    it("refuses bad input with 422 naming the field, keeping what was typed, and changes nothing", async () => {
      const id = await create(staffer);
      const cases: [Record<string, string | string[]>, string, string][] = [
        [{ subject: "" }, "subject", "Subject is required"],
        [{ subject: "x".repeat(151) }, "subject", "Subject must be at most 150 characters"],
        [{ subject: "Bell\u0007 subject" }, "subject", "Subject must not contain control characters"],
        [{ subject: "Two\nlines" }, "subject", "Subject"],
        [{ introduction: "y".repeat(5001) }, "introduction", "Introduction must be at most 5000 characters"],
        [{ introduction: "nul\u0000" }, "introduction", "Introduction must not contain control characters"],
        [{ articleIds: ["not-an-id"] }, "articleIds", "Articles to feature must be chosen from the list"],
        [{ articleIds: [someId] }, "articleIds", "Articles to feature must be chosen from the list"],
        [
          { articleIds: [articles[0]!.id, articles[0]!.id] },
          "articleIds",
          "Articles to feature names an article twice",
        ],
        [
          {
            articleIds: Array.from(
              { length: 13 },
              (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
            ),
          },
          "articleIds",
          "Articles to feature: choose at most 12 articles",
        ],
      ];
      const before = await state();
      for (const [overrides, field, message] of cases) {
        for (const [url, extra] of [
          [adminHref("newsletterCreate"), {}],
          [adminHref("newsletterSave", { id }), { version: 1 }],
        ] as const) {
          const response = await post(url, staffer, { ...fields(overrides), ...extra });
          expect(response.statusCode, `${url} ${JSON.stringify(overrides).slice(0, 80)}`).toBe(422);
          const props = propsOf(response, "newsletter");
          expect(props.form?.errors[field], `${url} ${field}`).toContain(message);
        }
      }
      // A version that is not one: 422 with the reason, the text kept.
      const noVersion = await post(adminHref("newsletterSave", { id }), staffer, { ...fields(), version: "x" });
      expect(noVersion.statusCode).toBe(422);
      expect(noVersion.body).toContain("reload the page and try again");
      expect(await state()).toEqual(before);
    });
  });

  describe("preview", () => {
    it("serves the mail's HTML alone under a sandboxing policy, and the page shows it framed with the text part", async () => {
      const id = await create(staffer);
      const response = await t.send({
        method: "GET",
        url: adminHref("newsletterPreview", { id }),
        cookie: staffer.cookie,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      const policy = String(response.headers["content-security-policy"]);
      expect(policy.split("; ")).toEqual(
        expect.arrayContaining(["sandbox allow-same-origin", "default-src 'none'", "frame-ancestors 'self'"]),
      );
      expect(policy).not.toContain("script-src");
      expect(response.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(response.body).toContain(articles[0]!.title);
      expect(response.body).toContain("utm_source=newsletter");
      const html = (await t.send({ method: "GET", url: adminHref("newsletter", { id }), cookie: staffer.cookie })).body;
      expect(html).toContain('title="HTML preview"');
      expect(html).toContain('sandbox="allow-same-origin"');
      expect(html).toContain('aria-label="Plain-text preview"');
      const props = await page(id);
      expect(props.newsletter.preview!.text).toContain(articles[0]!.title);
    });
  });

  describe("sending", () => {
    it("a test goes to the signed-in member's own address, any number of times, audited", async () => {
      const id = await create(staffer);
      const response = await post(adminHref("newsletterTest", { id }), staffer, {});
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(adminHref("newsletter", { id }, { notice: "newsletter-test-sent" }));
      const shown = await t.send({ method: "GET", url: String(response.headers.location), cookie: staffer.cookie });
      expect(propsOf(shown, "newsletter").notice).toBe(`Test sent to ${staffer.email}.`);
      const rows = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.newsletterId, id));
      expect(rows.map((row) => [row.kind, row.recipient, row.subscriberId])).toEqual([
        ["newsletter-test", staffer.email, null],
      ]);
      expect((await rowOf(id)).status).toBe("draft");
      expect((await auditOf(id)).at(-1)).toMatchObject({
        action: "newsletter-test-sent",
        details: { version: 1, recipient: staffer.email },
      });
    });

    it("staff without Can publish get 403 on the question and the send, and nothing changes", async () => {
      const id = await create(staffer);
      const before = await state();
      const question = await t.send({
        method: "GET",
        url: adminHref("newsletterSendConfirm", { id }),
        cookie: staffer.cookie,
      });
      expect(question.statusCode).toBe(403);
      const send = await post(adminHref("newsletterSend", { id }), staffer, { version: 1, recipients: 3 });
      expect(send.statusCode).toBe(403);
      expect(send.body).toContain("Publishing needs an admin");
      expect((await page(id)).newsletter.canSend).toBe(false);
      expect(await state()).toEqual(before);
    });

    it("asks with the count, asks again when it changed, sends once to the confirmed; a second send and an edit are refused", async () => {
      const id = await create(staffer);
      const question = await t.send({
        method: "GET",
        url: adminHref("newsletterSendConfirm", { id }),
        cookie: publisher.cookie,
      });
      expect(question.statusCode).toBe(200);
      const asked = propsOf(question, "newsletter-send").send;
      expect(asked).toMatchObject({ recipients: 3, version: 1, blocked: null });
      expect(question.body).toContain("Send to 3 subscribers?");
      expect(question.body).toContain("Yes, send it");

      // Confirmed for 2, but 3 are confirmed now: asked again, nothing sent.
      const before = await state();
      const changed = await post(adminHref("newsletterSend", { id }), publisher, { version: 1, recipients: 2 });
      expect(changed.statusCode).toBe(409);
      expect(propsOf(changed, "newsletter-send").send.recipients).toBe(3);
      expect(changed.body).toContain("changed from 2 to 3");
      // Confirmed for an older version: asked again.
      const stale = await post(adminHref("newsletterSend", { id }), publisher, { version: 7, recipients: 3 });
      expect(stale.statusCode).toBe(409);
      expect(await state()).toEqual(before);

      const sent = await post(adminHref("newsletterSend", { id }), publisher, { version: 1, recipients: 3 });
      expect(sent.statusCode, sent.body.slice(0, 300)).toBe(303);
      expect(sent.headers.location).toBe(adminHref("newsletter", { id }, { notice: "newsletter-sent" }));
      const row = await rowOf(id);
      expect(row.status).not.toBe("draft");
      expect(row.recipients).toBe(3);
      const mail = await t.database.db
        .select({ recipient: mailOutbox.recipient, subscriberId: mailOutbox.subscriberId, kind: mailOutbox.kind })
        .from(mailOutbox)
        .where(eq(mailOutbox.newsletterId, id));
      expect(mail).toHaveLength(3);
      expect(mail.every((one) => one.kind === "newsletter" && one.subscriberId !== null)).toBe(true);
      expect((await auditOf(id)).at(-1)).toMatchObject({
        action: "newsletter-sent",
        actor: "Asha Patel",
        details: { version: 1, recipients: 3, campaign: row.campaign },
      });

      // The page is read-only now, with the counts.
      const props = await page(id, publisher);
      expect(props.newsletter.sent?.counts).toMatchObject({ recipients: 3, queued: 3, sent: 0, failed: 0 });
      const html = (await t.send({ method: "GET", url: adminHref("newsletter", { id }), cookie: publisher.cookie }))
        .body;
      for (const text of ["Queued", "Sent", "Failed", "Refresh"]) expect(html).toContain(text);
      expect(html).not.toContain("Save draft");
      const progress = await t.send({
        method: "GET",
        url: adminHref("newsletterProgress", { id }),
        cookie: staffer.cookie,
      });
      expect(progress.statusCode).toBe(200);
      expect(progress.json()).toMatchObject({ status: row.status, recipients: 3, queued: 3, sent: 0, failed: 0 });
      // The send's notice ("Sending: …") comes from the address, which outlives the sending: it is
      // shown while the newsletter is sending, and not once it is sent.
      const atNotice = async () =>
        propsOf(
          await t.send({ method: "GET", url: String(sent.headers.location), cookie: publisher.cookie }),
          "newsletter",
        );
      expect(row.status).toBe("sending");
      expect((await atNotice()).notice).toBe(
        "Sending: each confirmed subscriber gets one copy. The counts below follow it.",
      );

      // Once sent: a second send, its question and an edit are refused, and change nothing.
      const after = await state();
      const again = await post(adminHref("newsletterSend", { id }), admin, { version: 1, recipients: 3 });
      expect(again.statusCode).toBe(409);
      expect(again.body).toContain("This newsletter has already been sent.");
      const questionAgain = await t.send({
        method: "GET",
        url: adminHref("newsletterSendConfirm", { id }),
        cookie: admin.cookie,
      });
      expect(questionAgain.statusCode).toBe(409);
      const edit = await post(adminHref("newsletterSave", { id }), admin, {
        ...fields({ subject: "Late" }),
        version: 1,
      });
      expect(edit.statusCode).toBe(409);
      expect(edit.body).toContain("This newsletter has been sent, so it can no longer be changed.");
      expect(await state()).toEqual(after);

      // The sender done (what it writes last), the notice no longer holds.
      await t.database.db.update(newsletters).set({ status: "sent" }).where(eq(newsletters.id, id));
      const done = await atNotice();
      expect(done.newsletter.status).toBe("sent");
      expect(done.notice).toBeUndefined();

      // The next newsletter starts with the articles published since this one was sent: none yet.
      const next = propsOf(
        await t.send({ method: "GET", url: adminHref("newsletterNew"), cookie: staffer.cookie }),
        "newsletter",
      );
      expect(next.newsletter.fields.articleIds).toEqual([]);
    });
  });

  describe("erasure", () => {
    it("erasing a subscriber's address (/admin/privacy) deletes the subscription and the newsletter mail to it", async () => {
      // The send above queued one copy to each confirmed subscriber.
      const address = "three@example.com";
      const before = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, address));
      expect(before.map((row) => row.kind)).toEqual(["newsletter"]);
      const preview = await post(adminHref("privacyPreview"), admin, { email: address });
      expect(propsOf(preview, "privacy").preview).toEqual({
        enquiries: 0,
        notes: 0,
        mail: 0,
        newsletterMail: 1,
        subscriptions: 1,
      });
      const erased = await post(adminHref("privacyErase"), admin, { email: address, confirm: address });
      expect(erased.statusCode).toBe(200);
      expect(propsOf(erased, "privacy").erased).toEqual({
        enquiries: 0,
        notes: 0,
        mail: 0,
        newsletterMail: 1,
        subscriptions: 1,
      });
      expect(await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, address))).toEqual([]);
      expect(
        await t.database.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, address)),
      ).toEqual([]);
    });
  });

  describe("hostile requests", () => {
    it("an oversize body is refused with 413 before it is read; nothing changes", async () => {
      const id = await create(staffer);
      const before = await state();
      const huge = await post(adminHref("newsletterSave", { id }), admin, {
        ...fields({ introduction: "z".repeat(200_000) }),
        version: 1,
      });
      expect(huge.statusCode).toBe(413);
      const hugeCreate = await post(
        adminHref("newsletterCreate"),
        admin,
        fields({ introduction: "z".repeat(200_000) }),
      );
      expect(hugeCreate.statusCode).toBe(413);
      expect(await state()).toEqual(before);
    });
  });
});
