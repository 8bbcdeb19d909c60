import { randomUUID } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";
import { seedMediaLibrary } from "../../../../test/media-fixtures.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { auditEvents, contentLinks, contentRevisions } from "../../db/schema.ts";
import { resolveContentLink } from "../../content/links.ts";
import {
  articleFields,
  COVER,
  createArticle,
  headOf,
  postForm,
  postJson,
  propsOf,
  sharePreview,
  uniqueEmail,
} from "./studio-test-kit.ts";

// Issue 33, items 5 and 6 (docs/decisions/058-history-says-what-changed.md), through inject() on
// both databases: Share preview as Post/Redirect/Get (a reload or a replay makes no second link;
// another person, another item, another site get nothing), History's entries (a run of one
// person's autosaves folded, what each entry changed), Compare's "Restore this version", and the
// editor's offer to publish after a restore.

vi.mock("#web/admin/entry-server.tsx", async (importOriginal) =>
  (await import("./studio-test-kit.ts")).recordingEntry(await importOriginal()),
);

describe.each(testDrivers)("share preview, history and restore on %s", (driver) => {
  let t: AdminTestApp;
  let admin: StaffWithSession;
  let member: StaffWithSession;
  let other: StaffWithSession;
  beforeAll(async () => {
    t = await buildAdminTestApp(driver, { startAt: new Date(Date.now() - 60_000) });
    admin = await staffWithSession(t, { email: uniqueEmail("meera"), name: "Meera Shah", role: "admin" });
    member = await staffWithSession(t, { email: uniqueEmail("ravi"), name: "Ravi Desai", role: "staff" });
    other = await staffWithSession(t, { email: uniqueEmail("asha"), name: "Asha Patel", role: "staff" });
    await seedMediaLibrary(t.database.db);
  });
  afterAll(async () => {
    await t.close();
  });

  /** The editor's offer after a restore, as HTML. */
  const offerIn = (html: string) => /<div [^>]*data-studio-restore-offer[^>]*>(.*?)<\/div>/s.exec(html)?.[1] ?? "";
  const linksOf = async (id: string) =>
    Number((await t.database.db.select({ n: count() }).from(contentLinks).where(eq(contentLinks.articleId, id)))[0]!.n);
  const allLinks = async () => Number((await t.database.db.select({ n: count() }).from(contentLinks))[0]!.n);
  const editorPage = (id: string, person: StaffWithSession, query?: Record<string, string>) =>
    t.send({ method: "GET", url: adminHref("article", { id }, query), cookie: person.cookie });
  const history = async (id: string) => {
    const answer = await t.send({ method: "GET", url: adminHref("articleHistory", { id }), cookie: member.cookie });
    expect(answer.statusCode, answer.body.slice(0, 2000)).toBe(200);
    return { props: propsOf(answer, "article-history"), body: answer.body };
  };
  /** The slug of the article's head, which the editor's form sends back as it is. */
  const slugOf = async (id: string) => {
    const [head] = await t.database.db
      .select({ document: contentRevisions.document })
      .from(contentRevisions)
      .where(eq(contentRevisions.id, await headOf(t, id)));
    return String(head!.document.slug);
  };
  /** Moves a revision's time back, as if made that long ago (an autosave then no longer folds into it). */
  const age = (revisionId: number, seconds: number) =>
    t.database.db
      .update(contentRevisions)
      .set({ createdAt: sql`${contentRevisions.createdAt} - ${seconds}::int * interval '1 second'` })
      .where(eq(contentRevisions.id, revisionId));
  /** An autosave by `person` as a revision of its own (the head aged past the minute's folding first). */
  const autosaved = async (id: string, person: StaffWithSession, fields: Record<string, string>) => {
    const head = await headOf(t, id);
    await age(head, 600);
    const answer = await postJson(t, adminHref("articleAutosave", { id }), person, {
      ...articleFields({ slug: await slugOf(id), ...fields }),
      baseRevisionId: String(head),
    });
    expect(answer.statusCode, answer.body.slice(0, 300)).toBe(200);
    expect(await headOf(t, id)).not.toBe(head);
  };
  const saved = async (id: string, person: StaffWithSession, fields: Record<string, string>) => {
    const answer = await postForm(t, adminHref("articleSave", { id }), person, {
      ...articleFields({ slug: await slugOf(id), ...fields }),
      baseRevisionId: await headOf(t, id),
    });
    expect(answer.statusCode, answer.body.slice(0, 300)).toBe(303);
  };

  describe("share preview", () => {
    it("posts, redirects to the editor at #share-link, which shows the link; reloading it shows the same link and makes none", async () => {
      const id = await createArticle(t, member, { title: "Shared once" });
      expect(await linksOf(id)).toBe(0);
      const shared = await sharePreview(t, "article", id, member);
      expect(shared.post.statusCode).toBe(303);
      expect(shared.location).toBe(`${adminHref("article", { id }, { shared: shared.key })}#share-link`);
      // The token goes to this browser alone, on the editor's path, out of a script's reach, briefly.
      const setCookie = String(shared.post.headers["set-cookie"]);
      expect(setCookie).toMatch(/^studio_share=[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}; /);
      expect(setCookie).toContain(`; Path=${adminHref("article", { id })};`);
      expect(setCookie).toContain("; Max-Age=600; HttpOnly; SameSite=Strict");
      // Nothing secret in the address.
      expect(shared.location).not.toMatch(/[A-Za-z0-9_-]{43}/);
      expect(await linksOf(id)).toBe(1);

      const first = await shared.get();
      expect(first.answer.statusCode).toBe(200);
      const url = first.view.issuedShareLink!;
      expect(url).toMatch(/^https:\/\/www\.example\.test\/preview\/[A-Za-z0-9_-]{43}$/);
      expect(first.answer.body).toContain('id="share-link"');
      expect(first.answer.body).toContain('data-studio-copy="issued-share-link"');
      const opened = await resolveContentLink(t.database.db, url.split("/").at(-1)!, t.clock.now);
      expect(opened).toEqual({ item: { kind: "article", id }, kind: "share" });

      // Reloaded, twice: the same link, and still one in the database.
      for (let reload = 0; reload < 2; reload += 1) {
        const again = await shared.get();
        expect(again.view.issuedShareLink).toBe(url);
        expect(again.view.shareLinks).toHaveLength(1);
      }
      expect(await linksOf(id)).toBe(1);
      // The editor's own address (no ?shared=) shows no address; the list keeps the link.
      const plain = propsOf(await editorPage(id, member), "article-editor").editor;
      expect(plain.issuedShareLink).toBeUndefined();
      expect(plain.shareLinkGone).toBeUndefined();
      expect(plain.shareLinks).toHaveLength(1);
    });

    it("the same form sent again makes no second link: its maker is sent to the same page; anyone else gets 409", async () => {
      const id = await createArticle(t, member, { title: "Replayed" });
      const first = await sharePreview(t, "article", id, member);
      expect(first.post.statusCode).toBe(303);
      const replay = await sharePreview(t, "article", id, member, first.key);
      expect(replay.post.statusCode).toBe(303);
      expect(replay.location).toBe(first.location);
      expect(replay.post.headers["set-cookie"]).toBeUndefined();
      // With the first answer's cookie, the page shows the one link.
      expect((await first.get()).view.issuedShareLink).toMatch(/\/preview\//);
      const byOther = await sharePreview(t, "article", id, other, first.key);
      expect(byOther.post.statusCode).toBe(409);
      expect(byOther.post.body).toContain("This Share preview form was sent already, so no second link was made.");
      // Another item's form key is no key of this one.
      const elsewhere = await createArticle(t, member, { title: "Elsewhere" });
      expect((await sharePreview(t, "article", elsewhere, member, first.key)).post.statusCode).toBe(409);
      expect(await linksOf(id)).toBe(1);
      expect(await linksOf(elsewhere)).toBe(0);
      const made = await t.database.db
        .select({ n: count() })
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "article-link-created"), eq(auditEvents.targetId, id)));
      expect(Number(made[0]!.n)).toBe(1);
    });

    it("shows the link to its maker's browser only: another person, or the same person without the cookie, is told it is not shown", async () => {
      const id = await createArticle(t, member, { title: "Only mine" });
      const shared = await sharePreview(t, "article", id, member);
      const token = (await shared.get()).view.issuedShareLink!.split("/").at(-1)!;
      // Another member of staff with the address, and even with the cookie: not theirs.
      for (const cookie of [other.cookie, `${other.cookie}; ${shared.shareCookie}`, member.cookie]) {
        const { answer, view } = await shared.get(cookie);
        expect(answer.statusCode).toBe(200);
        expect(view.issuedShareLink).toBeUndefined();
        expect(view.shareLinkGone).toBe(true);
        expect(answer.body).not.toContain(token);
        expect(answer.body).toContain("That share link is no longer shown here");
      }
      // A cookie of another link, or a forged token: nothing shown.
      const forged = `${member.cookie}; studio_share=${shared.key}.${"A".repeat(43)}`;
      expect((await shared.get(forged)).view.issuedShareLink).toBeUndefined();
      // Revoked: no longer shown, even to its maker's browser.
      const linkId = (await shared.get()).view.shareLinks[0]!.id;
      const revoked = await postForm(t, adminHref("articleShareLinkRevoke", { id, linkId }), member, {});
      expect(revoked.statusCode).toBe(303);
      expect((await shared.get()).view).toMatchObject({ shareLinkGone: true });
      // `shared` must be a link's id.
      expect((await editorPage(id, member, { shared: "x" })).statusCode).toBe(400);
    });

    it("refuses an unknown or malformed id (404), a form without its key (400) and another site (403), making nothing", async () => {
      const id = await createArticle(t, member, { title: "Refusals" });
      const before = await allLinks();
      const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
        t.send({
          method: "POST",
          url,
          cookie: member.cookie,
          headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
          payload: new URLSearchParams(fields).toString(),
        });
      const key = { requestKey: randomUUID() };
      for (const unknown of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
        const answer = await post(adminHref("articleShareLink", { id: unknown }), key);
        expect(answer.statusCode, unknown).toBe(404);
      }
      // An article's id on the project's route is no project.
      expect((await post(adminHref("projectShareLink", { id }), key)).statusCode).toBe(404);
      const malformed: Record<string, string>[] = [{}, { requestKey: "x" }, { requestKey: `${randomUUID()}\u0000` }];
      for (const fields of malformed) {
        const answer = await post(adminHref("articleShareLink", { id }), fields);
        expect(answer.statusCode, JSON.stringify(fields)).toBe(400);
        expect(answer.body).toContain("This Share preview form is out of date: reload the page");
      }
      for (const origin of ["https://attacker.example", "null"]) {
        const answer = await post(adminHref("articleShareLink", { id }), key, { origin });
        expect(answer.statusCode, origin).toBe(403);
      }
      expect(await allLinks()).toBe(before);
    });
  });

  describe("history", () => {
    it("folds a run of one person's autosaves into one entry; another person's autosave between is not folded; every revision stays", async () => {
      const id = await createArticle(t, member, { title: "Runs", body: "one" });
      await autosaved(id, member, { title: "Runs", body: "one two" });
      await autosaved(id, member, { title: "Runs", body: "one two three" });
      await autosaved(id, member, { title: "Runs", body: "one two three four" });
      await autosaved(id, admin, { title: "Runs", body: "one two three four five" });
      await autosaved(id, member, { title: "Runs", body: "one two three four five six" });
      await autosaved(id, admin, { title: "Runs", body: "one two three four five six seven" });
      const stored = await t.database.db
        .select({ id: contentRevisions.id, number: contentRevisions.number })
        .from(contentRevisions)
        .where(eq(contentRevisions.articleId, id))
        .orderBy(contentRevisions.number);
      expect(stored.map((one) => one.number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      const { props, body } = await history(id);
      expect(props.revisions.map((entry) => [entry.number, entry.by, entry.folded?.count ?? 1])).toEqual([
        [7, "Meera Shah", 1],
        [6, "Ravi Desai", 1],
        [5, "Meera Shah", 1],
        [4, "Ravi Desai", 3],
        [1, "Ravi Desai", 1],
      ]);
      const run = props.revisions[3]!;
      expect(run.folded!.revisions.map((one) => one.number)).toEqual([4, 3, 2]);
      expect(run.folded!.revisions.map((one) => one.id)).toEqual([stored[3]!.id, stored[2]!.id, stored[1]!.id]);
      expect(run.id).toBe(stored[3]!.id);
      expect(run.before).toBe(stored[0]!.id);
      expect(run.changes).toBe("Body: 3 words added");
      expect(body).toMatch(/Autosaved 3 times, \d\d:\d\d(–\d\d:\d\d)? IST/);
      expect(body).toContain("Show the 3 autosaves");
      expect(body).toContain(
        `href="${adminHref("articleCompare", { id }, { from: stored[0]!.id, to: stored[3]!.id }).replace(/&/g, "&amp;")}"`,
      );
      // Each revision of the run is reached from it: compared with the one before it.
      expect(body).toContain(
        `href="${adminHref("articleCompare", { id }, { from: stored[1]!.id, to: stored[2]!.id }).replace(/&/g, "&amp;")}"`,
      );
      expect(props.revisions[4]!.changes).toBe("First version");

      // A form save ends a run: the autosave after it starts another.
      await saved(id, member, { title: "Runs", body: "one two three four five six seven eight" });
      await autosaved(id, member, { title: "Runs", body: "one two three four five six seven eight nine" });
      await autosaved(id, member, { title: "Runs", body: "one two three four five six seven eight nine ten" });
      const after = (await history(id)).props.revisions;
      expect(after.map((entry) => [entry.number, entry.source, entry.folded?.count ?? 1]).slice(0, 3)).toEqual([
        [10, "autosave", 2],
        [8, "studio", 1],
        [7, "autosave", 1],
      ]);
    });

    it("says what each entry changed: fields by name, words added and removed exactly, the cover replaced", async () => {
      const blank = propsOf(
        await t.send({ method: "GET", url: adminHref("articleNew"), cookie: member.cookie }),
        "article-editor",
      ).editor;
      const otherCover = blank.images.find((image) => image.url !== COVER)!.url;
      const id = await createArticle(t, member, { title: "Summaries", body: "alpha beta gamma" });
      await saved(id, member, { title: "Summaries, revised", body: "alpha beta gamma delta epsilon" });
      await saved(id, member, { title: "Summaries, revised", body: "alpha gamma delta epsilon" });
      await saved(id, member, { title: "Summaries, revised", body: "alpha gamma delta epsilon", imageUrl: otherCover });
      await saved(id, member, {
        title: "Summaries, revised",
        body: "alpha gamma delta epsilon",
        imageUrl: otherCover,
        slug: "summaries-renamed",
      });
      await saved(id, member, {
        title: "Summaries, revised",
        body: "alpha GAMMA delta epsilon",
        imageUrl: otherCover,
        slug: "summaries-renamed",
        excerpt: "Another excerpt.",
        category: "Grid Integration",
      });
      const { props } = await history(id);
      expect(props.revisions.map((entry) => [entry.number, entry.changes])).toEqual([
        [6, "Excerpt changed; category changed; 1 word added, 1 word removed"],
        [5, "Slug changed"],
        [4, "Cover replaced"],
        [3, "Body: 1 word removed"],
        [2, "Title changed; 2 words added"],
        [1, "First version"],
      ]);
      // Revisions saved before changes were kept say so, and nothing else.
      await t.database.db
        .update(contentRevisions)
        .set({ changes: null })
        .where(and(eq(contentRevisions.articleId, id), eq(contentRevisions.number, 5)));
      expect((await history(id)).props.revisions[1]!.changes).toBe(
        "Changes not recorded (saved before History kept them)",
      );
    });
  });

  describe("compare and restore", () => {
    it("Compare offers Restore this version for a revision that is not the draft, with History's guards", async () => {
      const id = await createArticle(t, member, { title: "Compare restores", body: "First text." });
      const [first] = await t.database.db
        .select({ id: contentRevisions.id })
        .from(contentRevisions)
        .where(eq(contentRevisions.articleId, id));
      await saved(id, member, { title: "Compare restores", body: "Second text." });
      const head = await headOf(t, id);
      const compare = await t.send({
        method: "GET",
        url: adminHref("articleCompare", { id }, { from: first!.id, to: head }),
        cookie: member.cookie,
      });
      expect(compare.statusCode).toBe(200);
      const action = adminHref("articleRevisionRestore", { id, revisionId: String(first!.id) });
      expect(compare.body).toMatch(
        new RegExp(
          `<form [^>]*action="${action}" method="post"><input type="hidden" name="baseRevisionId" value="${head}"/><button type="submit" class="admin-button-secondary">Restore this version<span class="sr-only"> \\(revision 1\\)</span>`,
        ),
      );
      // None for the draft itself.
      expect(compare.body).not.toContain(`/revisions/${head}/restore`);
      // The form restores, as History's does.
      const restored = await postForm(t, action, member, { baseRevisionId: head });
      expect(restored.statusCode).toBe(303);
      expect(restored.headers.location).toBe(adminHref("article", { id }, { notice: "revision-restored" }));
      // Sent again from the same page (the head has moved): refused, nothing made.
      await saved(id, member, { title: "Compare restores", body: "Third text." });
      const stale = await postForm(t, action, member, { baseRevisionId: head });
      expect(stale.statusCode).toBe(409);
      // In the trash: no Restore on Compare.
      const trashed = await postForm(t, adminHref("articleTrash", { id }), admin, {
        baseRevisionId: await headOf(t, id),
      });
      expect(trashed.statusCode).toBe(303);
      const inTrash = await t.send({
        method: "GET",
        url: adminHref("articleCompare", { id }, { from: first!.id, to: head }),
        cookie: member.cookie,
      });
      expect(inTrash.statusCode).toBe(200);
      expect(inTrash.body).not.toContain("Restore this version");
    });

    it("after restoring a published article's old revision, the editor says the live page shows another and offers Publish", async () => {
      const id = await createArticle(t, member, { title: "Live and restored", body: "The first words." });
      const published = await postForm(t, adminHref("articlePublish", { id }), admin, {
        ...articleFields({ title: "Live and restored", body: "The published words.", slug: await slugOf(id) }),
        baseRevisionId: await headOf(t, id),
        when: "now",
      });
      expect(published.statusCode).toBe(303);
      expect(published.headers.location).toBe(adminHref("article", { id }, { notice: "article-published" }));
      const publishedNumber = (await history(id)).props.revisions.find((entry) => entry.published)!.number;
      const [first] = await t.database.db
        .select({ id: contentRevisions.id })
        .from(contentRevisions)
        .where(and(eq(contentRevisions.articleId, id), eq(contentRevisions.number, 1)));
      const restored = await postForm(
        t,
        adminHref("articleRevisionRestore", { id, revisionId: String(first!.id) }),
        member,
        {
          baseRevisionId: await headOf(t, id),
        },
      );
      expect(restored.statusCode).toBe(303);
      const page = await t.send({ method: "GET", url: String(restored.headers.location), cookie: admin.cookie });
      expect(page.statusCode).toBe(200);
      expect(propsOf(page, "article-editor").editor.restoreOffer).toEqual({ restoredFrom: 1, live: publishedNumber });
      expect(page.body).toContain(
        `Restored revision 1 as the draft. The live page still shows revision ${publishedNumber}: press Publish to make this version live.`,
      );
      // Publish right there: a button of the editor's form, to the publish route, as the one at its foot.
      const offer = offerIn(page.body);
      const button = /<button [^>]*>Publish<\/button>/.exec(offer)?.[0] ?? "";
      for (const attribute of [
        'type="submit"',
        'form="article-form"',
        `formAction="${adminHref("articlePublish", { id })}"`,
        'name="when"',
        'value="now"',
      ])
        expect(button, attribute).toContain(attribute);
      // Someone who may not publish is told whom to ask.
      const asMember = await t.send({ method: "GET", url: String(restored.headers.location), cookie: member.cookie });
      expect(asMember.body).toContain("Ask an admin, or someone who can publish, to publish it.");
      expect(offerIn(asMember.body)).not.toContain("<button");
      // The editor's own address says nothing of it.
      expect(propsOf(await editorPage(id, admin), "article-editor").editor.restoreOffer).toBeUndefined();
    });

    it("after restoring a never-published article's revision, the editor says the restored text is the draft", async () => {
      const id = await createArticle(t, member, { title: "Never live", body: "Before." });
      const [first] = await t.database.db
        .select({ id: contentRevisions.id })
        .from(contentRevisions)
        .where(eq(contentRevisions.articleId, id));
      await saved(id, member, { title: "Never live", body: "After." });
      const restored = await postForm(
        t,
        adminHref("articleRevisionRestore", { id, revisionId: String(first!.id) }),
        member,
        {
          baseRevisionId: await headOf(t, id),
        },
      );
      const page = await t.send({ method: "GET", url: String(restored.headers.location), cookie: admin.cookie });
      expect(propsOf(page, "article-editor").editor.restoreOffer).toEqual({ restoredFrom: 1, live: null });
      expect(page.body).toContain(
        "Restored revision 1 as the draft. The article is not on the site: the restored text is the draft, and stays a draft until it is published.",
      );
      expect(offerIn(page.body)).not.toContain("<button");
    });
  });
});
