import { asc, eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ArticleDocument, ProjectDocument } from "#shared/content/documents.ts";
import { recordAudit } from "../admin/audit/audit.ts";
import { createContentLink } from "./links.ts";
import { publishRevision } from "./publishing.ts";
import { appendRevision } from "./revisions.ts";
import { queryRows } from "../db/client.ts";
import {
  auditEvents,
  blogPosts,
  contentLinks,
  contentPresence,
  contentRedirects,
  contentRevisions,
  projects,
  staff,
  staffSessions,
} from "../db/schema.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { dailyRetentionPurge, defaultRetentionPeriods } from "../enquiries/retention.ts";
import { purgeTrashedArticles, thinAutosaves } from "./content-retention.ts";

// The daily purge's part in the content studio (docs/decisions/038-the-database-holds-the-content.md,
// section 2): articles in the trash for more than 30 days go, with everything that hangs on them;
// old autosaves are thinned to the last of each hour per author.

const now = new Date("2026-11-26T12:00:00Z");
const day = 86_400_000;

const documentOf = (slug: string, body: string): ArticleDocument => ({
  slug,
  title: `Title of ${slug}`,
  excerpt: "An excerpt.",
  category: "Power Quality",
  imageUrl: "/images/articles/a.svg",
  imageAlt: "",
  publishedAt: "2026-01-05T00:00:00.000Z",
  author: "",
  body,
});

const projectDocument: ProjectDocument = {
  slug: "a-project",
  title: "A project",
  description: "",
  category: "Utilities",
  imageUrl: "/images/projects/a.svg",
  year: "2026",
  capacity: null,
  timeline: null,
};

