import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import type { StudioKind } from "#shared/content/documents.ts";
import type { Database } from "../db/client.ts";
import { blogPosts, contentLinks, projects } from "../db/schema.ts";

// Links that show an article's or a project's draft to whoever holds them (decision 038, section
// 2; 042 for projects): "preview" (the editor's Preview button, an hour) and "share" (a reviewer
// without an account, 7 days, revocable by its maker or an admin). Only a hash of the token is
// stored, as with staff_tokens. Served at /preview/<token>, outside /admin.

export const LINK_LIFETIME_MS = { preview: 60 * 60 * 1000, share: 7 * 24 * 60 * 60 * 1000 } as const;
export type ContentLinkKind = keyof typeof LINK_LIFETIME_MS;

/** The item a link shows: an article or a project, by id. */
export type LinkedItem = { kind: StudioKind; id: string };

/** The public path of a link. */
export const previewPath = (token: string) => `/preview/${token}`;

/** A token is 43 base64url characters (256 random bits); anything else is no token. */
export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** The link's column that names an item of this kind. */
const itemColumn = (kind: StudioKind) => (kind === "article" ? contentLinks.articleId : contentLinks.projectId);

/** The values that name the item in a new row: one column set, the other null. */
const itemValues = (item: LinkedItem) =>
  item.kind === "article" ? { articleId: item.id, projectId: null } : { articleId: null, projectId: item.id };

export type MadeLink = { id: string; token: string; path: string; expiresAt: Date };

export async function createContentLink(
  db: Database,
  input: { kind: ContentLinkKind; item: LinkedItem; staff: { id: string; name: string } },
  now?: Date,
): Promise<MadeLink>;
/**
 * With `id` (the key a form carried, decision 058): undefined when a link of that id exists
 * already, which is then left as it is: the same form sent again makes no second link.
 */
export async function createContentLink(
  db: Database,
  input: { kind: ContentLinkKind; item: LinkedItem; staff: { id: string; name: string }; id: string },
  now?: Date,
): Promise<MadeLink | undefined>;
export async function createContentLink(
  db: Database,
  input: { kind: ContentLinkKind; item: LinkedItem; staff: { id: string; name: string }; id?: string },
  now: Date = new Date(),
): Promise<MadeLink | undefined> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS[input.kind]);
  const [row] = await db
    .insert(contentLinks)
    .values({
      ...(input.id ? { id: input.id } : {}),
      tokenHash: hashOf(token),
      kind: input.kind,
      ...itemValues(input.item),
      createdBy: input.staff.id,
      createdByLabel: input.staff.name,
      createdAt: now,
      expiresAt,
    })
    .onConflictDoNothing({ target: contentLinks.id })
    .returning({ id: contentLinks.id });
  return row ? { id: row.id, token, path: previewPath(token), expiresAt } : undefined;
}

/**
 * Whether `token` is the token of this item's share link `linkId`, made by `staffId`, in force
 * now: the one check before a link's address is shown again (to the browser that holds it).
 */
export async function isOwnShareToken(
  db: Database,
  input: { item: LinkedItem; linkId: string; token: string; staffId: string },
  now: Date,
): Promise<boolean> {
  if (!LINK_TOKEN_PATTERN.test(input.token)) return false;
  const [row] = await db
    .select({ id: contentLinks.id })
    .from(contentLinks)
    .where(
      and(
        eq(contentLinks.id, input.linkId),
        eq(itemColumn(input.item.kind), input.item.id),
        eq(contentLinks.kind, "share"),
        eq(contentLinks.tokenHash, hashOf(input.token)),
        eq(contentLinks.createdBy, input.staffId),
        gt(contentLinks.expiresAt, now),
        isNull(contentLinks.revokedAt),
      ),
    );
  return row !== undefined;
}

export type ShareLinkRow = {
  id: string;
  createdBy: string | null;
  createdByLabel: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
};

/** An item's share links, newest first (preview links are the editor's own and not listed). */
export async function listShareLinks(db: Database, item: LinkedItem): Promise<ShareLinkRow[]> {
  return db
    .select({
      id: contentLinks.id,
      createdBy: contentLinks.createdBy,
      createdByLabel: contentLinks.createdByLabel,
      createdAt: contentLinks.createdAt,
      expiresAt: contentLinks.expiresAt,
      revokedAt: contentLinks.revokedAt,
    })
    .from(contentLinks)
    .where(and(eq(itemColumn(item.kind), item.id), eq(contentLinks.kind, "share")))
    .orderBy(desc(contentLinks.createdAt));
}

/** A preview or share link of this item (a link of another item is none). */
export async function itemLink(db: Database, item: LinkedItem, linkId: string) {
  const [link] = await db
    .select({ id: contentLinks.id, createdBy: contentLinks.createdBy, kind: contentLinks.kind })
    .from(contentLinks)
    .where(and(eq(contentLinks.id, linkId), eq(itemColumn(item.kind), item.id)));
  return link;
}

/**
 * Revokes every link of this item still in force (when it goes to the trash: one restored from it
 * must not be readable again by a link handed out before). The number revoked.
 */
export async function revokeLinksOf(db: Database, item: LinkedItem, now: Date): Promise<number> {
  const revoked = await db
    .update(contentLinks)
    .set({ revokedAt: now })
    .where(and(eq(itemColumn(item.kind), item.id), isNull(contentLinks.revokedAt)))
    .returning({ id: contentLinks.id });
  return revoked.length;
}

/**
 * Revokes a link of this item. `onlyBy`: the member of staff who must have made it (unset:
 * anyone's, for admins). False when there is no such link of this item, or it was revoked
 * already: nothing changed.
 */
export async function revokeContentLink(
  db: Database,
  input: { item: LinkedItem; linkId: string; onlyBy?: string },
  now: Date = new Date(),
): Promise<boolean> {
  const revoked = await db
    .update(contentLinks)
    .set({ revokedAt: now })
    .where(
      and(
        eq(contentLinks.id, input.linkId),
        eq(itemColumn(input.item.kind), input.item.id),
        isNull(contentLinks.revokedAt),
        input.onlyBy ? eq(contentLinks.createdBy, input.onlyBy) : undefined,
      ),
    )
    .returning({ id: contentLinks.id });
  return revoked.length > 0;
}

/**
 * The item a token opens now: not expired, not revoked, the item not in the trash. Undefined for
 * anything else, malformed tokens included (no query is made for them).
 */
export async function resolveContentLink(
  db: Database,
  token: string,
  now: Date = new Date(),
): Promise<{ item: LinkedItem; kind: ContentLinkKind } | undefined> {
  if (!LINK_TOKEN_PATTERN.test(token)) return undefined;
  const [row] = await db
    .select({ articleId: contentLinks.articleId, projectId: contentLinks.projectId, kind: contentLinks.kind })
    .from(contentLinks)
    .leftJoin(blogPosts, eq(blogPosts.id, contentLinks.articleId))
    .leftJoin(projects, eq(projects.id, contentLinks.projectId))
    .where(
      and(
        eq(contentLinks.tokenHash, hashOf(token)),
        gt(contentLinks.expiresAt, now),
        isNull(contentLinks.revokedAt),
        or(
          and(eq(contentLinks.articleId, blogPosts.id), isNull(blogPosts.deletedAt)),
          and(eq(contentLinks.projectId, projects.id), isNull(projects.deletedAt)),
        ),
      ),
    );
  if (!row) return undefined;
  const item: LinkedItem = row.articleId
    ? { kind: "article", id: row.articleId }
    : { kind: "project", id: row.projectId! };
  return { item, kind: row.kind as ContentLinkKind };
}
