import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { contentFileText } from "./content-file-text.ts";
import {
  type ArticleDocument,
  CONTENT_LIMITS,
  IMAGE_PATH_PATTERN,
  type ProjectDocument,
  SLUG_PATTERN,
  TEAM_MEMBER_LIMITS,
  type TeamMemberDocument,
} from "#shared/content/documents.ts";
import { INDIA_UTC_OFFSET } from "#shared/india-time.ts";
import { MEDIA_REFERENCE_PATTERN } from "#shared/media.ts";
import { hasControlCharacters, normaliseLineBreaks } from "#shared/schemas/text-rules.ts";
import { type MediaFileEntry, readMediaFolder } from "./media-files.ts";
import { type ClientLogoFile, clientLogoFile, type TestimonialFile, testimonialFile } from "./testimonial-files.ts";
import { staffIdOf } from "./byline.ts";

// Reads a content folder (team/*.yaml, projects/*.yaml, articles/*.md and redirects.yaml) into
// the documents a revision stores (src/shared/content/documents.ts), and validates them by the
// studio's rules: the same limits (CONTENT_LIMITS), slugs and picture paths, and no control
// characters. A broken file is reported with its path and the field at fault and left out; it
// never stops the others from loading. The importer (import-content.ts) writes what this reads;
// docs/decisions/038-the-database-holds-the-content.md says when.

const text = contentFileText;

/** The longest picture path the studio takes. */
const IMAGE_PATH_MAX = 300;
const imagePath = z
  .string({ error: "must be text" })
  .max(IMAGE_PATH_MAX, `must be at most ${IMAGE_PATH_MAX} characters`)
  .regex(
    IMAGE_PATH_PATTERN,
    "must be a picture of the library (/media/<key>/original.<ext>) or an old address under /images/",
  );

const slug = (message: string) =>
  z
    .string({ error: message })
    .max(CONTENT_LIMITS.slug, `must be at most ${CONTENT_LIMITS.slug} characters`)
    .regex(SLUG_PATTERN, message);

const teamMemberFile = z.strictObject({
  name: text(TEAM_MEMBER_LIMITS.name),
  title: text(TEAM_MEMBER_LIMITS.title),
  expertise: text(TEAM_MEMBER_LIMITS.expertise),
  image: imagePath,
  email: z
    .email("must be an email address")
    .max(TEAM_MEMBER_LIMITS.email, `must be at most ${TEAM_MEMBER_LIMITS.email} characters`)
    .optional(),
  linkedinUrl: z
    .url({ protocol: /^https$/, error: "must be an https:// URL" })
    .max(TEAM_MEMBER_LIMITS.linkedinUrl, `must be at most ${TEAM_MEMBER_LIMITS.linkedinUrl} characters`)
    .optional(),
  order: z
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .max(10_000, "must be at most 10000")
    .default(0),
});

const projectFile = z.strictObject({
  title: text(CONTENT_LIMITS.title),
  description: text(2000, { multiline: true }),
  category: text(CONTENT_LIMITS.category),
  image: imagePath,
  year: z
    .union([z.string(), z.number()], { error: "must be a year" })
    .transform(String)
    .pipe(z.string().regex(/^\d{4}$/, "must be a four-digit year")),
  capacity: text(120).optional(),
  timeline: text(120).optional(),
});

/** True when the calendar day a date string starts with exists (not 2025-02-30, not 2025-13-01). */
function isRealCalendarDay(raw: string): boolean {
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw);
  if (!day) return true;
  const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
  const utc = new Date(Date.UTC(year, month - 1, date));
  return utc.getUTCFullYear() === year && utc.getUTCMonth() === month - 1 && utc.getUTCDate() === date;
}

const DATE_MESSAGE = "must be a date like 2025-01-05 (or 2025-01-05T09:30:00+05:30)";

