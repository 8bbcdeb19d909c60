import type { ArticleDocument, ProjectDocument } from "#shared/content/documents.ts";
import { articleCard, type LinkCard, projectCard } from "#shared/link-card.ts";
import type { Database } from "../../db/client.ts";
import { bylineOf } from "../../content/byline.ts";
import { DRAFT_STAND_IN_TITLE } from "../../content/draft-article.ts";

// A draft's link-preview card for the studio's publish checklist
// (docs/decisions/053-link-preview-cards.md): the same card the public page will name once the
// draft is published, made from the draft's head revision. Served only behind the back office's
// door (/admin/…/card); no public address ever draws a draft.

/** The card an article's draft will have: its author named as publishing names them. */
export async function draftArticleCard(db: Database, document: ArticleDocument): Promise<LinkCard> {
  const author = await bylineOf(db, document.author, { trashed: false });
  return articleCard({
    title: document.title.trim() || DRAFT_STAND_IN_TITLE,
    category: document.category,
    authorName: author?.name ?? null,
    // As the public page: a photo only of a member the team page shows.
    authorImageUrl: author?.onTeamPage ? author.imageUrl : null,
  });
}

export function draftProjectCard(document: ProjectDocument): LinkCard {
  return projectCard({
    title: document.title.trim() || DRAFT_STAND_IN_TITLE,
    category: document.category,
    capacity: document.capacity || null,
  });
}
