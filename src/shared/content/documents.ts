// What an article, a project and a team member are, whole: the document a revision stores
// (content_revisions.document), the studio's editor shows and the content files hold. Shared by
// the server, the back office's pages and the importer, and free of zod so that anything may
// import it. docs/decisions/038-the-database-holds-the-content.md says how they are kept.

/** An article as a revision holds it. Every field is a string so a draft can be incomplete. */
export type ArticleDocument = {
  /** Its address, /blog/<slug>. */
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  /** A picture of the site, /images/…; "" while none is chosen. */
  imageUrl: string;
  /** What the cover shows, for those who cannot see it; "" while none is written. */
  imageAlt: string;
  /** When it goes (or went) public, as a UTC ISO string; "" while undecided. */
  publishedAt: string;
  /** The team member who wrote it, by their slug (content/team/<slug>.yaml); "" for none. */
  author: string;
  /** Markdown: CommonMark with GitHub tables. */
  body: string;
};

export type ProjectDocument = {
  slug: string;
  title: string;
  description: string;
  category: string;
  imageUrl: string;
  year: string;
  capacity: string | null;
  timeline: string | null;
};

/**
 * A team member as a revision holds it. Where the member stands in the team (the row's `order`)
 * is not part of it: the order is the team's, changed at once by the studio's Move up / Move down
 * and never by saving or publishing a revision (docs/decisions/043-the-team-order-is-not-a-revision.md).
 */
export type TeamMemberDocument = {
  slug: string;
  name: string;
  title: string;
  expertise: string;
  imageUrl: string;
  email: string | null;
  linkedinUrl: string | null;
};

/** The longest values of a team member's fields, the same for the content files and the studio. */
export const TEAM_MEMBER_LIMITS = {
  name: 120,
  title: 160,
  expertise: 300,
  email: 254,
  linkedinUrl: 300,
} as const;

export type ContentKind = "article" | "project" | "team-member";

/** The order of an article document's fields: its canonical form (hashes, exports) follows it. */
export const ARTICLE_FIELDS = [
  "slug",
  "title",
  "excerpt",
  "category",
  "imageUrl",
  "imageAlt",
  "publishedAt",
  "author",
  "body",
] as const satisfies readonly (keyof ArticleDocument)[];

/** The longest values, the same for the content files (npm run content:check) and the studio. */
export const CONTENT_LIMITS = {
  title: 200,
  excerpt: 400,
  category: 60,
  imageAlt: 300,
  slug: 120,
  /** About 16,000 English words. */
  body: 100_000,
} as const;

/**
 * The largest request a studio route that carries a whole document accepts: the largest valid
 * document in any script, form-encoded (decision 038, section 5). Every other route keeps the
 * site's BODY_LIMIT_BYTES.
 */
export const STUDIO_DOCUMENT_BODY_LIMIT = 1_048_576;

/**
 * An item's slug: lower-case words of letters and digits joined by hyphens. The same pattern as
 * the public route table's (SLUG_PATTERN in src/shared/routes.ts; a test holds them equal), written
 * here again so that the studio's script, which imports this module, shares no module with the
 * public pages: a shared module becomes a chunk of its own that every public page would load.
 */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A picture of the site: a library picture's reference (/media/<key>/original.<ext>, the pattern
 * of MEDIA_REFERENCE_PATTERN in src/shared/media.ts) or, for content written before the library,
 * the path of a file in public/images, which the library knows by that path (media.source_path).
 */
export const IMAGE_PATH_PATTERN =
  /^(?:\/images\/[a-z0-9/_-]+\.(?:svg|png|jpe?g|webp|avif)|\/media\/[0-9a-f]{16}\/original\.(?:jpg|png|webp|avif))$/;

/**
 * Where an article stands, as the studio shows it: "scheduled" is a published article whose time
 * has not come (not a stored state), "trash" one moved to the trash.
 */
export type ArticleStatus = "draft" | "scheduled" | "published" | "unpublished" | "trash";

export const ARTICLE_STATUS_LABELS: Record<ArticleStatus, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  published: "Published",
  unpublished: "Unpublished",
  trash: "In the trash",
};

export const ARTICLE_STATUSES = Object.keys(ARTICLE_STATUS_LABELS) as ArticleStatus[];

export function isArticleStatus(value: string): value is ArticleStatus {
  return Object.hasOwn(ARTICLE_STATUS_LABELS, value);
}

