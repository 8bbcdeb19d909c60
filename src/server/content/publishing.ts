import { eq, sql } from "drizzle-orm";
import type { ArticleDocument, ContentKind, ProjectDocument, TeamMemberDocument } from "#shared/content/documents.ts";
import type { Tx } from "../db/client.ts";
import { blogPosts, projects, teamMembers } from "../db/schema.ts";
import { bylineOf } from "./byline.ts";
import { bumpContentVersion } from "./data-version.ts";
import { contentTables, type DocumentOf, revisionOf } from "./revisions.ts";

// Publishing: copying a revision into the item's published copy, the only columns the public reads
// (src/server/content/public-content.ts), and taking an item off the site again. Used by the
// studio and the importer alike. Each bumps the content version in the caller's transaction, so
// every instance's page cache starts again once it commits (data-version.ts).

/** The published copy's columns for an article document; the author is named as byline.ts says. */
async function articleCopy(tx: Tx, document: ArticleDocument, publishedAt: Date) {
  const author = await bylineOf(tx, document.author, { trashed: true });
  return {
    title: document.title,
    excerpt: document.excerpt,
    content: document.body,
    category: document.category,
    imageUrl: document.imageUrl,
    imageAlt: document.imageAlt || null,
    slug: document.slug,
    publishedAt,
    authorId: author?.teamMemberId ?? null,
    authorName: author?.name ?? null,
  };
}

function projectCopy(document: ProjectDocument) {
  const { slug, title, description, category, imageUrl, year, capacity, timeline } = document;
  return { slug, title, description, category, imageUrl, year, capacity, timeline };
}

/** A member's published copy. Never their `order`: where they stand is the team's, set by the studio's moves (decision 043). */
function teamMemberCopy(document: TeamMemberDocument) {
  const { slug, name, title, expertise, imageUrl, email, linkedinUrl } = document;
  return { slug, name, title, expertise, imageUrl, email, linkedinUrl };
}

export type PublishInput = {
  kind: ContentKind;
  itemId: string;
  revisionId: number;
  /**
   * Articles and projects: when it goes public (now, a time past, or a time to come: scheduled).
   * A project keeps its time when none is given (the importer's case: files give projects no
   * time), and one that never had a time has none: it is public as soon as it is published.
   */
  publishedAt?: Date;
  /** Who did it, for studio_changed_by; the importer passes none. */
  studioChangeBy?: string;
};

/**
 * Makes a revision of an item its published copy and the item published. The revision must be the
 * item's (else false, nothing written). An article's slug must be free: the caller checks it
 * (slugs.ts) before, in the same transaction.
 */
export async function publishRevision(tx: Tx, input: PublishInput): Promise<boolean> {
  const revision = await revisionOf(tx, input.kind, input.itemId, input.revisionId);
  if (!revision) return false;
  const bookkeeping = {
    status: "published",
    publishedRevisionId: revision.id,
    ...(input.studioChangeBy ? { studioChangedAt: sql`now()`, studioChangedByLabel: input.studioChangeBy } : {}),
  };
  if (input.kind === "article") {
    const document = revision.document as DocumentOf<"article">;
    const publishedAt = input.publishedAt ?? (document.publishedAt ? new Date(document.publishedAt) : new Date());
    const copy = await articleCopy(tx, document, publishedAt);
    await tx
      .update(blogPosts)
      .set({ ...copy, ...bookkeeping })
      .where(eq(blogPosts.id, input.itemId));
  } else if (input.kind === "project") {
    const copy = projectCopy(revision.document as DocumentOf<"project">);
    await tx
      .update(projects)
      .set({ ...copy, ...bookkeeping, ...(input.publishedAt ? { publishedAt: input.publishedAt } : {}) })
      .where(eq(projects.id, input.itemId));
  } else {
    const copy = teamMemberCopy(revision.document as DocumentOf<"team-member">);
    await tx
      .update(teamMembers)
      .set({ ...copy, ...bookkeeping })
      .where(eq(teamMembers.id, input.itemId));
    // The byline of every public article by this member follows the name published.
    await tx.update(blogPosts).set({ authorName: copy.name }).where(eq(blogPosts.authorId, input.itemId));
  }
  await bumpContentVersion(tx);
  return true;
}

/** Takes a published item off the site, keeping its copy (to publish again). */
export async function unpublishItem(tx: Tx, kind: ContentKind, itemId: string, studioChangeBy?: string): Promise<void> {
  const { table } = contentTables[kind];
  await tx
    .update(table)
    .set({
      status: "unpublished",
      ...(studioChangeBy ? { studioChangedAt: sql`now()`, studioChangedByLabel: studioChangeBy } : {}),
    })
    .where(eq(table.id, itemId));
  await bumpContentVersion(tx);
}
