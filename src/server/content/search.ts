import { createHash } from "node:crypto";
import { and, asc, eq, inArray, notInArray, or, sql, type SQL } from "drizzle-orm";
import { crossIndustry, industries, industryAnchor } from "#shared/content/industries.ts";
import { serviceAnchor } from "#shared/content/testimonials.ts";
import { powerSystemStudies } from "#shared/content/power-system-studies.ts";
import { articlePath, paths, projectPath } from "#shared/paths.ts";
import {
  cleanQuery,
  MARK_END,
  MARK_START,
  MAX_ARTICLE_MATCHES,
  MAX_QUERY_WORDS,
  MAX_RESULTS,
  MAX_SYNONYM_MATCHES,
  queryTooLong,
  queryWords,
  type SearchAnswer,
  type SearchKind,
  type SearchResult,
} from "#shared/search.ts";
import { type Database, queryRows } from "../db/client.ts";
import { blogPosts, projects, searchDocuments, searchSynonyms, teamMembers } from "../db/schema.ts";
import { articleIsPublic, projectIsPublic, teamMemberIsPublic } from "./public-content.ts";

// The site search (docs/decisions/054-site-search.md). The rows of articles, projects and team
// members are kept by triggers from their published copy (drizzle/0013_site_search.sql); a search
// joins each to its item and applies the public read condition of public-content.ts with this
// instance's clock, so what it finds is exactly what the sitemap lists. Services and industries
// are words in code, written here once per process when they changed.

type StaticDocument = {
  kind: "service" | "industry";
  key: string;
  path: string;
  title: string;
  headings: string;
  body: string;
};

/** The Services and Industries pages' parts, as search rows: each study, industry and shared topic. */
export function staticSearchDocuments(): StaticDocument[] {
  const services = powerSystemStudies.map((study) => ({
    kind: "service" as const,
    key: `study:${study.name}`,
    path: `${paths.services}#${serviceAnchor(study.group)}`,
    title: study.name,
    headings: study.group,
    body: study.description,
  }));
  const sectors = industries.map((industry) => ({
    kind: "industry" as const,
    key: `industry:${industry.name}`,
    path: `${paths.industries}#${industryAnchor(industry.name)}`,
    title: industry.name,
    headings: industry.services.join("\n"),
    body: [industry.description, ...industry.projects].join("\n"),
  }));
  const topics = crossIndustry.map((topic) => ({
    kind: "industry" as const,
    key: `topic:${topic.title}`,
    path: `${paths.industries}#cross-heading`,
    title: topic.title,
    headings: "",
    body: topic.text,
  }));
  return [...services, ...sectors, ...topics];
}

const staticHash = createHash("sha256").update(JSON.stringify(staticSearchDocuments())).digest("hex").slice(0, 16);
const STATIC_KINDS = ["service", "industry"] as const;
const ensured = new WeakMap<Database, Promise<void>>();

/**
 * The services' and industries' rows as this build has them: written when the stored set is
 * another build's (an app_settings key holds its hash), once per process and database.
 */
export function ensureStaticSearchDocuments(db: Database): Promise<void> {
  let done = ensured.get(db);
  if (!done) {
    done = writeStaticDocuments(db);
    done.catch(() => ensured.delete(db));
    ensured.set(db, done);
  }
  return done;
}

const STATIC_HASH_KEY = "search-static-documents";

async function writeStaticDocuments(db: Database): Promise<void> {
  // The rows too: a restore brings the key back but not the rows (the backup leaves them out).
  const stored = await queryRows<{ value: string }>(
    db,
    sql`select value from app_settings where key = ${STATIC_HASH_KEY}
      and exists (select 1 from search_documents where kind in ('service', 'industry'))`,
  );
  if (stored[0]?.value === staticHash) return;
  const documents = staticSearchDocuments();
  await db.transaction(async (tx) => {
    await tx.delete(searchDocuments).where(
      and(
        inArray(searchDocuments.kind, [...STATIC_KINDS]),
        notInArray(
          searchDocuments.key,
          documents.map((document) => document.key),
        ),
      ),
    );
    await tx
      .insert(searchDocuments)
      .values(documents)
      .onConflictDoUpdate({
        target: [searchDocuments.kind, searchDocuments.key],
        set: {
          path: sql`excluded.path`,
          title: sql`excluded.title`,
          headings: sql`excluded.headings`,
          body: sql`excluded.body`,
        },
      });
    await tx.execute(
      sql`insert into app_settings (key, value) values (${STATIC_HASH_KEY}, ${staticHash}) on conflict (key) do update set value = excluded.value`,
    );
  });
}