/** The studio's status of an article row at `now`. */
export function articleStatusOf(
  row: { status: string; publishedAt: Date | string | null; deletedAt: Date | string | null },
  now: Date = new Date(),
): ArticleStatus {
  if (row.deletedAt) return "trash";
  if (row.status === "published") {
    return row.publishedAt && new Date(row.publishedAt).getTime() > now.getTime() ? "scheduled" : "published";
  }
  return row.status === "unpublished" ? "unpublished" : "draft";
}

/** A slug made from a title: lower-case Latin letters and digits joined by hyphens, at most 80 characters. */
export function slugFromTitle(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
}

/** One thing the publish checklist found, at a field of the editor (an article's, unless said). */
export type ChecklistItem<Field extends string = keyof ArticleDocument> = { field: Field; message: string };

/**
 * What stops an article from being published: every field a visitor's page, its card and its
 * Open Graph tags need. Links to site pages that do not exist are warnings the server adds (it
 * knows the pages); these block.
 */
export function publishBlockers(document: ArticleDocument): ChecklistItem[] {
  const blockers: ChecklistItem[] = [];
  const missing = (field: keyof ArticleDocument, message: string) => {
    if (!document[field].trim()) blockers.push({ field, message });
  };
  missing("title", "Write a title.");
  missing("slug", "Give the article an address (slug).");
  if (document.slug.trim() && !SLUG_PATTERN.test(document.slug))
    blockers.push({ field: "slug", message: "The slug must be lower-case words joined by hyphens." });
  missing("excerpt", "Write an excerpt: it is the article's summary on /blog and in search results.");
  missing("category", "Choose a category.");
  missing("imageUrl", "Choose a cover image.");
  missing("imageAlt", "Describe the cover image (alt text) for those who cannot see it.");
  missing("body", "Write the article's body.");
  return blockers;
}

// Projects in the studio (docs/decisions/042-projects-in-the-studio.md): the same flow as an
// article's, their fields the spec's (SPEC section 3, "Project"). A project's status is an
// article's (articleStatusOf reads its row the same way).

/** The kinds of item the studio edits with revisions, previews and publishing. */
export type StudioKind = "article" | "project";

/** The order of a project document's fields: its canonical form (hashes, exports) follows it. */
export const PROJECT_FIELDS = [
  "slug",
  "title",
  "description",
  "category",
  "imageUrl",
  "year",
  "capacity",
  "timeline",
] as const satisfies readonly (keyof ProjectDocument)[];

/** The longest values of a project's fields: the content files' (npm run content:check) and the studio's. */
export const PROJECT_LIMITS = {
  title: CONTENT_LIMITS.title,
  description: 2000,
  category: CONTENT_LIMITS.category,
  capacity: 120,
  timeline: 120,
  slug: CONTENT_LIMITS.slug,
} as const;

/** A project's year: four digits, as the content files write it. */
export const PROJECT_YEAR_PATTERN = /^\d{4}$/;

/**
 * The categories a project may have: the spec's four industries (SPEC section 2, Industries), the
 * renewables as "Renewable Energy", the one category whose badge is green (SPEC section 3; every
 * other is blue, src/web/components/category-badge.tsx).
 */
export const PROJECT_CATEGORIES = ["Utilities", "Renewable Energy", "Industrial", "Commercial"] as const;

/** An empty project: what "New project" opens. */
export const EMPTY_PROJECT: ProjectDocument = {
  slug: "",
  title: "",
  description: "",
  category: "",
  imageUrl: "",
  year: "",
  capacity: null,
  timeline: null,
};

/**
 * What stops a project from being published: every field its page and its card need (capacity and
 * timeline are optional, as in the spec).
 */
export function projectPublishBlockers(document: ProjectDocument): ChecklistItem<keyof ProjectDocument>[] {
  const blockers: ChecklistItem<keyof ProjectDocument>[] = [];
  const missing = (field: "title" | "slug" | "description" | "category" | "imageUrl" | "year", message: string) => {
    if (!(document[field] ?? "").trim()) blockers.push({ field, message });
  };
  missing("title", "Write a title.");
  missing("slug", "Give the project an address (slug).");
  if (document.slug.trim() && !SLUG_PATTERN.test(document.slug))
    blockers.push({ field: "slug", message: "The slug must be lower-case words joined by hyphens." });
  missing("description", "Write a description: it is the project's text on its page and its card.");
  missing("category", "Choose a category.");
  missing("imageUrl", "Choose an image.");
  missing("year", "Give the year of the project.");
  if (document.year.trim() && !PROJECT_YEAR_PATTERN.test(document.year))
    blockers.push({ field: "year", message: "The year must be four digits, like 2024." });
  return blockers;
}