describe.each(testDrivers)("the daily purge of the content studio on %s", (driver) => {
  let database: TestDatabase;
  let staffId: string;
  beforeEach(async () => {
    database = await createTestDatabase(driver, { from: "empty" });
    const [member] = await database.db
      .insert(staff)
      .values({ email: "meera@example.com", name: "Meera Shah", webauthnUserId: "meera" })
      .returning({ id: staff.id });
    staffId = member!.id;
  });
  afterEach(async () => {
    await database.drop();
  });

  /** A published article, with a revision, a link, an old address and someone editing it. */
  async function article(slug: string, trashedDaysAgo: number | null) {
    const [row] = await database.db.insert(blogPosts).values({ status: "draft" }).returning({ id: blogPosts.id });
    const id = row!.id;
    const saved = await appendRevision(database.db, {
      kind: "article",
      itemId: id,
      document: documentOf(slug, "Body."),
      source: "studio",
      author: { id: staffId, label: "Meera Shah" },
    });
    if (saved.outcome !== "saved") throw new Error(saved.outcome);
    await publishRevision(database.db, { kind: "article", itemId: id, revisionId: saved.revision.id });
    await createContentLink(database.db, {
      kind: "share",
      item: { kind: "article", id },
      staff: { id: staffId, name: "Meera Shah" },
    });
    await database.db
      .insert(contentRedirects)
      .values({ kind: "article", oldSlug: `old-${slug}`, articleId: id, createdByLabel: "Meera Shah" });
    const sessionHash = `session-${slug}`;
    await database.db
      .insert(staffSessions)
      .values({ idHash: sessionHash, staffId, expiresAt: new Date(Date.now() + day), method: "passkey" });
    await database.db.insert(contentPresence).values({ articleId: id, sessionIdHash: sessionHash, staffId });
    if (trashedDaysAgo !== null) {
      await database.db
        .update(blogPosts)
        .set({ deletedAt: new Date(now.getTime() - trashedDaysAgo * day), deletedByLabel: "Meera Shah" })
        .where(eq(blogPosts.id, id));
    }
    return id;
  }

  const countFor = async (id: string) => ({
    revisions: await database.db.$count(contentRevisions, eq(contentRevisions.articleId, id)),
    links: await database.db.$count(contentLinks, eq(contentLinks.articleId, id)),
    redirects: await database.db.$count(contentRedirects, eq(contentRedirects.articleId, id)),
    presence: await database.db.$count(contentPresence, eq(contentPresence.articleId, id)),
  });

  it("deletes articles in the trash for more than 30 days, with their revisions, links, redirects and presence, and says so in the audit trail", async () => {
    const old = await article("old", 30.1);
    const recent = await article("recent", 29.9);
    const live = await article("live", null);
    expect(await countFor(old)).toEqual({ revisions: 1, links: 1, redirects: 1, presence: 1 });

    expect(await purgeTrashedArticles(database.db, now)).toBe(1);
    const left = await database.db.select({ id: blogPosts.id }).from(blogPosts);
    expect(left.map((row) => row.id).sort()).toEqual([recent, live].sort());
    expect(await countFor(old)).toEqual({ revisions: 0, links: 0, redirects: 0, presence: 0 });
    expect(await countFor(recent)).toEqual({ revisions: 1, links: 1, redirects: 1, presence: 1 });
    const events = await database.db.select().from(auditEvents);
    expect(events).toEqual([
      expect.objectContaining({
        actorId: null,
        actorLabel: "retention",
        action: "article-purged",
        targetType: "article",
        targetId: old,
        targetLabel: "Title of old",
      }),
    ]);
    // Every instance runs it; the second run finds nothing.
    expect(await purgeTrashedArticles(database.db, now)).toBe(0);
  });

  it("thins old autosaves to the last of each hour per author, keeping heads, published and restored revisions and every explicit save", async () => {
    const [row] = await database.db.insert(blogPosts).values({ status: "draft" }).returning({ id: blogPosts.id });
    const id = row!.id;
    const made: Record<string, number> = {};
    const save = async (
      name: string,
      at: Date,
      source: "autosave" | "studio" | "restore",
      author = "Meera Shah",
      restoredFrom?: string,
    ) => {
      const saved = await appendRevision(database.db, {
        kind: "article",
        itemId: id,
        document: documentOf("thinned", `Body ${name}.`),
        source,
        author: { id: author === "Meera Shah" ? staffId : null, label: author },
        restoredFromId: restoredFrom ? made[restoredFrom] : null,
      });
      if (saved.outcome !== "saved") throw new Error(saved.outcome);
      made[name] = saved.revision.id;
      await database.db
        .update(contentRevisions)
        .set({ createdAt: at })
        .where(eq(contentRevisions.id, saved.revision.id));
    };
    const hour = new Date("2026-10-01T10:00:00Z").getTime();
    const minute = 60_000;
    await save("09:10 alone in its hour", new Date(hour - 50 * minute), "autosave");
    await save("10:05", new Date(hour + 5 * minute), "autosave");
    await save("10:20 restored later", new Date(hour + 20 * minute), "autosave");
    await save("10:30 by Ravi", new Date(hour + 30 * minute), "autosave", "Ravi Kumar");
    await save("10:40 explicit", new Date(hour + 40 * minute), "studio");
    await save("10:45", new Date(hour + 45 * minute), "autosave");
    await save("10:50 last of the hour", new Date(hour + 50 * minute), "autosave");
    await save("10:55 by Ravi, last", new Date(hour + 55 * minute), "autosave", "Ravi Kumar");
    await save("restore", new Date(hour + 80 * minute), "restore", "Meera Shah", "10:20 restored later");
    await save("11:30 published", new Date(hour + 90 * minute), "autosave");
    await publishRevision(database.db, { kind: "article", itemId: id, revisionId: made["11:30 published"]! });
    await save("11:40", new Date(hour + 100 * minute), "autosave");
    // Within the last 30 days: kept whatever their hour.
    await save("recent 1", new Date(now.getTime() - 10 * day), "autosave");
    await save("recent 2", new Date(now.getTime() - 10 * day + minute), "autosave");
    // The head: kept however old.
    await save("11:45", new Date(hour + 105 * minute), "autosave");
    await save("11:50 head", new Date(hour + 110 * minute), "autosave");

    expect(await thinAutosaves(database.db, now)).toBe(5);
    const left = new Set(
      (
        await database.db.select({ id: contentRevisions.id }).from(contentRevisions).orderBy(asc(contentRevisions.id))
      ).map((revision) => revision.id),
    );
    const gone = Object.entries(made)
      .filter(([, revisionId]) => !left.has(revisionId))
      .map(([name]) => name);
    expect(gone).toEqual(["10:05", "10:30 by Ravi", "10:45", "11:40", "11:45"]);
    expect(await thinAutosaves(database.db, now)).toBe(0);
  });

  it("keeps an old autosave of a project that an audit event names as published, though it is no longer the published one", async () => {
    const [row] = await database.db.insert(projects).values({ status: "draft" }).returning({ id: projects.id });
    const id = row!.id;
    const hour = new Date("2026-10-01T10:00:00Z").getTime();
    const made: number[] = [];
    for (const [minutes, description] of [
      [5, "Published once."],
      [10, "Thinned."],
      [15, "Last of the hour."],
      [90, "The head."],
    ] as const) {
      const saved = await appendRevision(database.db, {
        kind: "project",
        itemId: id,
        document: { ...projectDocument, description },
        source: "autosave",
        author: { id: staffId, label: "Meera Shah" },
      });
      if (saved.outcome !== "saved") throw new Error(saved.outcome);
      made.push(saved.revision.id);
      await database.db
        .update(contentRevisions)
        .set({ createdAt: new Date(hour + minutes * 60_000) })
        .where(eq(contentRevisions.id, saved.revision.id));
    }
    await recordAudit(database.db, {
      actor: { id: staffId, label: "Meera Shah" },
      action: "project-published",
      target: { type: "project", id, label: "A project" },
      details: { revision: 1, publishedAt: new Date(hour).toISOString(), slug: "a-project" },
    });
    expect(await thinAutosaves(database.db, now)).toBe(1);
    const left = (
      await database.db
        .select({ id: contentRevisions.id })
        .from(contentRevisions)
        .where(eq(contentRevisions.projectId, id))
    ).map((revision) => revision.id);
    expect(left.sort()).toEqual([made[0], made[2], made[3]].sort());
  });

  it("runs once a day with the enquiries' purge", async () => {
    const old = await article("old", 31);
    expect(await dailyRetentionPurge(database.db, now, defaultRetentionPeriods)).toEqual({
      enquiries: 0,
      spam: 0,
      articlesPurged: 1,
      autosavesThinned: 0,
      unconfirmedSubscribers: 0,
      legacySubscribersAsked: 0,
    });
    expect(await database.db.$count(blogPosts, eq(blogPosts.id, old))).toBe(0);
    expect(await dailyRetentionPurge(database.db, new Date(now.getTime() + 1000), defaultRetentionPeriods)).toBeNull();
    const [claim] = await queryRows<{ value: string }>(
      database.db,
      sql`select value from app_settings where key = 'daily:retention'`,
    );
    expect(claim?.value).toBe("2026-11-26");
  });
});