/** A bare date (midnight in India, where the firm publishes) or a date and time with its offset. */
const isoDate = z.union([z.string(), z.date()], { error: DATE_MESSAGE }).transform((value, ctx) => {
  const raw = value instanceof Date ? value.toISOString().slice(0, 10) : value.trim();
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(raw);
  if (!bare && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(raw)) {
    ctx.addIssue({ code: "custom", message: DATE_MESSAGE });
    return z.NEVER;
  }
  const date = new Date(bare ? `${raw}T00:00:00${INDIA_UTC_OFFSET}` : raw);
  if (Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: "custom", message: DATE_MESSAGE });
    return z.NEVER;
  }
  // JavaScript rolls an impossible day over into the next month (2025-02-30 becomes 2 March).
  if (!isRealCalendarDay(raw)) {
    ctx.addIssue({ code: "custom", message: `must be a date that exists (${raw.slice(0, 10)} does not)` });
    return z.NEVER;
  }
  return date.toISOString();
});

/**
 * An article's front matter. A published article needs every field its page shows; a draft
 * (`draft: true`), like a draft in the studio, needs only its title.
 */
const articleFrontMatter = z
  .strictObject({
    title: text(CONTENT_LIMITS.title),
    excerpt: text(CONTENT_LIMITS.excerpt, { multiline: true }).optional(),
    category: text(CONTENT_LIMITS.category).optional(),
    image: imagePath.optional(),
    imageAlt: text(CONTENT_LIMITS.imageAlt).optional(),
    publishedAt: isoDate.optional(),
    author: slug("must be the file name of a team member, without .yaml").optional(),
    draft: z.boolean({ error: "must be true or false" }).default(false),
  })
  .superRefine((data, ctx) => {
    if (data.draft) return;
    for (const field of ["excerpt", "category", "image", "publishedAt"] as const) {
      if (data[field] === undefined)
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: "is required (only a draft: true article may leave it out)",
        });
    }
  });

/** redirects.yaml: `articles:` and `projects:`, each a map of old slug to current slug. Empty is none. */
const redirectsFile = z
  .strictObject({
    articles: z.record(slug("must be an old slug"), slug("must be the slug of an article")).optional(),
    projects: z.record(slug("must be an old slug"), slug("must be the slug of a project")).optional(),
  })
  .nullable();

/** An article file: its document and whether it is a draft (kept off the site). */
export type ArticleFile = { document: ArticleDocument; draft: boolean };

/** An old address (redirects.yaml): /blog/<oldSlug> leads to the article whose slug is `slug`. */
export type ContentRedirect = { kind: "article" | "project"; oldSlug: string; slug: string };

export type ContentProblem = { file: string; field: string; message: string };

/**
 * A team member's file: the document a revision stores, and the file's `order`, which only places
 * a member the import adds (the team's order is the studio's afterwards: decision 043).
 */
export type TeamMemberFile = TeamMemberDocument & { order: number };

export type SiteContent = {
  teamMembers: TeamMemberFile[];
  projects: ProjectDocument[];
  articles: ArticleFile[];
  redirects: ContentRedirect[];
  /** The media library's pictures (media/<key>.<ext> and media/<key>.yaml: media-files.ts). */
  media: MediaFileEntry[];
  /** testimonials/*.yaml and client-logos/*.yaml (testimonial-files.ts). */
  testimonials: TestimonialFile[];
  clientLogos: ClientLogoFile[];
  /** Slugs (file names) of every file found, valid or not. */
  present: {
    team: Set<string>;
    projects: Set<string>;
    articles: Set<string>;
    testimonials: Set<string>;
    "client-logos": Set<string>;
  };
  problems: ContentProblem[];
};

/** The folder of each kind, as problems name it (`articles/x.md`). */
export const CONTENT_FOLDERS = { "team-member": "team", project: "projects", article: "articles" } as const;