/** The groups a new site starts with: power-system abbreviations and their long forms. */
export const SEED_SYNONYMS: readonly (readonly string[])[] = [
  ["LVRT", "low-voltage ride-through"],
  ["HVRT", "high-voltage ride-through"],
  ["FRT", "fault ride-through"],
  ["THD", "total harmonic distortion"],
  ["PQ", "power quality"],
  ["BESS", "battery energy storage"],
  ["SLD", "single line diagram"],
  ["CEA", "Central Electricity Authority"],
  ["GETCO", "Gujarat Energy Transmission Corporation"],
  ["PCC", "point of common coupling"],
  ["STATCOM", "static synchronous compensator"],
  ["EMT", "electromagnetic transient"],
];
const SYNONYMS_SEEDED_KEY = "search-synonyms-seeded";
const synonymsSeeded = new WeakMap<Database, Promise<void>>();

/**
 * Writes SEED_SYNONYMS once per database (an app_settings key claims it, so one instance of many
 * does), then never again: a group an admin removed stays removed, and a restore brings the key.
 */
export function ensureSeedSynonyms(db: Database): Promise<void> {
  let done = synonymsSeeded.get(db);
  if (!done) {
    done = db.transaction(async (tx) => {
      const claimed = await queryRows<{ key: string }>(
        tx,
        sql`insert into app_settings (key, value) values (${SYNONYMS_SEEDED_KEY}, ${new Date().toISOString()})
          on conflict (key) do nothing returning key`,
      );
      if (claimed.length === 0) return;
      await tx
        .insert(searchSynonyms)
        .values(SEED_SYNONYMS.map((terms) => ({ terms: [...terms], createdByLabel: "seed" })));
    });
    done.catch(() => synonymsSeeded.delete(db));
    synonymsSeeded.set(db, done);
  }
  return done;
}

/** The synonym groups, as typed in the back office, oldest first. */
export async function listSynonymGroups(db: Database): Promise<{ id: string; terms: string[] }[]> {
  await ensureSeedSynonyms(db);
  return db
    .select({ id: searchSynonyms.id, terms: searchSynonyms.terms })
    .from(searchSynonyms)
    .orderBy(asc(searchSynonyms.createdAt), asc(searchSynonyms.id));
}

/** A query in parts: its words searched as they are, and groups of phrases any one of which may match. */
export type PlannedQuery = { words: string[]; groups: string[][]; widenedWith: string[]; wordsLeftOut: number };

/**
 * The words of a query, at most MAX_QUERY_WORDS, each synonym group whose term appears in them
 * (as whole words, longest first) taking that term's place with all of the group's terms.
 */
export function planQuery(query: string, synonymGroups: readonly (readonly string[])[]): PlannedQuery {
  const all = queryWords(query);
  const words = all.slice(0, MAX_QUERY_WORDS);
  const candidates = synonymGroups
    .flatMap((terms, group) => terms.map((term) => ({ group, term, words: queryWords(term) })))
    .filter((candidate) => candidate.words.length > 0)
    .sort((a, b) => b.words.length - a.words.length);
  const used = new Set<number>();
  const groups: string[][] = [];
  const widenedWith: string[] = [];
  let rest = words;
  for (const candidate of candidates) {
    if (groups.length >= MAX_SYNONYM_MATCHES) break;
    if (used.has(candidate.group)) continue;
    const at = indexOfRun(rest, candidate.words);
    if (at === -1) continue;
    used.add(candidate.group);
    rest = [...rest.slice(0, at), ...rest.slice(at + candidate.words.length)];
    const terms = synonymGroups[candidate.group]!;
    groups.push(terms.map((term) => queryWords(term).join(" ")).filter(Boolean));
    widenedWith.push(...terms.filter((term) => term !== candidate.term));
  }
  return { words: rest, groups, widenedWith, wordsLeftOut: all.length - words.length };
}

function indexOfRun(words: readonly string[], run: readonly string[]): number {
  for (let at = 0; at + run.length <= words.length; at += 1) {
    if (run.every((word, offset) => words[at + offset] === word)) return at;
  }
  return -1;
}

/** The tsquery of a plan: the words all (stemmed, common words left out), each group any of its phrases. */
function tsqueryOf(plan: PlannedQuery): SQL {
  const parts: SQL[] = [];
  if (plan.words.length > 0) parts.push(sql`plainto_tsquery('english', ${plan.words.join(" ")})`);
  for (const group of plan.groups) {
    parts.push(
      sql`(${sql.join(
        group.map((phrase) => sql`phraseto_tsquery('english', ${phrase})`),
        sql` || `,
      )})`,
    );
  }
  return parts.length > 0 ? sql.join(parts, sql` && `) : sql`''::tsquery`;
}

