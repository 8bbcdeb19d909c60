import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  newSessionFor,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";
import type { AutosaveAnswer } from "#shared/admin/pages.ts";
import { CONTENT_LIMITS } from "#shared/content/documents.ts";
import { adminHref, AUTOSAVES_PER_MINUTE } from "#shared/admin/routes.ts";
import { contentRevisions } from "../../db/schema.ts";
import { AUTOSAVE_FOLD_SECONDS } from "./autosave-folding.ts";
import {
  articleFields,
  articleRow,
  createArticle,
  headOf,
  postForm,
  postJson,
  uniqueEmail,
} from "./studio-test-kit.ts";

// Autosave's limits (docs/decisions/048-autosave-limits-and-folding.md), through inject() on both
// databases: a session's autosaves are limited to what the editor sends (429 with Retry-After past
// it, the text of the last accepted one whole), and the autosaves of a minute by one author fold
// into one revision, unless something refers to it (its publication, a preview or share link, the
// audit trail, another open editor); a form save always makes its own, and a second writer's
// stale base is still refused.

vi.mock("#web/admin/entry-server.tsx", async (importOriginal) =>
  (await import("./studio-test-kit.ts")).recordingEntry(await importOriginal()),
);

describe.each(testDrivers)("autosave's limits and folding on %s", (driver) => {
  let t: AdminTestApp;
  let admin: StaffWithSession;
  let member: StaffWithSession;
  let other: StaffWithSession;
  beforeAll(async () => {
    t = await buildAdminTestApp(driver);
    admin = await staffWithSession(t, { email: uniqueEmail("meera"), name: "Meera Shah", role: "admin" });
    member = await staffWithSession(t, { email: uniqueEmail("ravi"), name: "Ravi Desai", role: "staff" });
    other = await staffWithSession(t, { email: uniqueEmail("asha"), name: "Asha Patel", role: "staff" });
  });
  afterAll(async () => {
    await t.close();
  });

  const revisionsOf = (id: string) =>
    t.database.db
      .select()
      .from(contentRevisions)
      .where(eq(contentRevisions.articleId, id))
      .orderBy(contentRevisions.number);
  const autosave = (id: string, person: StaffWithSession, body: string, base: number, title = "Folding") =>
    postJson(t, adminHref("articleAutosave", { id }), person, {
      ...articleFields({ title, body }),
      baseRevisionId: String(base),
    });
  /** An autosave that must be accepted: the revision it made (or replaced). */
  const saved = async (id: string, person: StaffWithSession, body: string, title = "Folding") => {
    const response = await autosave(id, person, body, await headOf(t, id), title);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    return (response.json() as Extract<AutosaveAnswer, { saved: true }>).revision;
  };
  const formSave = async (id: string, person: StaffWithSession, body: string, title = "Folding") => {
    const response = await postForm(t, adminHref("articleSave", { id }), person, {
      ...articleFields({ title, body }),
      baseRevisionId: await headOf(t, id),
    });
    expect(response.statusCode).toBe(303);
  };
  /** Moves a revision's time back, as if it had been made that long ago. */
  const age = (revisionId: number, seconds: number) =>
    t.database.db
      .update(contentRevisions)
      .set({ createdAt: sql`${contentRevisions.createdAt} - ${seconds}::int * interval '1 second'` })
      .where(eq(contentRevisions.id, revisionId));

  it("300 rapid autosaves of 100 KB from one session: the limit's worth accepted, the rest 429 with Retry-After; one revision, holding the last accepted text whole", async () => {
    const id = await createArticle(t, member, { title: "Flood" });
    // A session of its own: the other tests' autosaves are not counted with these.
    const flooding = await newSessionFor(t, member);
    const before = await revisionsOf(id);
    // About 100 KB: the longest body the studio takes, less room for the paragraph's number.
    const filler = "Load flow results for the 33 kV ring under N-1 contingency. "
      .repeat(1700)
      .slice(0, CONTENT_LIMITS.body - 20);
    let base = await headOf(t, id);
    let lastAccepted = "";
    const statuses: number[] = [];
    for (let round = 0; round < 300; round += 1) {
      const body = `${filler}\n\nParagraph ${round}.`;
      const response = await autosave(id, flooding, body, base, "Flood");
      statuses.push(response.statusCode);
      if (response.statusCode === 200) {
        // As the editor does: the next autosave is based on the revision this one made.
        base = (response.json() as Extract<AutosaveAnswer, { saved: true }>).revision.id;
        lastAccepted = body;
      } else {
        expect(response.statusCode).toBe(429);
        const seconds = Number(response.headers["retry-after"]);
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(seconds).toBeLessThanOrEqual(60);
        expect(response.json()).toEqual({
          error: "Too Many Requests",
          message: `Too many autosaves from this session. Please wait ${seconds} seconds and try again.`,
        });
      }
    }
    // The limit's worth accepted, then refused. (The window slides: had the run taken over a
    // minute on a slow machine, a few more would be accepted as the first ones left it.)
    const accepted = statuses.filter((status) => status === 200).length;
    expect(statuses.slice(0, AUTOSAVES_PER_MINUTE + 1)).toEqual([...Array(AUTOSAVES_PER_MINUTE).fill(200), 429]);
    expect(accepted).toBeLessThanOrEqual(2 * AUTOSAVES_PER_MINUTE);

    // One revision a minute at most: the accepted autosaves folded into one (or a few, had they
    // taken over a minute), and it holds the last accepted text, whole.
    const after = await revisionsOf(id);
    expect(after.length - before.length).toBeGreaterThanOrEqual(1);
    expect(after.length - before.length).toBeLessThanOrEqual(3);
    const head = after.at(-1)!;
    expect(head.id).toBe(await headOf(t, id));
    expect(head.id).toBe(base);
    expect(head.document.body).toBe(lastAccepted);
    expect(lastAccepted).toContain(`Paragraph ${statuses.lastIndexOf(200)}.`);

    // The limit is the session's: the same person in another window saves.
    const window = await newSessionFor(t, member);
    expect((await autosave(id, window, "From the other window.", base, "Flood")).statusCode).toBe(200);
    // 300 requests of 100 KB: more than the default timeout on a loaded machine.
  }, 120_000);

  it("folds the autosaves of a minute by one author into one revision (a new id, the same number and base); a form save makes its own", async () => {
    const id = await createArticle(t, member, { title: "Folding" });
    const first = await headOf(t, id);

    const a = await saved(id, member, "First words.");
    expect(a).toMatchObject({ number: 2, source: "autosave" });
    const b = await saved(id, member, "First words, and more.");
    expect(b).toMatchObject({ number: 2, source: "autosave" });
    expect(b.id).not.toBe(a.id);
    let revisions = await revisionsOf(id);
    expect(revisions.map((revision) => [revision.number, revision.source])).toEqual([
      [1, "studio"],
      [2, "autosave"],
    ]);
    expect(revisions[1]).toMatchObject({
      id: b.id,
      baseRevisionId: first,
      document: { body: "First words, and more." },
    });
    // The replaced revision is gone, not changed: its id names nothing now.
    expect(revisions.some((revision) => revision.id === a.id)).toBe(false);

    // "Save draft" always makes a revision of its own; the autosave after it starts a new one.
    await formSave(id, member, "Saved by hand.");
    const c = await saved(id, member, "Saved by hand, then typed on.");
    const d = await saved(id, member, "Saved by hand, then typed on and on.");
    expect([c.number, d.number]).toEqual([4, 4]);
    revisions = await revisionsOf(id);
    expect(revisions.map((revision) => [revision.number, revision.source])).toEqual([
      [1, "studio"],
      [2, "autosave"],
      [3, "studio"],
      [4, "autosave"],
    ]);
    expect(revisions[3]!.baseRevisionId).toBe(revisions[2]!.id);

    // Another author's autosave never replaces this one's.
    const theirs = await saved(id, other, "Asha's words.");
    expect(theirs.number).toBe(5);

    // A minute after it was made, an autosave starts a revision of its own.
    const e = await saved(id, other, "Asha's words, a little later.");
    expect(e.number).toBe(5);
    await age(e.id, AUTOSAVE_FOLD_SECONDS + 1);
    const f = await saved(id, other, "Asha's words, a minute later.");
    expect(f.number).toBe(6);
    expect((await revisionsOf(id)).map((revision) => revision.document.body)).toEqual([
      expect.any(String),
      "First words, and more.",
      "Saved by hand.",
      "Saved by hand, then typed on and on.",
      "Asha's words, a little later.",
      "Asha's words, a minute later.",
    ]);
  });

  it("never replaces the revision that is published, or one a share or preview link was made at", async () => {
    // Published: the autosave revision published as it is (its date is in the past: no dated revision).
    const id = await createArticle(t, admin, { title: "Kept" });
    const fields = articleFields({
      title: "Kept",
      slug: "kept-as-published",
      body: "As published.",
      publishedAt: "2026-11-20T10:00",
    });
    const autosaved = await postJson(t, adminHref("articleAutosave", { id }), admin, {
      ...fields,
      baseRevisionId: String(await headOf(t, id)),
    });
    const published = (autosaved.json() as Extract<AutosaveAnswer, { saved: true }>).revision;
    expect(published.source).toBe("autosave");
    const publishing = await postForm(t, adminHref("articlePublish", { id }), admin, {
      ...fields,
      baseRevisionId: published.id,
      when: "now",
    });
    expect(publishing.statusCode, publishing.body.slice(-1500)).toBe(303);
    expect((await articleRow(t, id)).publishedRevisionId).toBe(published.id);
    const next = await postJson(t, adminHref("articleAutosave", { id }), admin, {
      ...fields,
      body: "After publishing.",
      baseRevisionId: String(published.id),
    });
    expect(next.statusCode).toBe(200);
    expect((next.json() as Extract<AutosaveAnswer, { saved: true }>).revision.number).toBe(published.number + 1);
    const [stillPublished] = await t.database.db
      .select()
      .from(contentRevisions)
      .where(eq(contentRevisions.id, published.id));
    expect(stillPublished!.document).toMatchObject({ body: "As published." });

    // Share and preview links: the audit trail says which revision each was made at.
    for (const link of ["articleShareLink", "articlePreviewLink"] as const) {
      const item = await createArticle(t, member, { title: `Linked ${link}` });
      const shown = await saved(item, member, "What the reviewer was sent.", `Linked ${link}`);
      // Share preview's form carries its key (decision 058).
      const made = await postForm(t, adminHref(link, { id: item }), member, {
        requestKey: randomUUID(),
      });
      expect(made.statusCode).toBeLessThan(400);
      const later = await saved(item, member, "Typed after the link was made.", `Linked ${link}`);
      expect(later.number).toBe(shown.number + 1);
      const [kept] = await t.database.db.select().from(contentRevisions).where(eq(contentRevisions.id, shown.id));
      expect(kept!.document).toMatchObject({ body: "What the reviewer was sent." });
      // The revision after it folds as any other.
      expect((await saved(item, member, "And on.", `Linked ${link}`)).number).toBe(later.number);
    }
  });

  it("refuses a second writer's autosave and save based on a replaced revision (409), overwriting nothing", async () => {
    const id = await createArticle(t, member, { title: "Two writers" });
    const seen = await saved(id, member, "Ravi's first words.", "Two writers");
    // Asha opens the article now: her page is based on `seen`. Ravi types on; his autosave replaces it.
    const replaced = await saved(id, member, "Ravi's first words, and his second.", "Two writers");
    expect(replaced.number).toBe(seen.number);
    expect(replaced.id).not.toBe(seen.id);

    const refused = await autosave(id, other, "Asha's words.", seen.id, "Two writers");
    expect(refused.statusCode).toBe(409);
    const answer = refused.json() as Extract<AutosaveAnswer, { error: "Conflict" }>;
    expect(answer.current).toMatchObject({ revisionId: replaced.id, number: replaced.number, by: "Ravi Desai" });
    // "See what they changed" opens: from the revision both followed, to theirs.
    const first = (await revisionsOf(id))[0]!.id;
    expect(answer.compareHref).toBe(adminHref("articleCompare", { id }, { from: first, to: replaced.id }));
    expect((await t.send({ method: "GET", url: answer.compareHref, cookie: other.cookie })).statusCode).toBe(200);

    const form = await postForm(t, adminHref("articleSave", { id }), other, {
      ...articleFields({ title: "Two writers", body: "Asha's words." }),
      baseRevisionId: seen.id,
    });
    expect(form.statusCode).toBe(409);
    expect(await headOf(t, id)).toBe(replaced.id);
    expect((await revisionsOf(id)).map((revision) => revision.document.body)).not.toContain("Asha's words.");
  });

  it("keeps the revision another open editor is based on: while someone else has the article open, each autosave is a revision", async () => {
    const id = await createArticle(t, member, { title: "Open elsewhere" });
    const seen = await saved(id, member, "Ravi's first words.", "Open elsewhere");
    // Asha's editor is open on it (its presence beat).
    const beat = await postJson(t, adminHref("articlePresence", { id }), other, {});
    expect(beat.statusCode).toBe(200);
    const next = await saved(id, member, "Ravi's first words, and his second.", "Open elsewhere");
    expect(next.number).toBe(seen.number + 1);

    const refused = await autosave(id, other, "Asha's words.", seen.id, "Open elsewhere");
    expect(refused.statusCode).toBe(409);
    const answer = refused.json() as Extract<AutosaveAnswer, { error: "Conflict" }>;
    expect(answer.compareHref).toBe(adminHref("articleCompare", { id }, { from: seen.id, to: next.id }));
    expect((await t.send({ method: "GET", url: answer.compareHref, cookie: other.cookie })).statusCode).toBe(200);
  });
});
