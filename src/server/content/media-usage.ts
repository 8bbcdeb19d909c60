import { createHash } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { ContentKind } from "#shared/content/documents.ts";
import type { Database, Tx } from "../db/client.ts";
import { blogPosts, clientLogos, contentRevisions, projects, teamMembers, testimonials } from "../db/schema.ts";
import { bodyAddresses } from "./render-pool.ts";
import type { TestimonialKind } from "./testimonials.ts";

// Where the media library's pictures are used (docs/decisions/040-the-media-library.md): by every
// article, project and team member, in the trash or not, through its head revision (the draft
// being edited) or its published copy (what the public reads), in any field, the Markdown of a
// body included. A picture is named by its reference (/media/<key>/original.<ext>, or any other
// of its addresses) or, for a picture brought in from public/images, by its old address
// (/images/…). An article's body is read twice: as written (a mention, a code sample), and as
// its page renders it (each image and link, after the parser's escapes and the entities), so
// that `/media/<key>\/original.jpg` or `&#47;media&#47;…` counts as the use it is. Here, beside
// the read condition, because only the content modules read the content tables
// (public-content.test.ts).

export type MediaUse = { kind: ContentKind; id: string; title: string; trashed: boolean };

export type MediaUsage = {
  /** The items naming /media/<key>/…, by key. */
  byKey: Map<string, MediaUse[]>;
  /** The items naming an /images/… address, by that address. */
  byPath: Map<string, MediaUse[]>;
};

const KEY_REFERENCE = /\/media\/([0-9a-f]{16})\//g;
const OLD_ADDRESS = /\/images\/[a-z0-9/_-]+\.(?:svg|png|jpe?g|webp|avif)/g;

/** A page of the site, against which a body's relative links are read as a browser reads them. */
const AN_ARTICLE_PAGE = "https://site.invalid/blog/an-article";

/**
 * The paths a reader's browser asks for by an address on a page: the address, and the path it
 * resolves to (backslashes read as slashes, `..` resolved), with its %-escapes also decoded, as
 * the router decodes them.
 */
function pathsReached(address: string): string[] {
  let path: string;
  try {
    path = new URL(address, AN_ARTICLE_PAGE).pathname;
  } catch {
    return [address];
  }
  const decoded = path.replace(/%[0-9a-f]{2}/gi, (escape) => String.fromCharCode(Number.parseInt(escape.slice(1), 16)));
  return [address, path, decoded];
}

/** The bodies whose addresses were read last, by their hash: a body is rendered again only when it changes. */
const addressesKept = new Map<string, string[]>();
const ADDRESSES_KEPT = 500;

/** The paths a body's page shows or links once rendered (renderedAddresses), kept by the body's hash. */
async function bodyPaths(markdown: string): Promise<string[]> {
  const hash = createHash("sha256").update(markdown).digest("base64");
  let paths = addressesKept.get(hash);
  if (paths) {
    // Kept as the most recently read.
    addressesKept.delete(hash);
  } else {
    // Rendered off the event loop (render-pool.ts).
    paths = (await bodyAddresses(markdown)).flatMap(pathsReached);
    if (addressesKept.size >= ADDRESSES_KEPT) addressesKept.delete(addressesKept.keys().next().value!);
  }
  addressesKept.set(hash, paths);
  return paths;
}

/**
 * The texts an item shows (its published copy's and its head revision's), in which pictures are
 * named: as written in any field, and as rendered in an article's Markdown body.
 */
type ItemTexts = {
  id: string;
  title: string | null;
  deletedAt: Date | null;
  texts: (string | null)[];
  markdown: (string | null)[];
  head: unknown;
};

