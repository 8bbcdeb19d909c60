import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { blogPosts, contentLinks } from "../db/schema.ts";

// Links that show an article's draft to whoever holds them (decision 038, section 2): "preview"
// (the editor's Preview button, an hour) and "share" (a reviewer without an account, 7 days,
// revocable by its maker or an admin). Only a hash of the token is stored, as with staff_tokens.
// Served at /preview/<token>, outside /admin.

export const LINK_LIFETIME_MS = { preview: 60 * 60 * 1000, share: 7 * 24 * 60 * 60 * 1000 } as const;
export type ContentLinkKind = keyof typeof LINK_LIFETIME_MS;

/** The public path of a link. */
export const previewPath = (token: string) => `/preview/${token}`;

/** A token is 43 base64url characters (256 random bits); anything else is no token. */
export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

export type MadeLink = { id: string; token: string; path: string; expiresAt: Date };

export async function createContentLink(
  db: Database,
  input: { kind: ContentLinkKind; articleId: string; staff: { id: string; name: string } },
  now: Date = new Date(),
): Promise<MadeLink> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS[input.kind]);
  const [row] = await db
    .insert(contentLinks)
    .values({
      tokenHash: hashOf(token),
      kind: input.kind,
      articleId: input.articleId,
      createdBy: input.staff.id,
      createdByLabel: input.staff.name,
      createdAt: now,
      expiresAt,
    })
    .returning({ id: contentLinks.id });
  return { id: row!.id, token, path: previewPath(token), expiresAt };
}

export type ShareLinkRow = {
  id: string;
  createdBy: string | null;
  createdByLabel: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
};

/** An article's share links, newest first (preview links are the editor's own and not listed). */
export async function listShareLinks(db: Database, articleId: string): Promise<ShareLinkRow[]> {
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
    .where(and(eq(contentLinks.articleId, articleId), eq(contentLinks.kind, "share")))
    .orderBy(desc(contentLinks.createdAt));
}

/**
 * Revokes a link of this article. `onlyBy`: the member of staff who must have made it (unset:
 * anyone's, for admins). False when there is no such link of this article, or it was revoked
 * already: nothing changed.
 */
export async function revokeContentLink(
  db: Database,
  input: { articleId: string; linkId: string; onlyBy?: string },
  now: Date = new Date(),
): Promise<boolean> {
  const revoked = await db
    .update(contentLinks)
    .set({ revokedAt: now })
    .where(
      and(
        eq(contentLinks.id, input.linkId),
        eq(contentLinks.articleId, input.articleId),
        isNull(contentLinks.revokedAt),
        input.onlyBy ? eq(contentLinks.createdBy, input.onlyBy) : undefined,
      ),
    )
    .returning({ id: contentLinks.id });
  return revoked.length > 0;
}

/**
 * The article a token opens now: not expired, not revoked, the article not in the trash. Undefined
 * for anything else, malformed tokens included (no query is made for them).
 */
export async function resolveContentLink(
  db: Database,
  token: string,
  now: Date = new Date(),
): Promise<{ articleId: string; kind: ContentLinkKind } | undefined> {
  if (!LINK_TOKEN_PATTERN.test(token)) return undefined;
  const [row] = await db
    .select({ articleId: contentLinks.articleId, kind: contentLinks.kind })
    .from(contentLinks)
    .innerJoin(blogPosts, eq(blogPosts.id, contentLinks.articleId))
    .where(
      and(
        eq(contentLinks.tokenHash, hashOf(token)),
        gt(contentLinks.expiresAt, now),
        isNull(contentLinks.revokedAt),
        isNull(blogPosts.deletedAt),
      ),
    );
  return row ? { articleId: row.articleId, kind: row.kind as ContentLinkKind } : undefined;
}
