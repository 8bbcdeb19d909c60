import { eq, sql } from "drizzle-orm";
import { type ArticleDocument, type ChecklistItem, publishBlockers, slugFromTitle } from "#shared/content/documents.ts";
import type { Database } from "../../db/client.ts";
import { blogPosts } from "../../db/schema.ts";
import { bumpContentVersion } from "../../content/data-version.ts";
import { publishRevision, unpublishItem } from "../../content/publishing.ts";
import { appendRevision, headRevision, type RevisionSummary, revisionOf } from "../../content/revisions.ts";
import { isPublicNow, lockArticle, teamMemberExists } from "./article-queries.ts";
import { freeSlug, moveRedirects, slugProblem } from "./slugs.ts";

// Every change the studio makes to an article, each one transaction: create, save (the form,
// autosave and restore), publish or schedule, unpublish, trash and restore from the trash. Each
// locks the article's row first, so changes of one article take turns, and checks the revision
// the person saw is still the head (decision 038, section 4): of two changes made from one
// revision exactly one wins. Revisions are only ever appended (src/server/content/revisions.ts).

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type Author = { id: string; label: string };

/** A field of the document and what is wrong with it. */
export type FieldProblem = { field: keyof ArticleDocument; message: string };

export type WriteRefusal =
  /** The head is no longer the revision the person saw: someone saved meanwhile. */
  | { outcome: "stale"; current: RevisionSummary }
  /** No such article, or it is in the trash. */
  | { outcome: "missing" }
  /** The document cannot be saved or published as it is: each problem at its field. */
  | { outcome: "invalid"; problems: FieldProblem[] }
  /** The action does not apply to the article as it is ("not published"). */
  | { outcome: "refused"; message: string };

/** Holds the claim to a slug until the transaction ends: two articles cannot take one slug at once. */
async function lockSlug(tx: Tx, slug: string): Promise<void> {
  if (slug) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`article-slug:${slug}`}))`);
}

/** What the document's own fields refuse, beyond their schema: a slug that is taken, an author who is not one. */
async function documentProblems(tx: Tx, articleId: string | null, document: ArticleDocument, now: Date) {
  const problems: FieldProblem[] = [];
  await lockSlug(tx, document.slug);
  const slug = await slugProblem(tx, articleId, document.slug, now);
  if (slug) problems.push({ field: "slug", message: slug });
  if (document.author && !(await teamMemberExists(tx, document.author)))
    problems.push({ field: "author", message: "Author must be a member of the team" });
  return problems;
}

/** "New article": the row (a draft) and its revision 1, together. A slug left empty is made from the title. */
export async function createArticle(
  db: Database,
  input: { document: ArticleDocument; author: Author; now: Date },
): Promise<{ outcome: "created"; id: string; revision: RevisionSummary } | WriteRefusal> {
  return db.transaction(async (tx) => {
    const document = { ...input.document };
    if (!document.slug) document.slug = await freeSlug(tx, slugFromTitle(document.title), input.now);
    const problems = await documentProblems(tx, null, document, input.now);
    if (problems.length) return { outcome: "invalid", problems };
    const [row] = await tx.insert(blogPosts).values({ status: "draft" }).returning({ id: blogPosts.id });
    const saved = await appendRevision(tx, {
      kind: "article",
      itemId: row!.id,
      document,
      source: "studio",
      author: input.author,
    });
    if (saved.outcome !== "saved") throw new Error(`the new article's first revision was not saved: ${saved.outcome}`);
    return { outcome: "created", id: row!.id, revision: saved.revision };
  });
}

export type SaveInput = {
  articleId: string;
  baseRevisionId: number;
  document: ArticleDocument;
  source: "studio" | "autosave" | "restore";
  restoredFromId?: number;
  author: Author;
  now: Date;
};

/** A save: a new head revision made from `baseRevisionId`, unless the document is the head's already. */
export async function saveArticle(
  db: Database,
  input: SaveInput,
): Promise<
  { outcome: "saved"; revision: RevisionSummary } | { outcome: "unchanged"; revision: RevisionSummary } | WriteRefusal
> {
  return db.transaction(async (tx) => {
    const row = await lockArticle(tx, input.articleId);
    // An article without a revision yet (an upgraded site before its seed) has nothing to edit.
    if (!row || row.deletedAt || row.headRevisionId === null) return { outcome: "missing" };
    if (row.headRevisionId !== input.baseRevisionId) {
      const current = await headRevision(tx, "article", input.articleId);
      return current ? { outcome: "stale", current } : { outcome: "missing" };
    }
    const problems = await documentProblems(tx, input.articleId, input.document, input.now);
    if (problems.length) return { outcome: "invalid", problems };
    const saved = await appendRevision(tx, {
      kind: "article",
      itemId: input.articleId,
      baseRevisionId: input.baseRevisionId,
      document: input.document,
      source: input.source,
      restoredFromId: input.restoredFromId ?? null,
      author: input.author,
    });
    return saved;
  });
}

export type Published = {
  outcome: "published" | "scheduled";
  /** The revision now public (or to be, scheduled). */
  revision: RevisionSummary;
  publishedAt: Date;
  /** The published slug changed (a publish after the first, at another address). */
  slugChange?: { from: string; to: string };
};

/** The checklist's blockers as problems at their fields. */
const blockersAsProblems = (blockers: ChecklistItem[]): FieldProblem[] =>
  blockers.map(({ field, message }) => ({ field, message }));

/**
 * Publishes (now) or schedules (at its publish date) the article's head, which must still be
 * `headRevisionId`. Publishing now uses the document's date when it is past, else now; a public
 * article's date may move into the past, never into the future. The revision published carries
 * the time used: when the head's date differs, one more revision with it is appended first.
 */