async function itemTexts(db: Tx, kind: ContentKind): Promise<ItemTexts[]> {
  if (kind === "article") {
    return db
      .select({
        id: blogPosts.id,
        title: blogPosts.title,
        deletedAt: blogPosts.deletedAt,
        imageUrl: blogPosts.imageUrl,
        body: blogPosts.content,
        head: contentRevisions.document,
      })
      .from(blogPosts)
      .leftJoin(contentRevisions, eq(contentRevisions.id, blogPosts.headRevisionId))
      .then((rows) =>
        rows.map((row) => {
          const headBody = (row.head as { body?: unknown } | null)?.body;
          const markdown = [row.body, typeof headBody === "string" ? headBody : null];
          return { ...row, texts: [row.imageUrl, row.body], markdown };
        }),
      );
  }
  if (kind === "project") {
    return db
      .select({
        id: projects.id,
        title: projects.title,
        deletedAt: projects.deletedAt,
        imageUrl: projects.imageUrl,
        description: projects.description,
        head: contentRevisions.document,
      })
      .from(projects)
      .leftJoin(contentRevisions, eq(contentRevisions.id, projects.headRevisionId))
      .then((rows) => rows.map((row) => ({ ...row, texts: [row.imageUrl, row.description], markdown: [] })));
  }
  return db
    .select({
      id: teamMembers.id,
      title: teamMembers.name,
      deletedAt: teamMembers.deletedAt,
      imageUrl: teamMembers.imageUrl,
      head: contentRevisions.document,
    })
    .from(teamMembers)
    .leftJoin(contentRevisions, eq(contentRevisions.id, teamMembers.headRevisionId))
    .then((rows) => rows.map((row) => ({ ...row, texts: [row.imageUrl], markdown: [] })));
}

function add(map: Map<string, MediaUse[]>, name: string, use: MediaUse) {
  const uses = map.get(name) ?? [];
  if (!uses.some((other) => other.kind === use.kind && other.id === use.id)) uses.push(use);
  map.set(name, uses);
}

/** Adds `use` for every picture the texts name as written, and the Markdown bodies as rendered. */
async function addNamed(usage: MediaUsage, use: MediaUse, texts: (string | null)[], markdown: (string | null)[]) {
  const bodyNames = new Set<string>();
  for (const body of new Set(markdown)) {
    if (body) for (const name of await bodyPaths(body)) bodyNames.add(name);
  }
  const named = [texts.filter(Boolean).join("\n"), ...bodyNames];
  for (const text of named) {
    for (const match of text.matchAll(KEY_REFERENCE)) add(usage.byKey, match[1]!, use);
    for (const match of text.matchAll(OLD_ADDRESS)) add(usage.byPath, match[0], use);
  }
}

/** Every picture named by the content, by key and by old address, with the items that name it. */
export async function mediaUsage(db: Tx): Promise<MediaUsage> {
  const usage: MediaUsage = { byKey: new Map(), byPath: new Map() };
  for (const kind of ["article", "project", "team-member"] as const) {
    for (const item of await itemTexts(db, kind)) {
      const head = (item.head ?? {}) as Record<string, unknown>;
      const title = String((kind === "team-member" ? head.name : head.title) || item.title || "") || "Untitled";
      const use: MediaUse = { kind, id: item.id, title, trashed: item.deletedAt !== null };
      await addNamed(usage, use, [...item.texts, JSON.stringify(head)], item.markdown);
    }
  }
  return usage;
}

/** The items that use one picture: by its key, or by its old address. */
export function usesOf(usage: MediaUsage, picture: { key: string; sourcePath: string | null }): MediaUse[] {
  const uses = [...(usage.byKey.get(picture.key) ?? [])];
  for (const use of picture.sourcePath ? (usage.byPath.get(picture.sourcePath) ?? []) : []) {
    if (!uses.some((other) => other.kind === use.kind && other.id === use.id)) uses.push(use);
  }
  const order: Record<ContentKind, number> = { article: 0, project: 1, "team-member": 2 };
  return uses.sort((a, b) => order[a.kind] - order[b.kind] || a.title.localeCompare(b.title, "en"));
}

/**
 * The published items (public now, or scheduled) whose published copy names this picture: where a
 * change to its alt text is read by visitors at once, so only those who may publish may make it.
 */
