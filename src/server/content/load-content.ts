import { existsSync } from "node:fs";
import { INDIA_UTC_OFFSET } from "#shared/india-time.ts";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";

// Reads the site's content files (content/team/*.yaml, content/projects/*.yaml,
// content/articles/*.md) and validates them. A broken file is reported with its path and the
// field at fault and left out; it never stops the others from loading.

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const text = (max: number) => z.string({ error: "must be text" }).trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);
const imagePath = z
  .string({ error: "must be text" })
  .regex(/^\/images\/[a-z0-9/_-]+\.(svg|png|jpe?g|webp|avif)$/, "must be a path under /images/ of a file in public/images");

const teamMemberFile = z.strictObject({
  name: text(120),
  title: text(160),
  expertise: text(300),
  image: imagePath,
  email: z.email("must be an email address").optional(),
  linkedinUrl: z.url({ protocol: /^https$/, error: "must be an https:// URL" }).optional(),
  order: z.number({ error: "must be a number" }).int("must be a whole number").min(0, "must be 0 or more").default(0),
});

const projectFile = z.strictObject({
  title: text(200),
  description: text(2000),
  category: text(60),
  image: imagePath,
  year: z.union([z.string(), z.number()], { error: "must be a year" }).transform(String).pipe(z.string().regex(/^\d{4}$/, "must be a four-digit year")),
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

const isoDate = z
  .union([z.string(), z.date()], { error: "must be a date like 2025-01-05" })
  .transform((value, ctx) => {
    const raw = value instanceof Date ? value.toISOString().slice(0, 10) : value;
    // A bare date is midnight in India, where the firm publishes.
    const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00${INDIA_UTC_OFFSET}` : raw);
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: "custom", message: "must be a date like 2025-01-05" });
      return z.NEVER;
    }
    // JavaScript rolls an impossible day over into the next month (2025-02-30 becomes 2 March).
    if (!isRealCalendarDay(raw)) {
      ctx.addIssue({ code: "custom", message: `must be a date that exists (${raw.slice(0, 10)} does not)` });
      return z.NEVER;
    }
    return date;
  });

const articleFrontMatter = z.strictObject({
  title: text(200),
  excerpt: text(400),
  category: text(60),
  image: imagePath,
  publishedAt: isoDate,
  author: z.string().regex(slugPattern, "must be the file name of a team member, without .yaml").optional(),
  draft: z.boolean({ error: "must be true or false" }).default(false),
});

export type TeamMemberContent = {
  name: string;
  title: string;
  expertise: string;
  imageUrl: string;
  email: string | null;
  linkedinUrl: string | null;
  order: number;
};

export type ProjectContent = {
  slug: string;
  title: string;
  description: string;
  category: string;
  imageUrl: string;
  year: string;
  capacity: string | null;
  timeline: string | null;
};

export type ArticleContent = {
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  imageUrl: string;
  publishedAt: Date;
  author: string | null;
  /** The named team member's name, for the byline. */
  authorName: string | null;
  draft: boolean;
  content: string;
};

export type ContentProblem = { file: string; field: string; message: string };

export type SiteContent = {
  teamMembers: TeamMemberContent[];
  projects: ProjectContent[];
  articles: ArticleContent[];
  /** Slugs (or team file names) of every file found, valid or not. */
  present: { team: Set<string>; projects: Set<string>; articles: Set<string> };
  problems: ContentProblem[];
};

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
    present: { team: new Set(), projects: new Set(), articles: new Set() },
    problems: [],
  };

  const teamNames = new Map<string, string>();

  /** Reports a file whose image is not in public/ (only when asked to look); true when it is missing. */
  function imageMissing(file: string, image: string): boolean {
    if (!options.publicDir || existsSync(path.join(options.publicDir, image))) return false;
    result.problems.push({ file, field: "image", message: `names a file that does not exist (public${image})` });
    return true;
  }

  async function readEach(folder: string, extension: string, handle: (file: string, slug: string, source: string) => void) {
    const dir = path.join(contentDir, folder);
    for (const name of await listFiles(dir, extension)) {
      const file = path.join(folder, name);
      const slug = name.slice(0, -extension.length);
      try {
        if (!slugPattern.test(slug)) {
          result.problems.push({ file, field: "(file name)", message: "must be lower-case words joined by hyphens" });
          continue;
        }
        handle(file, slug, await readFile(path.join(dir, name), "utf8"));
      } catch (error) {
        result.problems.push({ file, field: "(file)", message: `could not be read or parsed: ${(error as Error).message.split("\n")[0]}` });
      }
    }
  }

  await readEach("team", ".yaml", (file, slug, source) => {
    result.present.team.add(slug);
    const parsed = teamMemberFile.safeParse(parseYaml(source));
    if (!parsed.success) return void result.problems.push(...problemsFrom(file, parsed.error));
    if (imageMissing(file, parsed.data.image)) return;
    const { image, email, linkedinUrl, ...rest } = parsed.data;
    result.teamMembers.push({ ...rest, imageUrl: image, email: email ?? null, linkedinUrl: linkedinUrl ?? null });
    teamNames.set(slug, parsed.data.name);
  });

  await readEach("projects", ".yaml", (file, slug, source) => {
    result.present.projects.add(slug);
    const parsed = projectFile.safeParse(parseYaml(source));
    if (!parsed.success) return void result.problems.push(...problemsFrom(file, parsed.error));
    if (imageMissing(file, parsed.data.image)) return;
    const { image, capacity, timeline, ...rest } = parsed.data;
    result.projects.push({ ...rest, slug, imageUrl: image, capacity: capacity ?? null, timeline: timeline ?? null });
  });

  await readEach("articles", ".md", (file, slug, source) => {
    result.present.articles.add(slug);
    const split = splitFrontMatter(source);
    if (!split) {
      return void result.problems.push({ file, field: "(front matter)", message: "must start with --- front matter ---" });
    }
    const parsed = articleFrontMatter.safeParse(split.data);
    if (!parsed.success) return void result.problems.push(...problemsFrom(file, parsed.error));
    if (imageMissing(file, parsed.data.image)) return;
    const content = split.body.trim();
    if (!content) return void result.problems.push({ file, field: "(body)", message: "must not be empty" });
    const { image, author, ...rest } = parsed.data;
    result.articles.push({ ...rest, slug, imageUrl: image, author: author ?? null, authorName: null, content });
  });

  const teamSlugs = result.present.team;
  for (const article of result.articles) {
    article.authorName = article.author ? (teamNames.get(article.author) ?? null) : null;
    if (article.author && !teamSlugs.has(article.author)) {
      result.problems.push({
        file: path.join("articles", `${article.slug}.md`),
        field: "author",
        message: `names no team member (no content/team/${article.author}.yaml)`,
      });
    }
  }
  return result;
}