export async function publishArticle(
  db: Database,
  input: { articleId: string; headRevisionId: number; when: "now" | "scheduled"; author: Author; now: Date },
): Promise<Published | WriteRefusal> {
  try {
    return await db.transaction(async (tx): Promise<Published | WriteRefusal> => {
      const { now } = input;
      const row = await lockArticle(tx, input.articleId);
      if (!row || row.deletedAt) return { outcome: "missing" };
      const head = await headRevision(tx, "article", input.articleId);
      if (!head) return { outcome: "missing" };
      if (row.headRevisionId !== input.headRevisionId) return { outcome: "stale", current: head };
      const headDocument = (await revisionOf(tx, "article", input.articleId, head.id))!.document;
      const blockers = publishBlockers(headDocument);
      if (blockers.length) return { outcome: "invalid", problems: blockersAsProblems(blockers) };
      const problems = await documentProblems(tx, input.articleId, headDocument, now);
      if (problems.length) return { outcome: "invalid", problems };

      const publicNow = isPublicNow(row, now);
      const dated = headDocument.publishedAt ? new Date(headDocument.publishedAt) : undefined;
      const later = dated !== undefined && dated.getTime() > now.getTime();
      const unpublishFirst =
        "This article is public: its date can move into the past, not into the future. Unpublish it first, then schedule it.";
      let publishedAt: Date;
      if (input.when === "now") {
        if (later && publicNow)
          return { outcome: "invalid", problems: [{ field: "publishedAt", message: unpublishFirst }] };
        publishedAt = dated && !later ? dated : now;
      } else {
        if (!dated)
          return {
            outcome: "invalid",
            problems: [{ field: "publishedAt", message: "Choose a publish date to schedule the article." }],
          };
        if (!later)
          return {
            outcome: "invalid",
            problems: [{ field: "publishedAt", message: "To schedule, the publish date must be in the future." }],
          };
        if (publicNow) return { outcome: "invalid", problems: [{ field: "publishedAt", message: unpublishFirst }] };
        publishedAt = dated;
      }

      let revision: RevisionSummary = head;
      if (headDocument.publishedAt !== publishedAt.toISOString()) {
        const dated = await appendRevision(tx, {
          kind: "article",
          itemId: input.articleId,
          baseRevisionId: head.id,
          document: { ...headDocument, publishedAt: publishedAt.toISOString() },
          source: "studio",
          author: input.author,
        });
        if (dated.outcome !== "saved") throw new Error(`the publish date's revision was not saved: ${dated.outcome}`);
        revision = dated.revision;
      }
      const everPublic = row.publishedRevisionId !== null && row.publishedAt !== null && row.publishedAt <= now;
      await publishRevision(tx, {
        kind: "article",
        itemId: input.articleId,
        revisionId: revision.id,
        publishedAt,
        studioChangeBy: input.author.label,
      });
      await moveRedirects(tx, {
        articleId: input.articleId,
        oldSlug: row.slug,
        newSlug: headDocument.slug,
        wasPublic: everPublic,
        by: input.author.label,
        now,
      });
      return {
        outcome: input.when === "now" ? "published" : "scheduled",
        revision,
        publishedAt,
        // The first publish gives the article its address; only a later one changes it.
        ...(row.slug !== null && row.slug !== headDocument.slug
          ? { slugChange: { from: row.slug, to: headDocument.slug } }
          : {}),
      };
    });
  } catch (error) {
    // Another article took the slug between the check and the write (the table's unique slug).
    if (isUniqueViolation(error))
      return {
        outcome: "invalid",
        problems: [{ field: "slug", message: "Another article was just published at this address; choose another" }],
      };
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

export type ArticleAction = "unpublish" | "trash" | "untrash";

/**
 * Unpublish, move to the trash, or restore from it: the page's revision must still be the head.
 * A trashed article is not public whatever its status; one restored from the trash is a draft
 * again if it was published, so it does not go public by itself.
 */
export async function actOnArticle(
  db: Database,
  input: { articleId: string; baseRevisionId: number; action: ArticleAction; author: Author; now: Date },
): Promise<
  | { outcome: "done"; head: RevisionSummary; wasPublic: boolean; status: string }
  | Exclude<WriteRefusal, { outcome: "invalid" }>
> {
  return db.transaction(async (tx) => {
    const row = await lockArticle(tx, input.articleId);
    const trashed = Boolean(row?.deletedAt);
    if (!row || (input.action !== "untrash" && trashed)) return { outcome: "missing" };
    const head = await headRevision(tx, "article", input.articleId);
    if (!head) return { outcome: "missing" };
    if (row.headRevisionId !== input.baseRevisionId) return { outcome: "stale", current: head };
    const wasPublic = isPublicNow(row, input.now);
    const changed = { studioChangedAt: sql`now()`, studioChangedByLabel: input.author.label };
    if (input.action === "unpublish") {
      if (row.status !== "published") return { outcome: "refused", message: "This article is not published." };
      await unpublishItem(tx, "article", input.articleId, input.author.label);
      return { outcome: "done", head, wasPublic, status: "unpublished" };
    }
    if (input.action === "trash") {
      await tx
        .update(blogPosts)
        .set({ deletedAt: input.now, deletedByLabel: input.author.label, ...changed })
        .where(eq(blogPosts.id, input.articleId));
      if (row.status === "published") await bumpContentVersion(tx);
      return { outcome: "done", head, wasPublic, status: row.status };
    }
    if (!trashed) return { outcome: "refused", message: "This article is not in the trash." };
    const status = row.status === "published" ? "draft" : row.status;
    await tx
      .update(blogPosts)
      .set({ deletedAt: null, deletedByLabel: null, status, ...changed })
      .where(eq(blogPosts.id, input.articleId));
    return { outcome: "done", head, wasPublic: false, status };
  });
}