export async function publishedUsesOf(
  db: Database,
  picture: { key: string; sourcePath: string | null },
): Promise<MediaUse[]> {
  const rows = [
    ...(
      await db
        .select({ id: blogPosts.id, title: blogPosts.title, image: blogPosts.imageUrl, text: blogPosts.content })
        .from(blogPosts)
        .where(and(eq(blogPosts.status, "published"), isNull(blogPosts.deletedAt)))
    ).map((row) => ({ ...row, kind: "article" as const })),
    ...(
      await db
        .select({ id: projects.id, title: projects.title, image: projects.imageUrl, text: projects.description })
        .from(projects)
        .where(and(eq(projects.status, "published"), isNull(projects.deletedAt)))
    ).map((row) => ({ ...row, kind: "project" as const })),
    ...(
      await db
        .select({ id: teamMembers.id, title: teamMembers.name, image: teamMembers.imageUrl })
        .from(teamMembers)
        .where(and(eq(teamMembers.status, "published"), isNull(teamMembers.deletedAt)))
    ).map((row) => ({ ...row, text: null, kind: "team-member" as const })),
  ];
  const usage: MediaUsage = { byKey: new Map(), byPath: new Map() };
  for (const row of rows) {
    const use: MediaUse = { kind: row.kind, id: row.id, title: row.title || "Untitled", trashed: false };
    await addNamed(usage, use, [row.image, row.text], row.kind === "article" ? [row.text] : []);
  }
  return usesOf(usage, picture);
}

/** A testimonial or a client logo that names a picture (its logo). */
export type TestimonialMediaUse = { kind: TestimonialKind; id: string; title: string; trashed: boolean };

/** The logo references of every testimonial and client logo (published copy and head), read once for many pictures. */
export type TestimonialLogos = { kind: TestimonialKind; id: string; title: string; trashed: boolean; text: string }[];

/** Every testimonial's and client logo's logo, in the published copy or the head revision, trash included. */
export async function testimonialLogos(db: Database | Tx): Promise<TestimonialLogos> {
  const quoted = await db
    .select({
      id: testimonials.id,
      logoUrl: testimonials.logoUrl,
      organisation: testimonials.organisation,
      deletedAt: testimonials.deletedAt,
      head: contentRevisions.document,
    })
    .from(testimonials)
    .leftJoin(contentRevisions, eq(contentRevisions.id, testimonials.headRevisionId));
  const logos = await db
    .select({
      id: clientLogos.id,
      logoUrl: clientLogos.logoUrl,
      organisation: clientLogos.organisation,
      deletedAt: clientLogos.deletedAt,
      head: contentRevisions.document,
    })
    .from(clientLogos)
    .leftJoin(contentRevisions, eq(contentRevisions.id, clientLogos.headRevisionId));
  const found: TestimonialLogos = [];
  for (const [kind, rows] of [
    ["testimonial", quoted],
    ["client-logo", logos],
  ] as const) {
    for (const row of rows) {
      const head = (row.head ?? {}) as { logoUrl?: unknown; organisation?: unknown };
      const text = [row.logoUrl ?? "", typeof head.logoUrl === "string" ? head.logoUrl : ""].join("\n");
      if (!text.trim()) continue;
      const organisation = String(head.organisation || row.organisation || "") || "Untitled";
      found.push({
        kind,
        id: row.id,
        title: kind === "testimonial" ? `Testimonial of ${organisation}` : `Logo of ${organisation}`,
        trashed: row.deletedAt !== null,
        text,
      });
    }
  }
  return found;
}

/** Those of `logos` that name the picture (by its key, or its old address). */
export function testimonialUsesIn(
  logos: TestimonialLogos,
  picture: { key: string; sourcePath: string | null },
): TestimonialMediaUse[] {
  const names = (text: string) =>
    [...text.matchAll(KEY_REFERENCE)].some((match) => match[1] === picture.key) ||
    (picture.sourcePath !== null && [...text.matchAll(OLD_ADDRESS)].some((match) => match[0] === picture.sourcePath));
  return logos.filter((logo) => names(logo.text)).map(({ text: _text, ...use }) => use);
}

/**
 * The testimonials and client logos naming a picture as their logo, in the published copy or the
 * head revision, trash included (decision 061): a picture they use cannot be deleted either.
 */
export async function testimonialUsesOf(
  db: Database | Tx,
  picture: { key: string; sourcePath: string | null },
): Promise<TestimonialMediaUse[]> {
  return testimonialUsesIn(await testimonialLogos(db), picture);
}