/** A row may be shown: a page part in code, or an item public now on this instance's clock. */
function isPublic(now: Date): SQL {
  return or(
    inArray(searchDocuments.kind, [...STATIC_KINDS]),
    and(eq(searchDocuments.kind, "article"), articleIsPublic(now)),
    and(eq(searchDocuments.kind, "project"), projectIsPublic(now)),
    and(eq(searchDocuments.kind, "team"), teamMemberIsPublic),
  )!;
}

const fromPublicDocuments = (query: SQL, now: Date) => sql`
  from ${searchDocuments}
  left join ${blogPosts} on ${blogPosts.id} = ${searchDocuments.articleId}
  left join ${projects} on ${projects.id} = ${searchDocuments.projectId}
  left join ${teamMembers} on ${teamMembers.id} = ${searchDocuments.teamMemberId}
  where ${searchDocuments.vector} @@ ${query} and ${isPublic(now)}`;

const HEADLINE_OPTIONS = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=32, MinWords=16, MaxFragments=2, FragmentDelimiter=" … "`;

type Row = {
  kind: SearchKind;
  title: string;
  path: string | null;
  article_slug: string | null;
  project_slug: string | null;
  excerpt: string;
  total: number | string;
};

function hrefOf(row: Row): string {
  if (row.kind === "article") return articlePath(row.article_slug ?? "");
  if (row.kind === "project") return projectPath(row.project_slug ?? "");
  if (row.kind === "team") return `${paths.about}#team-heading`;
  return row.path ?? paths.home;
}

/**
 * The search page's answer for a query as typed: refused when too long or without a word, else
 * the best MAX_RESULTS public matches by rank (title words weigh most, then headings, then the
 * body), each with an excerpt around the match, and how many matched in all.
 */
export async function searchSite(db: Database, raw: string, now: Date): Promise<SearchAnswer> {
  const query = cleanQuery(raw);
  if (raw.trim() === "") return { state: "empty" };
  if (query === "") return { state: "no-words", query };
  if (queryTooLong(query)) return { state: "too-long", query: Array.from(query).slice(0, 200).join("") };
  const plan = planQuery(
    query,
    (await listSynonymGroups(db)).map((group) => group.terms),
  );
  if (plan.words.length === 0 && plan.groups.length === 0) return { state: "no-words", query };
  await ensureStaticSearchDocuments(db);
  const tsquery = tsqueryOf(plan);
  const rows = await queryRows<Row & { nodes: number }>(
    db,
    sql`
    with q as (select ${tsquery} as query),
    matches as (
      select ${searchDocuments.kind} as kind, ${searchDocuments.title} as title, ${searchDocuments.body} as body,
        ${searchDocuments.path} as path, ${blogPosts.slug} as article_slug, ${projects.slug} as project_slug,
        ts_rank(${searchDocuments.vector}, (select query from q)) as rank
      ${fromPublicDocuments(sql`(select query from q)`, now)}
    ),
    best as (select * from matches order by rank desc, title asc limit ${MAX_RESULTS})
    select (select numnode(query) from q) as nodes, (select count(*) from matches) as total,
      best.kind, best.title, best.path, best.article_slug, best.project_slug,
      ts_headline('english', best.body, (select query from q), ${HEADLINE_OPTIONS}) as excerpt
    from (select 1) as one left join best on true
    order by best.rank desc nulls last, best.title asc`,
  );
  if (Number(rows[0]?.nodes ?? 0) === 0) return { state: "no-words", query };
  const results: SearchResult[] = rows
    .filter((row) => row.kind !== null)
    .map((row) => ({ kind: row.kind, title: row.title, href: hrefOf(row), excerpt: row.excerpt }));
  return {
    state: "done",
    query,
    results,
    total: Number(rows[0]?.total ?? 0),
    wordsLeftOut: plan.wordsLeftOut,
    widenedWith: plan.widenedWith,
  };
}

/**
 * The slugs of public articles whose words match a query (the blog's search: its list also
 * matches titles and excerpts itself); at most MAX_ARTICLE_MATCHES, none for a refused query.
 */
export async function articleSlugsMatching(db: Database, raw: string, now: Date): Promise<string[]> {
  const query = cleanQuery(raw);
  if (query === "" || queryTooLong(query)) return [];
  const plan = planQuery(
    query,
    (await listSynonymGroups(db)).map((group) => group.terms),
  );
  if (plan.words.length === 0 && plan.groups.length === 0) return [];
  const rows = await queryRows<{ slug: string }>(
    db,
    sql`
    select ${blogPosts.slug} as slug
    ${fromPublicDocuments(tsqueryOf(plan), now)} and ${searchDocuments.kind} = 'article'
    order by ts_rank(${searchDocuments.vector}, ${tsqueryOf(plan)}) desc, ${blogPosts.slug} asc
    limit ${MAX_ARTICLE_MATCHES}`,
  );
  return rows.map((row) => row.slug);
}
