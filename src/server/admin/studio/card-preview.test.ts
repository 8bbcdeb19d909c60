import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminHref } from "#shared/admin/routes.ts";
import { type ArticleDocument, EMPTY_PROJECT } from "#shared/content/documents.ts";
import { CARD_HEIGHT, CARD_WIDTH } from "#shared/link-card.ts";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { projectDriver } from "../../../../test/databases.ts";
import { cardPath } from "../../cards/card-address.ts";
import { contentRevisions } from "../../db/schema.ts";
import { createArticle, propsOf, uniqueEmail } from "./studio-test-kit.ts";
import { draftArticleCard, draftProjectCard } from "./card-preview.ts";
import { DRAFT_STAND_IN_TITLE } from "../../content/draft-article.ts";

// The studio's preview of a draft's link-preview card (docs/decisions/053-link-preview-cards.md):
// shown beside the publish checklist, drawn behind the back office's door, and never at a public address.

vi.mock("#web/admin/entry-server.tsx", async (importOriginal) =>
  (await import("./studio-test-kit.ts")).recordingEntry(await importOriginal()),
);

describe("a draft's card in the studio", () => {
  let t: AdminTestApp;
  let member: StaffWithSession;
  beforeAll(async () => {
    t = await buildAdminTestApp(projectDriver, { startAt: new Date(Date.now() - 60_000), content: true });
    member = await staffWithSession(t, { email: uniqueEmail("ravi"), name: "Ravi Desai", role: "staff" });
  });
  afterAll(async () => {
    await t.close();
  });

  it("shows staff the draft's card beside the checklist, as a 1200 × 627 JPEG kept by no one downstream", async () => {
    const title = "Transformer inrush on weak grids";
    const id = await createArticle(t, member, {
      title,
      slug: "transformer-inrush-on-weak-grids",
      author: "anil-patel",
    });
    const editor = await t.send({ method: "GET", url: adminHref("article", { id }), cookie: member.cookie });
    expect(propsOf(editor, "article-editor").editor.document.title).toBe(title);
    const src = /<div[^>]*data-studio-link-preview[\s\S]*?<img src="([^"]+)"/
      .exec(editor.body)?.[1]
      ?.replaceAll("&amp;", "&");
    expect(src).toMatch(new RegExp(`^${adminHref("articleCard", { id })}\\?revision=\\d+$`));

    // The byline as publishing will name it, with the photo the team page shows.
    const [head] = await t.database.db.select().from(contentRevisions).where(eq(contentRevisions.articleId, id));
    expect(await draftArticleCard(t.database.db, head!.document as ArticleDocument)).toEqual({
      kind: "article",
      title,
      label: "Protection",
      author: { name: "Anil Patel", photo: "/images/team/anil-patel.svg" },
    });

    const card = await t.send({ method: "GET", url: src!, cookie: member.cookie });
    expect(card.statusCode).toBe(200);
    expect(card.headers["content-type"]).toBe("image/jpeg");
    expect(card.headers["cache-control"]).toBe("no-store");
    const info = await sharp(card.rawPayload).metadata();
    expect([info.format, info.width, info.height]).toEqual(["jpeg", CARD_WIDTH, CARD_HEIGHT]);
  });

  it("gives a project's draft its capacity, and an untitled draft the stand-in title", () => {
    const project = { ...EMPTY_PROJECT, title: "Charanka 250 MW", category: "Renewable Energy", capacity: "250 MW" };
    expect(draftProjectCard(project)).toEqual({
      kind: "project",
      title: "Charanka 250 MW",
      label: "Project · Renewable Energy",
      capacity: "250 MW",
    });
    expect(draftProjectCard({ ...project, title: " ", capacity: "" })).toEqual({
      kind: "project",
      title: DRAFT_STAND_IN_TITLE,
      label: "Project · Renewable Energy",
    });
  });

  it("refuses without a session, and never draws the draft at a public address", async () => {
    const title = "A draft only staff may see";
    const id = await createArticle(t, member, { title, slug: "a-draft-only-staff-may-see", category: "Protection" });
    const anonymous = await t.send({ method: "GET", url: adminHref("articleCard", { id }) });
    expect([303, 401, 403]).toContain(anonymous.statusCode);
    expect(anonymous.headers["content-type"]).not.toBe("image/jpeg");
    const drawn = t.app.cards.drawn;
    const publicCard = cardPath("blog_a-draft-only-staff-may-see", { kind: "article", title, label: "Protection" });
    expect((await t.app.inject({ method: "GET", url: publicCard })).statusCode).toBe(404);
    expect(t.app.cards.drawn).toBe(drawn);
    const unknown = await t.send({
      method: "GET",
      url: adminHref("articleCard", { id: "00000000-0000-4000-8000-000000000000" }),
      cookie: member.cookie,
    });
    expect(unknown.statusCode).toBe(404);
  });
});