async function listFiles(dir: string, extension: string): Promise<string[]> {
  try {
    const names = await readdir(dir);
    return names.filter((name) => name.endsWith(extension)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

function problemsFrom(file: string, error: z.ZodError): ContentProblem[] {
  return error.issues.map((issue) => ({
    file,
    field: issue.path.length ? issue.path.join(".") : "(file)",
    message: issue.code === "unrecognized_keys" ? `unknown field(s) ${issue.keys.join(", ")}` : issue.message,
  }));
}

/** Splits "---\nyaml\n---\nbody" into its front matter and body. */
export function splitFrontMatter(source: string): { data: unknown; body: string } | undefined {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (!match) return undefined;
  return { data: parseYaml(match[1] ?? ""), body: match[2] ?? "" };
}

export type ReadContentOptions = {
  /** The site's public/ folder: when given, each file's image must exist there (npm run content:check). */
  publicDir?: string;
};

export async function readSiteContent(contentDir: string, options: ReadContentOptions = {}): Promise<SiteContent> {
  const result: SiteContent = {
    teamMembers: [],
    projects: [],
    articles: [],
    redirects: [],
    media: [],
    testimonials: [],
    clientLogos: [],
    present: {
      team: new Set(),
      projects: new Set(),
      articles: new Set(),
      testimonials: new Set(),
      "client-logos": new Set(),
    },
    problems: [],
  };

  // The pictures first: the items' images are checked against them.
  const pictures = await readMediaFolder(contentDir);
  result.media = pictures.media;
  result.problems.push(...pictures.problems);
  const pictureKeys = new Map(result.media.map((entry) => [entry.key, entry]));
  const oldAddresses = new Set(result.media.map((entry) => entry.sourcePath).filter(Boolean));

  /**
   * Reports a file whose image is nowhere (only when asked to look): a library reference must be
   * a picture of media/ in its format; an old /images/ address a picture of media/ brought in
   * from it, or a file in public/. True when it is missing.
   */
  function imageMissing(file: string, image: string | undefined): boolean {
    if (!image || !options.publicDir) return false;
    const reference = MEDIA_REFERENCE_PATTERN.exec(image);
    if (reference) {
      const entry = pictureKeys.get(reference[1]!);
      const ext = { jpeg: "jpg", png: "png", webp: "webp", avif: "avif" }[entry?.format ?? "jpeg"];
      if (entry && ext === reference[2]) return false;
      result.problems.push({ file, field: "image", message: `names a picture that is not in media/ (${image})` });
      return true;
    }
    if (oldAddresses.has(image) || existsSync(path.join(options.publicDir, image))) return false;
    result.problems.push({ file, field: "image", message: `names a file that does not exist (public${image})` });
    return true;
  }

  async function readEach(
    folder: string,
    extension: string,
    handle: (file: string, slug: string, source: string) => void,
  ) {
    const dir = path.join(contentDir, folder);
    for (const name of await listFiles(dir, extension)) {
      const file = path.join(folder, name);
      const slug = name.slice(0, -extension.length);
      try {
        if (!SLUG_PATTERN.test(slug) || slug.length > CONTENT_LIMITS.slug) {
          result.problems.push({
            file,
            field: "(file name)",
            message: `must be lower-case words joined by hyphens, at most ${CONTENT_LIMITS.slug} characters`,
          });
          continue;
        }
        const source = await readFile(path.join(dir, name), "utf8");
        if (hasControlCharacters(source)) {
          result.problems.push({ file, field: "(file)", message: "must not contain control characters" });
          continue;
        }
        handle(file, slug, source);
      } catch (error) {
        result.problems.push({
          file,
          field: "(file)",
          message: `could not be read or parsed: ${(error as Error).message.split("\n")[0]}`,
        });
      }
    }
  }

  await readEach("team", ".yaml", (file, slug, source) => {
    result.present.team.add(slug);
    const parsed = teamMemberFile.safeParse(parseYaml(source));
    if (!parsed.success) return void result.problems.push(...problemsFrom(file, parsed.error));
    if (imageMissing(file, parsed.data.image)) return;
    const { name, title, expertise, image, email, linkedinUrl, order } = parsed.data;
    result.teamMembers.push({
      slug,
      name,
      title,
      expertise,
      imageUrl: image,
      email: email ?? null,
      linkedinUrl: linkedinUrl ?? null,
      order,
    });
  });

  await readEach("projects", ".yaml", (file, slug, source) => {
    result.present.projects.add(slug);
    const parsed = projectFile.safeParse(parseYaml(source));
    if (!parsed.success) return void result.problems.push(...problemsFrom(file, parsed.error));
    if (imageMissing(file, parsed.data.image)) return;
    const { title, description, category, image, year, capacity, timeline } = parsed.data;
    result.projects.push({
      slug,
      title,
      description,
      category,
      imageUrl: image,
      year,
      capacity: capacity ?? null,
      timeline: timeline ?? null,
    });
  });

  await readEach("articles", ".md", (file, slug, source) => {
    result.present.articles.add(slug);
    const split = splitFrontMatter(source);
    if (!split) {
      return void result.problems.push({
        file,
        field: "(front matter)",
        message: "must start with --- front matter ---",
      });
    }
    const parsed = articleFrontMatter.safeParse(split.data);
    if (!parsed.success) return void result.problems.push(...problemsFrom(file, parsed.error));
    if (imageMissing(file, parsed.data.image)) return;
    const body = normaliseLineBreaks(split.body).trim();
    if (!body && !parsed.data.draft)
      return void result.problems.push({ file, field: "(body)", message: "must not be empty" });
    if (body.length > CONTENT_LIMITS.body) {
      return void result.problems.push({
        file,
        field: "(body)",
        message: `must be at most ${CONTENT_LIMITS.body} characters`,
      });
    }
    const data = parsed.data;
    result.articles.push({
      document: {
        slug,
        title: data.title,
        excerpt: data.excerpt ?? "",
        category: data.category ?? "",
        imageUrl: data.image ?? "",
        imageAlt: data.imageAlt ?? "",
        publishedAt: data.publishedAt ?? "",
        author: data.author ?? "",
        body,
      },
      draft: data.draft,
    });
  });

  // An article naming a team member who has no file is broken: left out, like any broken file. A
  // member of staff (`staff-<id>`, byline.ts) has no file: the database they are in names them.
  result.articles = result.articles.filter(({ document }) => {
    if (!document.author || result.present.team.has(document.author) || staffIdOf(document.author)) return true;
    result.problems.push({
      file: path.join("articles", `${document.slug}.md`),
      field: "author",
      message: `names no team member (no team/${document.author}.yaml)`,
    });
    return false;
  });

  await readEach("testimonials", ".yaml", (file, slug, source) => {
    result.present.testimonials.add(slug);
    const parsed = testimonialFile.safeParse(parseYaml(source));
    if (!parsed.success) return void result.problems.push(...problemsFrom(file, parsed.error));
    if (imageMissing(file, parsed.data.logo)) return;
    if (parsed.data.project && !result.present.projects.has(parsed.data.project))
      return void result.problems.push({
        file,
        field: "project",
        message: `names no project (no projects/${parsed.data.project}.yaml)`,
      });
    const { order, logo, project, ...document } = parsed.data;
    result.testimonials.push({ slug, order, document: { ...document, logoUrl: logo ?? "", project: project ?? "" } });
  });

  await readEach("client-logos", ".yaml", (file, slug, source) => {
    result.present["client-logos"].add(slug);
    const parsed = clientLogoFile.safeParse(parseYaml(source));
    if (!parsed.success) return void result.problems.push(...problemsFrom(file, parsed.error));
    if (imageMissing(file, parsed.data.logo)) return;
    const { order, logo, ...document } = parsed.data;
    result.clientLogos.push({ slug, order, document: { ...document, logoUrl: logo } });
  });

  const redirectsPath = path.join(contentDir, "redirects.yaml");
  if (existsSync(redirectsPath)) {
    const file = "redirects.yaml";
    try {
      const source = await readFile(redirectsPath, "utf8");
      const parsed = hasControlCharacters(source) ? undefined : redirectsFile.safeParse(parseYaml(source));
      if (!parsed) result.problems.push({ file, field: "(file)", message: "must not contain control characters" });
      else if (!parsed.success) result.problems.push(...problemsFrom(file, parsed.error));
      else {
        for (const [kind, entries] of [
          ["article", parsed.data?.articles],
          ["project", parsed.data?.projects],
        ] as const) {
          for (const [oldSlug, slug] of Object.entries(entries ?? {})) {
            if (oldSlug === slug) {
              result.problems.push({ file, field: `${kind}s.${oldSlug}`, message: "must lead to another slug" });
            } else result.redirects.push({ kind, oldSlug, slug });
          }
        }
      }
    } catch (error) {
      result.problems.push({
        file,
        field: "(file)",
        message: `could not be read or parsed: ${(error as Error).message.split("\n")[0]}`,
      });
    }
  }
  return result;
}
