import { randomUUID } from "node:crypto";
import { crc32 } from "node:zlib";
import { eq, inArray, sql } from "drizzle-orm";
import pino from "pino";
import sharp from "sharp";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  cookieFrom,
  joinByInvitation,
  newSessionFor,
  staffWithSession,
  type StaffWithSession,
} from "../../../test/admin-fixtures.ts";
import { addArticle, articleDocument } from "../../../test/content-fixtures.ts";
import { testDrivers } from "../../../test/databases.ts";
import { EVENT_LOOP_BUDGET_MS, longestEventLoopStall } from "../../../test/event-loop.ts";
import { multipartBody, pixelBombPng, plainPicture } from "../../../test/media-fixtures.ts";
import { SmtpPeer } from "../../../test/smtp-peer.ts";
import { SoftAuthenticator } from "../../../test/soft-authenticator.ts";
import { CLIENT_LOGOS, TESTIMONIALS } from "#shared/admin/collections/index.ts";
import { adminHref, type AdminRouteName, adminRoutes } from "#shared/admin/routes.ts";
import { NEWSLETTER_LIMITS, NOTE_MAX, TEAM_ORDER_MAX } from "#shared/admin/schemas.ts";
import { CONTENT_LIMITS, PROJECT_LIMITS, type ProjectDocument } from "#shared/content/documents.ts";
import {
  MARKDOWN_HEADINGS_MAX,
  MARKDOWN_NESTING_MAX,
  markdownHeadingLines,
  markdownNestingDepth,
} from "#shared/content/markdown-rules.ts";
import { MAX_REPORT_DAYS } from "#shared/analytics.ts";
import { addIndiaDays, indiaDay, startOfIndiaDay } from "#shared/india-time.ts";
import { MEDIA_LIMITS } from "#shared/media.ts";
import { queryRows } from "../db/client.ts";
import {
  blogPosts,
  contactSubmissions,
  contentLinks,
  newsletters,
  newsletterSubscribers,
  passkeys,
  projects,
  searchSynonyms,
  teamMembers,
} from "../db/schema.ts";
import { createContentLink } from "../content/links.ts";
import { appendRevision } from "../content/revisions.ts";
import { FORM_FIELDS_MAX } from "../http/form-fields.ts";
import { createSmtpTransport } from "../mail/smtp-transport.ts";
import { NewsletterSender } from "../newsletter/sender.ts";
import { sendNewsletter } from "../newsletter/queue.ts";
import { createToken, inviteStaff } from "./staff/staff-repository.ts";
import { DIFF_MAX_EDITS } from "./studio/compare.ts";

// The rule behind the review's two high findings (issue 31): no request's synchronous work may be
// bounded only by what the user sends. Every route of the back office's table
// (src/shared/admin/routes.ts) is sent what is most pathological at its own limit, each shape once,
// and fails when the event loop was held longer than EVENT_LOOP_BUDGET_MS (what a second client, a
// /healthz poll, would have waited: test/event-loop.ts) or when the answer is a 500. Each request
// must have done its work (the statuses its probe names), so that a 429 or the door's refusal
// cannot pass for a quick answer. A route joins by being in the table: `probes` is typed by its
// names, so a new route fails the typecheck until it has one: the defaults (`queryProbe`,
// `formProbe`, `jsonProbe`) or shapes of its own where it does real work with what is sent (the
// studio's Markdown bodies, uploads, reports, exports, newsletters). One app and the large
// fixtures (thousands of enquiries, subscribers, raw page views and audit events, an article of
// 5,001 revisions, bodies of 50,000 lines to compare) are shared by the file; each probe makes its
// own items before it is measured, and the articles and projects it made are deleted after it.
// docs/testing.md says what is sent.

/** A request as inject() takes it, from a session (`cookie`) and a client address of its own. */
type Sent = InjectOptions & { cookie?: string };

/**
 * One pathological request: what it is, in words; how it is sent (or made from the answers before
 * it: the share link a page gave); the statuses that show its handler did the work.
 */
type Shape = {
  what: string;
  send: Sent | ((before: LightMyRequestResponse[]) => Sent);
  expect: readonly number[];
};

/** Work a request left to the site's own workers (a test mail), run as they run it: it must get done. */
type Work = { what: string; work: () => Promise<boolean> };

/** What a route is sent: its shapes, once its items are made (not measured). */
type Probe = (kit: Kit) => Promise<(Shape | Work)[]>;

/** What a probe gets: the app, an admin of its own (a fresh session, no limit spent) and the shared fixtures. */
type Kit = { t: AdminTestApp; admin: StaffWithSession; fixtures: Fixtures };

type StoredArticle = { id: string; revisionId: number; slug: string };

type Fixtures = {
  /** Three articles whose head and the revision before differ over tens of thousands of lines. */
  compare: { changedLines: string; unchangedBody: string; justUnderTheBound: string };
  /** An article with thousands of revisions. */
  manyRevisions: string;
  /** An article of a short body, for the probes of a page's query. */
  lightArticle: string;
  /** A newsletter per introduction shape, with 12 articles. */
  newsletters: Map<string, string>;
  /** The public articles a newsletter may feature. */
  publicArticles: string[];
  /** An enquiry with many long notes; the address of thousands of enquiries (previewed, erased). */
  enquiryWithNotes: string;
  previewAddress: string;
  eraseAddress: string;
};

// Pathological texts, at a limit: Markdown bodies (CONTENT_LIMITS.body), a project's description
// (plain text, PROJECT_LIMITS.description) and a newsletter's introduction (its own small
// Markdown, NEWSLETTER_LIMITS.introduction).

/** `unit` repeated to `limit` characters at most. */
const fill = (unit: string, limit: number) => unit.repeat(Math.floor(limit / unit.length));

/** Lines added while they fit in `limit`. */
function linesUpTo(limit: number, line: (index: number) => string): string {
  let text = "";
  for (let index = 0; ; index += 1) {
    const next = line(index);
    if (text.length + next.length > limit) return text;
    text += next;
  }
}

function table(columns: number, limit: number): string {
  const head = `|${"h|".repeat(columns)}\n|${"-|".repeat(columns)}\n`;
  return head + fill(`|${"a|".repeat(columns)}\n`, limit - head.length);
}

/** The shapes of a text of at most `limit` characters, by name. */
function pathologicalTexts(limit: number): [string, string][] {
  return [
    ['"#" lines', fill("#\n", limit)],
    ['"## a" lines', fill("## a\n", limit)],
    ["499 headings of long text", fill(`## ${"heading words ".repeat(14)}\n\n`, Math.min(limit, 499 * 200))],
    ["quotes 3,000 deep", `${">".repeat(Math.min(3000, limit - 2))} a`],
    ["quotes 99 deep on every line", fill(`${">".repeat(99)} a\n`, limit)],
    ["lists 99 deep on every line", fill(`${"- ".repeat(99)}a\n`, limit)],
    ["a list nested by indentation", linesUpTo(limit, (depth) => `${"  ".repeat(depth)}- a\n`)],
    ["a table of 50 columns", table(50, limit)],
    ["a table of 2,000 columns", table(Math.min(2000, Math.floor(limit / 4) - 2), limit)],
    ["list items", fill("- a\n", limit)],
    ["nested list items", fill("- a\n  - b\n", limit)],
    ['"*a" runs', fill("*a", limit)],
    ['"_" runs', fill("_", limit)],
    ['unbalanced "**"', fill("**", limit)],
    ['"**a" runs', fill("**a", limit)],
    ["reference links [a][b]", `[b]: /contact\n\n${fill("[a][b]", limit - 16)}`],
    ["inline links [a](b)", fill("[a](b)", limit)],
    ['"![" runs', fill("![", limit)],
    ["backticks", fill("`a", limit)],
    ["backtick runs of every length", linesUpTo(limit, (length) => `${"`".repeat(length + 1)} `)],
  ];
}

/**
 * The bodies: every shape but those whose cost another shape shows already (rendering each takes
 * as long as the stall it shows, so a body is not sent twice for one lesson).
 */
const MARKDOWN_SHAPES = pathologicalTexts(CONTENT_LIMITS.body).filter(
  ([shape]) => !['"**a" runs', "a table of 2,000 columns", "inline links [a](b)", '"![" runs'].includes(shape),
);
/** A project's description is plain text (its page shows it as a paragraph): shapes of text. */
const DESCRIPTION_SHAPES: [string, string][] = [
  ["line breaks", fill("a\n", PROJECT_LIMITS.description)],
  ["one word", fill("a", PROJECT_LIMITS.description)],
  ["combining marks", `a${fill("\u0301", PROJECT_LIMITS.description - 1)}`],
  ["a table of 50 columns", table(50, PROJECT_LIMITS.description)],
];

/**
 * A newsletter's introduction is Markdown of its own, read by a few expressions
 * (src/server/newsletter/newsletter-email.ts): paragraphs, lists, links, bold and italic.
 */
const INTRODUCTION_SHAPES: [string, string][] = [
  ...pathologicalTexts(NEWSLETTER_LIMITS.introduction).filter(([shape]) =>
    ['"*a" runs', '"_" runs', 'unbalanced "**"', '"**a" runs', "inline links [a](b)", "list items"].includes(shape),
  ),
  ['"__a" runs', fill("__a", NEWSLETTER_LIMITS.introduction)],
  ["links left open", fill("[a](", NEWSLETTER_LIMITS.introduction)],
  ["a paragraph of one-character lines", fill("a\n", NEWSLETTER_LIMITS.introduction)],
];

/**
 * The costliest shape to render (about 6 s at the limit): sent to the live preview and the saves,
 * it is not rendered again by the pages that open a stored body, where other shapes over the
 * budget show the same work.
 */
const ONCE = '"*a" runs';

/** A shape over the budget to render, for the routes that render a body once rather than every shape. */
const RENDER_HEAVY = "lists 99 deep on every line";

/** Whether the studio accepts a body (its Markdown rules: headings and nesting). */
const accepted = (body: string) =>
  markdownHeadingLines(body) <= MARKDOWN_HEADINGS_MAX && markdownNestingDepth(body) <= MARKDOWN_NESTING_MAX;

/** Every field a back-office GET form reads (the door's walk lists them too). */
const QUERY_FIELDS = [
  "q",
  "status",
  "owner",
  "service",
  "from",
  "to",
  "action",
  "actor",
  "page",
  "show",
  "focus",
  "state",
  "period",
  "refused",
  "publishedAt",
  "next",
  "notice",
];

/** Text with every kind of character a query or a form should not trip over. */
const HOSTILE_TEXT = "a\u0000b%00\u0001\u001f\u007f\u2028\u2029é𝄞<script>'\"\\%_*[](){}\r\n\t ";

const site = (t: AdminTestApp) => t.config.bodyLimitBytes;

/** A route's address with its parameters. */
function hrefOf(name: AdminRouteName, params: Record<string, string> = {}): string {
  return adminRoutes[name].path.replace(/:([A-Za-z]+)/g, (_, key: string) => encodeURIComponent(params[key] ?? "x"));
}

const GET_DONE = [200, 400] as const;
const FORM_DONE = [200, 303, 400, 409, 410, 422] as const;
const JSON_DONE = [200, 400, 401, 409, 422] as const;

// The default probes: what every route is sent, whatever it does.

/**
 * A GET's query made hostile three ways, within the 16 KB a request's head may have: each filter
 * long and full of control characters (the search 2,000 characters); each filter repeated, the
 * page number past any page; and the longest search the lists take, of LIKE's wildcards, on the
 * last page there may be.
 */
function queryShapes(url: string, cookie: string, done: readonly number[] = GET_DONE): Shape[] {
  const long = (length: number) => encodeURIComponent(fill(HOSTILE_TEXT, length));
  const join = (pairs: string[]) => `${url}${url.includes("?") ? "&" : "?"}${pairs.join("&")}`;
  return [
    {
      what: "every filter long, with control characters (the search 2,000 characters)",
      send: {
        method: "GET",
        url: join(QUERY_FIELDS.map((field) => `${field}=${long(field === "q" ? 2000 : 100)}`)),
        cookie,
      },
      expect: done,
    },
    {
      what: "every filter given 50 times, page 99999999999",
      send: {
        method: "GET",
        url: join([
          ...QUERY_FIELDS.flatMap((field) => Array.from({ length: 50 }, (_, index) => `${field}=${index}`)),
          "page=99999999999",
        ]),
        cookie,
      },
      expect: done,
    },
    {
      what: "a search of 198 LIKE wildcards, page 10000",
      send: { method: "GET", url: join([`q=${encodeURIComponent(fill("%_\\", 198))}`, "page=10000"]), cookie },
      expect: done,
    },
  ];
}

/** A url-encoded form of `pairs` repeated until `limit` bytes. */
function formUpTo(limit: number, pair: (index: number) => string): string {
  const parts: string[] = [];
  let size = 0;
  for (let index = 0; ; index += 1) {
    const next = pair(index);
    if (size + next.length + 1 > limit) return parts.join("&");
    parts.push(next);
    size += next.length + 1;
  }
}

const FORM = { "content-type": "application/x-www-form-urlencoded" };

/**
 * A post at the route's body limit four ways: as many fields as a form may have (FORM_FIELDS_MAX),
 * their values filling the limit; the route's own fields given again and again, as many times; each
 * of them one long value of control characters and line breaks; and far more fields than a form
 * may have, refused before they are parsed.
 */
function formShapes(
  url: string,
  cookie: string,
  limit: number,
  fields: string[],
  done: readonly number[] = FORM_DONE,
  extra: Record<string, string> = {},
): Shape[] {
  const kept = new URLSearchParams(extra).toString();
  const room = limit - kept.length - 1;
  const withKept = (form: string) => (kept ? `${kept}&${form}` : form);
  const post = (payload: string): Sent => ({ method: "POST", url, cookie, headers: FORM, payload: withKept(payload) });
  const most = FORM_FIELDS_MAX - fields.length - Object.keys(extra).length;
  const filler = (name: string, count: number) => fill("a", Math.floor(room / count) - name.length - 2);
  const unit = encodeURIComponent(HOSTILE_TEXT);
  const bytes = limit.toLocaleString("en");
  return [
    {
      what: `${most.toLocaleString("en")} fields of their own, to ${bytes} bytes`,
      send: post(Array.from({ length: most }, (_, index) => `f${index}=${filler(`f${index}`, most)}`).join("&")),
      expect: done,
    },
    {
      what: `its fields given ${most.toLocaleString("en")} times, to ${bytes} bytes`,
      send: post(
        Array.from({ length: most }, (_, index) => fields[index % fields.length]!)
          .map((field) => `${field}=${filler(field, most)}`)
          .join("&"),
      ),
      expect: done,
    },
    {
      what: `each field ${(Math.floor(room / fields.length) - 40).toLocaleString("en")} bytes of control characters and line breaks`,
      send: post(fields.map((field) => `${field}=${fill(unit, Math.floor(room / fields.length) - 40)}`).join("&")),
      expect: done,
    },
    {
      what: `${bytes} bytes of empty fields, more than a form may have`,
      send: post(formUpTo(room, (index) => `f${index}=`)),
      expect: [413],
    },
  ];
}

const JSON_TYPE = { "content-type": "application/json" };

/** A JSON post at the route's body limit: arrays nested as deep as fit, objects too, and a wide object. */
function jsonShapes(
  url: string,
  cookie: string,
  limit: number,
  field: string,
  done: readonly number[] = JSON_DONE,
): Shape[] {
  const depth = Math.floor((limit - field.length - 8) / 2);
  const objects = Math.floor((limit - field.length - 8) / 6);
  const wide = Object.fromEntries(
    Array.from({ length: Math.floor(limit / 64) }, (_, index) => [`${field}${index}`, fill("x", 40)]),
  );
  return [
    {
      what: `arrays nested ${depth.toLocaleString("en")} deep`,
      send: {
        method: "POST",
        url,
        cookie,
        headers: JSON_TYPE,
        payload: `{"${field}":${"[".repeat(depth)}${"]".repeat(depth)}}`,
      },
      // Refused before it is parsed, naming the rule (http/json-depth.ts).
      expect: [400],
    },
    {
      what: `objects nested ${objects.toLocaleString("en")} deep`,
      send: {
        method: "POST",
        url,
        cookie,
        headers: JSON_TYPE,
        payload: `{"${field}":${'{"a":'.repeat(objects)}1${"}".repeat(objects)}}`,
      },
      expect: [400],
    },
    {
      what: `an object of ${Object.keys(wide).length.toLocaleString("en")} keys`,
      send: { method: "POST", url, cookie, headers: JSON_TYPE, payload: JSON.stringify(wide) },
      expect: done,
    },
  ];
}

/** The body limit of a route: its own, or the site's. */
const limitOf = (t: AdminTestApp, name: AdminRouteName) => {
  const route = adminRoutes[name] as { bodyLimit?: number };
  return route.bodyLimit ?? site(t);
};

/**
 * The door's refusals for a signed-in admin (another site, a client's or a session's limit): a
 * probe expecting one would pass without its handler running.
 */
const DOOR_REFUSALS = [403, 429];

const names = Object.keys(adminRoutes) as AdminRouteName[];

/** How many rows the lists and exports hold: enough for their work to show. */
const ENQUIRIES = 2_000;
const SUBSCRIBERS = 3_000;
const VIEWS_A_DAY = 10_000;
const AUDIT_EVENTS = 10_000;

describe.each(testDrivers)("no request holds the event loop, on %s", (driver) => {
  let t: AdminTestApp;
  let fixtures: Fixtures;
  let peer: SmtpPeer;
  let made = 0;
  /**
   * The Markdown bodies the pages that render one are sent (the live preview, the editor, the
   * draft's pages): rendering is the same work over either database, so every shape on the
   * embedded one, which every run has and where a query holds the event loop too; on PostgreSQL
   * the heaviest alone. The saves store every shape on both.
   */
  const toRender = (shapes: [string, string][]) =>
    driver === "pglite" ? shapes : shapes.filter(([shape]) => shape === RENDER_HEAVY);
  /** A name no other item of the file has. */
  const unique = (word: string) => `${word}-${driver}-${(made += 1)}`;

  beforeAll(async () => {
    peer = await SmtpPeer.start();
    t = await buildAdminTestApp(driver, {
      content: true,
      // The embedded database as the site runs it: in a thread of its own (decision 050).
      thread: "worker",
      env: { SMTP_URL: peer.url, MAIL_FROM: "site@example.com", MAIL_TO: "firm@example.com" },
    });
    const db = t.database.db;
    const now = t.clock.now;
    const writer = await staffWithSession(t, { name: "Fixture Writer", role: "admin" });

    // Compare: two revisions of 10,000 lines, each changed (the review's); two of the same body of
    // as many lines as the limit holds (50,000), the title changed; and two of those 50,000 lines
    // with as many changed as the comparison's bound allows (DIFF_MAX_EDITS lines added or
    // removed), which it must compare all the way.
    const lines = (count: number, word: (index: number) => string) =>
      Array.from({ length: count }, (_, index) => word(index)).join("\n");
    const mostLines = lines(CONTENT_LIMITS.body / 2, () => "a");
    const underTheBound = DIFF_MAX_EDITS / 2 - 1;
    const compare = {
      changedLines: await twoRevisions(
        "article",
        lines(10_000, (index) => `a${index.toString(36)}`),
        lines(10_000, (index) => `b${index.toString(36)}`),
      ),
      unchangedBody: await twoRevisions("article", mostLines, mostLines, "Compared, retitled"),
      justUnderTheBound: await twoRevisions(
        "article",
        mostLines,
        lines(CONTENT_LIMITS.body / 2, (index) => (index % 50 === 0 && index < underTheBound * 50 ? "b" : "a")),
      ),
    };

    // An article saved thousands of times: every explicit save is kept for the item's life.
    const manyRevisions = (await article("One.")).id;
    await queryRows(
      db,
      sql`insert into content_revisions (article_id, number, document, hash, source, author_label, created_at)
          select ${manyRevisions}, 1 + i, jsonb_set(document, '{body}', to_jsonb('Save ' || i)), md5('many' || i),
            'studio', 'Fixture Writer', created_at + (i || ' seconds')::interval
          from content_revisions, generate_series(1, 5000) as i
          where article_id = ${manyRevisions}`,
    );

    const publicArticles = (
      await db
        .select({ id: blogPosts.id })
        .from(blogPosts)
        .where(eq(blogPosts.status, "published"))
        .limit(NEWSLETTER_LIMITS.articles)
    ).map((row) => row.id);
    const newslettersMade = new Map<string, string>();
    for (const [shape, introduction] of INTRODUCTION_SHAPES)
      newslettersMade.set(shape, await newsletter(writer, publicArticles, introduction));

    // Thousands of enquiries of the longest message, from many addresses and from two that
    // privacy previews and erases; an enquiry with a thousand notes of the longest note.
    const message = fill("Harmonic distortion at the point of common coupling, measured. ", 5000);
    const enquiries = (count: number, email: string) =>
      queryRows(
        db,
        sql`insert into contact_submissions (first_name, last_name, email, company, service, message, created_at, status)
            select 'Asha ' || i, 'Patel', ${email}, 'Kutch Solar ' || i, 'grid-integration', ${message},
              ${now.toISOString()}::timestamptz - (i || ' minutes')::interval,
              (array['new', 'contacted', 'qualified', 'won', 'lost'])[1 + i % 5]
            from generate_series(1, ${count}::int) as i`,
      );
    await queryRows(
      db,
      sql`insert into contact_submissions (first_name, last_name, email, company, service, message, created_at, status)
          select 'Asha ' || i, 'Patel', 'visitor.' || i || '@example.com', 'Kutch Solar ' || i, 'grid-integration',
            ${message}, ${now.toISOString()}::timestamptz - (i || ' minutes')::interval,
            (array['new', 'contacted', 'qualified', 'won', 'lost'])[1 + i % 5]
          from generate_series(1, ${ENQUIRIES}::int) as i`,
    );
    const previewAddress = "many.enquiries@example.com";
    const eraseAddress = "erase.me@example.com";
    await enquiries(500, previewAddress);
    await enquiries(500, eraseAddress);
    const enquiryWithNotes = await enquiry();
    await queryRows(
      db,
      sql`insert into enquiry_notes (submission_id, author_label, body, created_at)
          select ${enquiryWithNotes}, 'Fixture Writer', ${fill("Called back about the study. ", NOTE_MAX)},
            ${now.toISOString()}::timestamptz + (i || ' seconds')::interval
          from generate_series(1, 1000) as i`,
    );
    await queryRows(
      db,
      sql`insert into newsletter_subscribers (email, status, confirmed_at, consent_page, consent_text)
          select ${fill("a", 200)} || '.' || i || '@example.com', 'confirmed', ${now.toISOString()}::timestamptz,
            '/blog/arc-flash', 'I agree to receive the newsletter.'
          from generate_series(1, ${SUBSCRIBERS}::int) as i`,
    );
    for (const address of [previewAddress, eraseAddress])
      await db.insert(newsletterSubscribers).values({ email: address, status: "confirmed", confirmedAt: now });

    // Raw page views of today and yesterday, of thousands of pages, sources and campaigns: what
    // housekeeping has not rolled up yet, which every report reads.
    const today = indiaDay(now);
    for (const day of [addIndiaDays(today, -1), today])
      await queryRows(
        db,
        sql`insert into page_views (at, path, referrer_host, utm_source, utm_campaign, device, visitor_hash, views)
            select ${startOfIndiaDay(day).toISOString()}::timestamptz + (i * 2000) * interval '1 millisecond',
              '/blog/page-' || (i % 5000), 'site-' || (i % 3000) || '.example', 'source-' || (i % 2000),
              'campaign-' || (i % 2000), (array['desktop', 'mobile', 'tablet'])[1 + i % 3], 'visitor-' || i, 1
            from generate_series(0, ${VIEWS_A_DAY - 1}::int) as i`,
      );
    await queryRows(db, sql`analyze page_views`);

    await queryRows(
      db,
      sql`insert into audit_events (at, actor_id, actor_label, action, target_type, target_id, target_label, client_address, details)
          select ${now.toISOString()}::timestamptz - (i || ' seconds')::interval, ${writer.staffId}, 'Fixture Writer',
            'enquiries-exported', 'export', null, null, '203.0.113.' || (i % 250),
            jsonb_build_object('rows', i, 'note', ${fill("x", 500)}::text)
          from generate_series(1, ${AUDIT_EVENTS}::int) as i`,
    );

    fixtures = {
      lightArticle: (await article("A short body.")).id,
      compare,
      manyRevisions,
      newsletters: newslettersMade,
      publicArticles,
      enquiryWithNotes,
      previewAddress,
      eraseAddress,
    };

    // Every page's modules loaded once, so that no probe measures a first import.
    const warm = await staffWithSession(t, { name: "Warm Up", role: "admin" });
    for (const url of ["/admin/account", "/blog"]) await t.send({ method: "GET", url, cookie: warm.cookie });
    await t.send({ method: "POST", url: adminHref("markdownPreview"), cookie: warm.cookie, payload: { body: "# A" } });
  }, 300_000);
  afterAll(async () => {
    await t.close();
    await peer.stop();
  });

  // Items a probe makes for itself, before it is measured.

  async function article(body: string, state: "draft" | "published" = "draft"): Promise<StoredArticle> {
    const slug = unique("article");
    const document = articleDocument({
      slug,
      title: "A pathological body",
      excerpt: "What the kit sends.",
      imageAlt: "A drawing",
      body,
    });
    const made = await addArticle(
      t.database.db,
      document,
      state === "draft" ? { state } : { state, at: new Date(t.clock.now.getTime() - 60_000) },
    );
    return { ...made, slug };
  }

  const projectDocument = (description: string): ProjectDocument => ({
    slug: unique("project"),
    title: "A pathological description",
    description,
    category: "Utilities",
    imageUrl: "/images/projects/wind-solar-hybrid-rajasthan.svg",
    year: "2025",
    capacity: null,
    timeline: null,
  });

  async function project(description: string): Promise<{ id: string; revisionId: number }> {
    const [row] = await t.database.db.insert(projects).values({}).returning({ id: projects.id });
    const saved = await appendRevision(t.database.db, {
      kind: "project",
      itemId: row!.id,
      document: projectDocument(description),
      source: "studio",
      author: { id: null, label: "Fixture Writer" },
    });
    if (saved.outcome !== "saved") throw new Error(`project: ${saved.outcome}`);
    return { id: row!.id, revisionId: saved.revision.id };
  }

  /** An article (or a project) of two revisions: `first`, then `second` as its head. */
  async function twoRevisions(kind: "article" | "project", first: string, second: string, title = "Compared") {
    const { id } = kind === "article" ? await article(first) : await project(first);
    const saved =
      kind === "article"
        ? await appendRevision(t.database.db, {
            kind,
            itemId: id,
            document: articleDocument({ slug: unique("compared"), title, body: second }),
            source: "studio",
            author: { id: null, label: "Fixture Writer" },
          })
        : await appendRevision(t.database.db, {
            kind,
            itemId: id,
            document: { ...projectDocument(second), title },
            source: "studio",
            author: { id: null, label: "Fixture Writer" },
          });
    if (saved.outcome !== "saved") throw new Error(`second revision: ${saved.outcome}`);
    return id;
  }

  async function newsletter(author: StaffWithSession, articleIds: string[], introduction: string): Promise<string> {
    const [row] = await t.database.db
      .insert(newsletters)
      .values({
        subject: "Pathological",
        introduction,
        articleIds,
        campaign: unique("campaign"),
        createdBy: author.staffId,
      })
      .returning({ id: newsletters.id });
    return row!.id;
  }

  async function enquiry(): Promise<string> {
    const [row] = await t.database.db
      .insert(contactSubmissions)
      .values({ firstName: "Asha", lastName: "Patel", email: "asha@example.com", message: "A grid study, please." })
      .returning({ id: contactSubmissions.id });
    return row!.id;
  }

  async function subscriber(status: "confirmed" | "bouncing" = "confirmed"): Promise<string> {
    const [row] = await t.database.db
      .insert(newsletterSubscribers)
      .values({ email: `${unique("reader")}@example.com`, status })
      .returning({ id: newsletterSubscribers.id });
    return row!.id;
  }

  async function passkey(staffId: string): Promise<string> {
    const id = unique("passkey");
    await t.database.db.insert(passkeys).values({
      id,
      staffId,
      publicKey: Buffer.from("not a key"),
      deviceType: "singleDevice",
      label: "Chrome on Linux",
    });
    return id;
  }

  async function teamMember(author: StaffWithSession): Promise<{ id: string; revisionId: number }> {
    const [photo] = await t.database.db.select({ url: teamMembers.imageUrl }).from(teamMembers).limit(1);
    const response = await t.send({
      method: "POST",
      url: adminHref("teamMemberCreate"),
      cookie: author.cookie,
      headers: FORM,
      payload: new URLSearchParams({
        name: "Kiran Desai",
        title: "Engineer",
        expertise: "Protection",
        imageUrl: photo!.url!,
        visibility: "hidden",
      }).toString(),
    });
    const id = /\/admin\/team\/([0-9a-f-]{36})/.exec(String(response.headers.location))?.[1];
    if (!id) throw new Error(`team member: ${response.statusCode} ${response.body.slice(0, 300)}`);
    const [row] = await t.database.db
      .select({ head: teamMembers.headRevisionId })
      .from(teamMembers)
      .where(eq(teamMembers.id, id));
    return { id, revisionId: row!.head! };
  }

  /** A testimonial or a client logo added, not published, through its own form: its id. */
  async function orderedItem(author: StaffWithSession, kind: "testimonials" | "client-logos"): Promise<string> {
    const response = await t.send({
      method: "POST",
      url: adminHref(kind === "testimonials" ? "testimonialCreate" : "clientLogoCreate"),
      cookie: author.cookie,
      headers: FORM,
      payload: new URLSearchParams({ organisation: "Gujarat Energy Transmission", visibility: "hidden" }).toString(),
    });
    const id = new RegExp(`/admin/${kind}/([0-9a-f-]{36})`).exec(String(response.headers.location))?.[1];
    if (!id) throw new Error(`${kind}: ${response.statusCode} ${response.body.slice(0, 300)}`);
    return id;
  }

  async function picture(author: StaffWithSession): Promise<{ id: string }> {
    const bytes = await plainPicture("png", {
      width: 64,
      height: 48,
      colour: `#${(made += 1).toString(16).padStart(6, "0")}`,
    });
    const { payload, headers } = multipartBody({ name: "plain.png", bytes, contentType: "image/png" });
    const response = await t.send({
      method: "POST",
      url: adminHref("mediaUploadApi"),
      cookie: author.cookie,
      headers,
      payload,
    });
    if (response.statusCode >= 300) throw new Error(`picture: ${response.statusCode} ${response.body.slice(0, 300)}`);
    return { id: response.json<{ id: string }>().id };
  }

  // The defaults, on real items where the path names one.

  type Params = Record<string, string>;
  type Setup<Result> = (kit: Kit) => Promise<Result>;

  /** A GET's query made hostile (queryShapes), on the items `params` makes. */
  const testimonialsFields = Object.keys(TESTIMONIALS.fields);
  const clientLogosFields = Object.keys(CLIENT_LOGOS.fields);
  const queryProbe =
    (name: AdminRouteName, params?: Setup<Params>, done: readonly number[] = GET_DONE): Probe =>
    async (kit) =>
      queryShapes(hrefOf(name, await params?.(kit)), kit.admin.cookie, done);

  /**
   * A post at its body limit (formShapes). `fresh` makes its items again for each shape, for a
   * route that acts whatever it is sent (a removal, a sign-out); `session` sends from another.
   */
  const formProbe =
    (
      name: AdminRouteName,
      fields: string[],
      options: {
        params?: Setup<Params>;
        session?: Setup<StaffWithSession>;
        extra?: (params: Params) => Record<string, string>;
        fresh?: boolean;
        done?: readonly number[];
      } = {},
    ): Probe =>
    async (kit) => {
      const shapes: Shape[] = [];
      let params: Params = {};
      let person = kit.admin;
      for (let index = 0; index < 4; index += 1) {
        if (index === 0 || options.fresh) {
          params = (await options.params?.(kit)) ?? {};
          person = (await options.session?.(kit)) ?? kit.admin;
        }
        const all = formShapes(
          hrefOf(name, params),
          person.cookie,
          limitOf(t, name),
          fields,
          options.done,
          options.extra?.(params),
        );
        shapes.push(all[index]!);
      }
      return shapes;
    };

  /** A JSON post at its body limit (jsonShapes), its main field `field`. */
  const jsonProbe =
    (name: AdminRouteName, field: string, params?: Setup<Params>, done: readonly number[] = JSON_DONE): Probe =>
    async (kit) =>
      jsonShapes(hrefOf(name, await params?.(kit)), kit.admin.cookie, limitOf(t, name), field, done);

  /** Several probes' shapes, one after the other. */
  const all =
    (...probes: Probe[]): Probe =>
    async (kit) =>
      (await Promise.all(probes.map((probe) => probe(kit)))).flat();

  const get = (url: string, cookie: string): Sent => ({
    method: "GET",
    url,
    cookie,
  });

  /** Shapes of GETs, one per url. */
  const pages = (cookie: string, urls: [string, string][], done: readonly number[] = [200]): Shape[] =>
    urls.map(([what, url]) => ({ what, send: get(url, cookie), expect: done }));

  const postForm = (url: string, cookie: string, fields: Record<string, string | string[]>): Sent => {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(fields))
      for (const one of Array.isArray(value) ? value : [value]) form.append(key, one);
    return { method: "POST", url, cookie, headers: FORM, payload: form.toString() };
  };

  /** The editor's fields of a complete article with this body. */
  const articleForm = (body: string, slug = "") => ({
    title: "A pathological body",
    slug,
    excerpt: "What the kit sends.",
    category: "Protection",
    imageUrl: "/images/articles/arc-flash-studies-ieee-1584-2018.svg",
    imageAlt: "A drawing",
    publishedAt: "",
    author: "",
    body,
  });

  const projectForm = (description: string, slug = "") => ({
    title: "A pathological description",
    slug,
    description,
    category: "Utilities",
    imageUrl: "/images/projects/wind-solar-hybrid-rajasthan.svg",
    year: "2025",
    capacity: "",
    timeline: "",
  });

  const ARTICLE_FIELDS = [...Object.keys(articleForm("")), "baseRevisionId", "when"];
  const PROJECT_FIELDS = [...Object.keys(projectForm("")), "baseRevisionId", "when", "publishedAt"];

  /** A share or preview link's address in a page or a redirect. */
  const linkIn = (answer: LightMyRequestResponse | undefined) => {
    const found = /\/preview\/[A-Za-z0-9_-]{43}/.exec(
      `${String(answer?.headers.location ?? "")} ${answer?.body ?? ""}`,
    );
    if (!found) throw new Error(`no preview link in the answer (${answer?.statusCode})`);
    return found[0];
  };

  /** A body of the Markdown shape `shape` no other body of the run has (so nothing rendered it before). */
  const freshBody = (shape: string) => {
    const body = MARKDOWN_SHAPES.find(([name]) => name === shape)![1];
    return `${unique("fresh")}\n\n${body.slice(0, CONTENT_LIMITS.body - 40)}`;
  };

  /** The admin of the kit with many sessions (another device each) and passkeys. */
  async function crowd(admin: StaffWithSession, sessions: number, keys = 0) {
    await queryRows(
      t.database.db,
      sql`insert into staff_sessions (id_hash, staff_id, expires_at, method, device, last_seen_at)
          select md5(${unique("session")} || i), ${admin.staffId}, ${t.clock.now.toISOString()}::timestamptz + interval '6 days',
            'passkey', 'Firefox on Linux ' || i, ${t.clock.now.toISOString()}::timestamptz - (i || ' seconds')::interval
          from generate_series(1, ${sessions}::int) as i`,
    );
    for (let key = 0; key < keys; key += 1) await passkey(admin.staffId);
  }

  /** A PNG whose header says `width` × `height` (its data a single pixel's): refused from the header. */
  async function forgedPng(width: number, height: number): Promise<Buffer> {
    const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#15803d" } })
      .png()
      .toBuffer();
    const forged = Buffer.from(png);
    forged.writeUInt32BE(width, 16);
    forged.writeUInt32BE(height, 20);
    forged.writeUInt32BE(crc32(forged.subarray(12, 29)), 29);
    return forged;
  }

  /**
   * A real picture of about 20 MB that stays 20 MB kept (noise, which no compression makes smaller),
   * wide and low so that its widths are quick to make: 10,000 × 500 pixels, the longest 1:20.
   */
  async function noisePng(seed: number): Promise<Buffer> {
    const [width, height] = [10_000, 500];
    const raw = Buffer.alloc(width * height * 4);
    let state = seed;
    for (let at = 0; at < raw.length; at += 1) {
      state = (state * 1103515245 + 12345) >>> 0;
      raw[at] = state >>> 24;
    }
    return sharp(raw, { raw: { width, height, channels: 4 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
  }

  const upload = (name: AdminRouteName, cookie: string, fileName: string, bytes: Buffer): Sent => {
    const { payload, headers } = multipartBody({ name: fileName, bytes, contentType: "image/png" });
    return { method: "POST", url: hrefOf(name), cookie, headers, payload };
  };

  /** Uploads of extreme shapes, forged small, and a real picture of 20 MB. */
  async function uploadShapes(name: AdminRouteName, cookie: string, refused: number, kept: number): Promise<Shape[]> {
    const big = await noisePng((made += 1));
    if (big.length > MEDIA_LIMITS.bytes) throw new Error(`the noise is ${big.length} bytes`);
    return [
      {
        what: "a PNG of 1 × 40,000,000 pixels",
        send: upload(name, cookie, "line.png", await forgedPng(1, 40_000_000)),
        expect: [refused],
      },
      {
        what: "a PNG of 40,000,000 × 1 pixels",
        send: upload(name, cookie, "row.png", await forgedPng(40_000_000, 1)),
        expect: [refused],
      },
      {
        what: "a PNG of 500 × 40,000 pixels",
        send: upload(name, cookie, "strip.png", await forgedPng(500, 40_000)),
        expect: [refused],
      },
      {
        what: "a PNG of 50,000 × 50,000 pixels",
        send: upload(name, cookie, "bomb.png", pixelBombPng()),
        expect: [refused],
      },
      {
        what: `a real PNG of ${(big.length / 1024 / 1024).toFixed(1)} MB (10,000 × 500 pixels of noise)`,
        send: upload(name, cookie, "noise.png", big),
        expect: [kept],
      },
      {
        what: "a form at the site's body limit, no upload",
        send: { method: "POST", url: hrefOf(name), cookie, headers: FORM, payload: `f=${fill("a", site(t) - 2)}` },
        expect: [415],
      },
    ];
  }

  // What each route is sent. A new route of the table fails the typecheck here until it has a
  // probe: the defaults above, or shapes of its own where it does real work with what is sent.

  const headOf = async (kind: "article" | "project", id: string) => {
    const table = kind === "article" ? blogPosts : projects;
    const [row] = await t.database.db.select({ head: table.headRevisionId }).from(table).where(eq(table.id, id));
    return String(row!.head);
  };
  const aMember = (kit: Kit) => staffWithSession(kit.t, { name: "Probe Member", role: "staff" });
  const today = () => indiaDay(t.clock.now);
  const reportRange = () => ({ from: addIndiaDays(today(), -(MAX_REPORT_DAYS - 1)), to: today() });

  /** The studio's probes of a kind: the same routes for articles and projects, each with its text. */
  function studioProbes(kind: "article" | "project") {
    const isArticle = kind === "article";
    const shapes = isArticle ? MARKDOWN_SHAPES : DESCRIPTION_SHAPES;
    const textField = isArticle ? "body" : "description";
    const form = (text: string, slug = "") => (isArticle ? articleForm(text, slug) : projectForm(text, slug));
    const fields = isArticle ? ARTICLE_FIELDS : PROJECT_FIELDS;
    const fresh = async () => (isArticle ? (await article("One.")).id : (await project("One.")).id);
    const ok = (text: string) => (isArticle ? accepted(text) : true);
    /**
     * An item of each text stored (as a content file or an older revision may hold one: the
     * studio refuses some of these today, and their pages must still open).
     */
    const items = async () => {
      const made: [string, { id: string }][] = [];
      for (const [shape, text] of isArticle ? toRender(shapes.filter(([name]) => name !== ONCE)) : shapes)
        made.push([shape, isArticle ? await article(text) : await project(text)]);
      return made;
    };
    const itemOf = async (shape: string) => {
      const text = shapes.find(([name]) => name === shape)![1];
      return isArticle ? article(text) : project(text);
    };
    const route = <Name extends string>(suffix: Name) => `${kind}${suffix}` as AdminRouteName;
    const publicPath = (slug: string) => (isArticle ? `/blog/${slug}` : `/projects/${slug}`);
    // One text over the budget to render, for the routes that show a text once (not every shape).
    const heavy = isArticle ? RENDER_HEAVY : "a table of 50 columns";
    const light = async () => (isArticle ? fixtures.lightArticle : (await project("A short description.")).id);

    return {
      list: all(queryProbe(route("s")), async (kit) =>
        pages(kit.admin.cookie, [["a one-letter search of every status", `${hrefOf(route("s"))}?q=a&status=all`]]),
      ),
      new: queryProbe(route("New")),
      // The draft's card reads its head revision's title and byline, never its body.
      card: queryProbe(route("Card"), async () => ({ id: await light() })),
      create: all(formProbe(route("Create"), fields), async (kit) =>
        shapes.map(([shape, text]) => ({
          what: `a ${textField} of ${shape}`,
          send: postForm(hrefOf(route("Create")), kit.admin.cookie, form(text)),
          expect: [ok(text) ? 303 : 422],
        })),
      ),
      item: all(
        queryProbe(route(""), async () => ({ id: await light() })),
        async (kit) =>
          (await items()).map(([shape, stored]) => ({
            what: `the editor of a stored ${textField} of ${shape}`,
            send: get(hrefOf(route(""), { id: stored.id }), kit.admin.cookie),
            expect: [200],
          })),
      ),
      save: all(formProbe(route("Save"), fields, { params: async () => ({ id: await fresh() }) }), async (kit) => {
        const saves: Shape[] = [];
        for (const [shape, text] of shapes) {
          const itemId = await fresh();
          saves.push({
            what: `a ${textField} of ${shape}`,
            send: postForm(hrefOf(route("Save"), { id: itemId }), kit.admin.cookie, {
              ...form(text),
              baseRevisionId: await headOf(kind, itemId),
            }),
            expect: [ok(text) ? 303 : 422],
          });
        }
        return saves;
      }),
      autosave: all(
        jsonProbe(route("Autosave"), textField, async () => ({ id: await fresh() })),
        async (kit) => {
          const saves: Shape[] = [];
          for (const [shape, text] of shapes) {
            const itemId = await fresh();
            saves.push({
              what: `a ${textField} of ${shape}`,
              send: {
                method: "POST",
                url: hrefOf(route("Autosave"), { id: itemId }),
                cookie: kit.admin.cookie,
                payload: { ...form(text), baseRevisionId: await headOf(kind, itemId) },
              },
              expect: [ok(text) ? 200 : 422],
            });
          }
          return saves;
        },
      ),
      presence: jsonProbe(route("Presence"), "leaving", async () => ({ id: await fresh() }), [200, 400]),
      publish: all(
        formProbe(route("Publish"), fields, { params: async () => ({ id: await fresh() }) }),
        async (kit) => {
          const publishes: Shape[] = [];
          for (const [shape, text] of shapes) {
            const itemId = await fresh();
            const slug = unique("published");
            publishes.push({
              what: `a ${textField} of ${shape}`,
              send: postForm(hrefOf(route("Publish"), { id: itemId }), kit.admin.cookie, {
                ...form(text, slug),
                baseRevisionId: await headOf(kind, itemId),
                when: "now",
              }),
              expect: [ok(text) ? 303 : 422],
            });
            if (shape === heavy)
              publishes.push({
                what: `its public page (${shape})`,
                send: get(publicPath(slug), kit.admin.cookie),
                expect: [200],
              });
          }
          return publishes;
        },
      ),
      action: (suffix: "Unpublish" | "Trash" | "Untrash") =>
        all(
          formProbe(route(suffix), ["baseRevisionId"], { params: async () => ({ id: await fresh() }) }),
          async (kit) => {
            // The action itself on an item of the heaviest text, published (or in the trash).
            const itemId = isArticle
              ? (await article(freshBody(heavy), "published")).id
              : (await project(fill("Words of a description. ", PROJECT_LIMITS.description))).id;
            if (!isArticle) {
              const published = await t.send(
                postForm(hrefOf("projectPublish", { id: itemId }), kit.admin.cookie, {
                  ...projectForm(fill("Words of a description. ", PROJECT_LIMITS.description), unique("project")),
                  baseRevisionId: await headOf(kind, itemId),
                  when: "now",
                }),
              );
              if (published.statusCode !== 303) throw new Error(`publish: ${published.statusCode}`);
            }
            if (suffix === "Untrash") {
              const trashed = await t.send(
                postForm(hrefOf(route("Trash"), { id: itemId }), kit.admin.cookie, {
                  baseRevisionId: await headOf(kind, itemId),
                }),
              );
              if (trashed.statusCode !== 303) throw new Error(`trash: ${trashed.statusCode}`);
            }
            return [
              {
                what: `${suffix.toLowerCase()} an item of ${heavy}`,
                send: postForm(hrefOf(route(suffix), { id: itemId }), kit.admin.cookie, {
                  baseRevisionId: await headOf(kind, itemId),
                }),
                expect: [303],
              },
            ];
          },
        ),
      previewLink: all(
        formProbe(route("PreviewLink"), ["x"], { params: async () => ({ id: await fresh() }), done: [303] }),
        async (kit) => {
          const itemId = isArticle ? (await article(freshBody(heavy))).id : (await project(fill("Words. ", 2000))).id;
          return [
            {
              what: `a preview link of ${heavy}`,
              send: postForm(hrefOf(route("PreviewLink"), { id: itemId }), kit.admin.cookie, {}),
              expect: [303],
            },
            {
              what: `its preview page (${heavy})`,
              send: (before) => get(linkIn(before.at(-1)), kit.admin.cookie),
              expect: [200],
            },
          ];
        },
      ),
      shareLink: all(
        // Each form with a key of its own (decision 058): made (303), or refused at its key (400).
        formProbe(route("ShareLink"), ["requestKey"], {
          params: async () => ({ id: await fresh() }),
          extra: () => ({ requestKey: randomUUID() }),
          done: [303, 400],
        }),
        async (kit) => {
          // A share link asked for on the heaviest text, the editor that shows it, then its page;
          // the other texts' pages through links made beforehand (each asked for would render its
          // editor again).
          const heldBy = (answer: LightMyRequestResponse | undefined) =>
            `${kit.admin.cookie}; ${cookieFrom(answer?.headers["set-cookie"])}`;
          const shapes: Shape[] = [
            {
              what: `a share link of a stored ${textField} of ${heavy}`,
              send: postForm(hrefOf(route("ShareLink"), { id: (await itemOf(heavy)).id }), kit.admin.cookie, {
                requestKey: randomUUID(),
              }),
              expect: [303],
            },
            {
              what: `the editor showing it (${heavy})`,
              send: (before: LightMyRequestResponse[]) =>
                get(String(before.at(-1)?.headers.location).replace(/#.*$/, ""), heldBy(before.at(-1))),
              expect: [200],
            },
            {
              what: `its preview page (${heavy})`,
              send: (before: LightMyRequestResponse[]) => get(linkIn(before.at(-1)), kit.admin.cookie),
              expect: [200],
            },
          ];
          for (const [shape, stored] of await items()) {
            if (shape === heavy) continue;
            const link = await createContentLink(
              t.database.db,
              { kind: "share", item: { kind, id: stored.id }, staff: { id: kit.admin.staffId, name: "Probe Admin" } },
              t.clock.now,
            );
            shapes.push({
              what: `the preview page of a stored ${textField} of ${shape}`,
              send: get(link.path, kit.admin.cookie),
              expect: [200],
            });
          }
          return shapes;
        },
      ),
      shareLinkRevoke: formProbe(route("ShareLinkRevoke"), ["x"], {
        params: async (kit) => {
          const itemId = await fresh();
          const made = await t.send(
            postForm(hrefOf(route("ShareLink"), { id: itemId }), kit.admin.cookie, { requestKey: randomUUID() }),
          );
          const [link] = await t.database.db
            .select({ id: contentLinks.id })
            .from(contentLinks)
            .where(eq(isArticle ? contentLinks.articleId : contentLinks.projectId, itemId));
          if (made.statusCode !== 303 || !link) throw new Error(`share link: ${made.statusCode}`);
          return { id: itemId, linkId: link.id };
        },
        done: [303],
      }),
      history: all(
        queryProbe(route("History"), async () => ({ id: await light() })),
        async (kit) =>
          pages(
            kit.admin.cookie,
            isArticle
              ? [
                  [
                    "the history of an article of 5,001 revisions",
                    hrefOf("articleHistory", { id: fixtures.manyRevisions }),
                  ],
                ]
              : [["the history of a project", hrefOf("projectHistory", { id: (await itemOf(heavy)).id })]],
          ),
      ),
      compare: all(
        queryProbe(route("Compare"), async () => ({ id: await light() }), [200, 400]),
        async (kit) =>
          pages(
            kit.admin.cookie,
            isArticle
              ? [
                  [
                    "two revisions that differ on each of 10,000 lines",
                    hrefOf("articleCompare", { id: fixtures.compare.changedLines }),
                  ],
                  [
                    "two revisions of the same 50,000 lines",
                    hrefOf("articleCompare", { id: fixtures.compare.unchangedBody }),
                  ],
                  [
                    `two revisions of 50,000 lines, ${(DIFF_MAX_EDITS / 2 - 1).toLocaleString("en")} changed`,
                    hrefOf("articleCompare", { id: fixtures.compare.justUnderTheBound }),
                  ],
                  ["an article of 5,001 revisions", hrefOf("articleCompare", { id: fixtures.manyRevisions })],
                ]
              : [
                  [
                    "two revisions of a description of 1,000 lines, each changed",
                    hrefOf("projectCompare", {
                      id: await twoRevisions(
                        "project",
                        fill("a\n", PROJECT_LIMITS.description),
                        fill("b\n", PROJECT_LIMITS.description),
                      ),
                    }),
                  ],
                ],
          ),
      ),
      restore: all(
        formProbe(route("RevisionRestore"), ["baseRevisionId"], {
          params: async () => {
            const itemId = await fresh();
            return { id: itemId, revisionId: await headOf(kind, itemId) };
          },
        }),
        async (kit) => {
          // Restoring a revision of the heaviest text, and of texts the studio refuses today (a
          // revision from before its rules): each becomes the head again, as any revision does.
          const restores: Shape[] = [];
          for (const [shape, text] of shapes.filter(([name]) =>
            [heavy, '"#" lines', "quotes 3,000 deep"].includes(name),
          )) {
            const made = isArticle ? await article(text) : await project(text);
            const saved = await t.send(
              postForm(hrefOf(route("Save"), { id: made.id }), kit.admin.cookie, {
                ...form("Later."),
                baseRevisionId: String(made.revisionId),
              }),
            );
            if (saved.statusCode !== 303) throw new Error(`save: ${saved.statusCode}`);
            restores.push({
              what: `restoring a revision of ${shape}`,
              send: postForm(
                hrefOf(route("RevisionRestore"), { id: made.id, revisionId: String(made.revisionId) }),
                kit.admin.cookie,
                { baseRevisionId: await headOf(kind, made.id) },
              ),
              // A revision holding what the studio refuses today is restored all the same.
              expect: [303],
            });
          }
          return restores;
        },
      ),
    };
  }

  const articleProbes = studioProbes("article");
  const projectProbes = studioProbes("project");

  /** A picture's id, with an article of a heavy body no page has rendered yet, published, naming nothing. */
  const pictureBesideAFreshBody = async (kit: Kit) => {
    await article(freshBody("a table of 50 columns"), "published");
    return { id: (await picture(kit.admin)).id };
  };

  const probes = {
    // The door. Its public routes are sent the same, with a session: they answer it as they would.
    signIn: queryProbe("signIn", undefined, [303]),
    signInOptions: jsonProbe("signInOptions", "x", undefined, [200]),
    signInVerify: all(jsonProbe("signInVerify", "response", undefined, [400, 401]), async () => {
      // A real passkey's answer made as large as the limit allows: its client data nested deep, and
      // its authenticator data given extensions of CBOR arrays nested 12,000 deep.
      const member = await joinByInvitationFor("signInVerify");
      const options = await t.send({ method: "POST", url: hrefOf("signInOptions"), payload: {} });
      const answer = member.authenticator.authenticate(options.json());
      const padded = {
        ...answer,
        response: {
          ...answer.response,
          // Its client data with arrays nested 12,000 deep in a field of its own.
          clientDataJSON: Buffer.from(
            `${Buffer.from(answer.response.clientDataJSON, "base64url").toString().replace(/}$/, "")},"pad":${"[".repeat(12_000)}${"]".repeat(12_000)}}`,
          ).toString("base64url"),
          authenticatorData: Buffer.concat([
            Buffer.from(answer.response.authenticatorData, "base64url").subarray(0, 32),
            Buffer.from([0x85, 0, 0, 0, 9]),
            Buffer.alloc(12_000, 0x81),
            Buffer.from([0]),
          ]).toString("base64url"),
        },
      };
      return [
        {
          what: "a passkey's answer with nested client data and extensions",
          send: { method: "POST", url: hrefOf("signInVerify"), payload: { response: padded } },
          expect: [401],
        },
      ];
    }),
    signInEmail: formProbe("signInEmail", ["email", "next"], { done: [200, 400] }),
    invitation: queryProbe(
      "invitation",
      async () => ({
        token: (
          await inviteStaff(
            t.database.db,
            { email: `${unique("invited")}@example.com`, name: "Invited", role: "staff" },
            t.clock.now,
          )
        ).token,
      }),
      [200],
    ),
    signInLink: queryProbe("signInLink", async (kit) => ({ token: await signInToken(kit) }), [200]),
    signInLinkUse: formProbe("signInLinkUse", ["next"], {
      params: async (kit) => ({ token: await signInToken(kit) }),
      fresh: true,
      done: [303],
    }),
    registrationOptions: jsonProbe("registrationOptions", "invitation", undefined, [200, 410]),
    registration: all(jsonProbe("registration", "response", undefined, [400]), async (kit) => {
      // A real ceremony's answer whose attestation is CBOR nested as deep as the limit allows.
      const options = await t.send({
        method: "POST",
        url: hrefOf("registrationOptions"),
        cookie: kit.admin.cookie,
        payload: {},
      });
      const authenticator = new SoftAuthenticator({ origin: t.origin, rpId: new URL(t.origin).hostname });
      const answer = authenticator.register(options.json());
      const nested = Buffer.concat([Buffer.alloc(Math.floor((site(t) - 2000) * 0.74), 0x81), Buffer.from([0])]);
      return [
        {
          what: `an attestation of CBOR arrays nested ${nested.length.toLocaleString("en")} deep`,
          send: {
            method: "POST",
            url: hrefOf("registration"),
            cookie: kit.admin.cookie,
            payload: {
              response: {
                ...answer,
                response: { ...answer.response, attestationObject: nested.toString("base64url") },
              },
            },
          },
          expect: [400],
        },
      ];
    }),
    signOut: formProbe("signOut", ["next"], {
      session: (kit) => newSessionFor(t, kit.admin),
      fresh: true,
      done: [303],
    }),

    // Your account: a person with a thousand sessions and fifty passkeys.
    account: all(async (kit) => {
      await crowd(kit.admin, 1_000, 50);
      return [];
    }, queryProbe("account")),
    passkeyRemove: formProbe("passkeyRemove", ["x"], {
      params: async (kit) => {
        await crowd(kit.admin, 0, 2);
        return { id: await passkey(kit.admin.staffId) };
      },
      fresh: true,
      done: [303],
    }),
    endOtherSessions: formProbe("endOtherSessions", ["x"], {
      params: async (kit) => {
        await crowd(kit.admin, 1_000);
        return {};
      },
      fresh: true,
      done: [303],
    }),

    // The inbox: thousands of enquiries of the longest message.
    inbox: all(queryProbe("inbox"), async (kit) => inboxPages("inbox", kit)),
    // The inbox's old address: a redirect, with its query.
    enquiryList: queryProbe("enquiryList", undefined, [303]),
    inboxExport: all(queryProbe("inboxExport"), async (kit) =>
      pages(kit.admin.cookie, [
        [`every enquiry (${(ENQUIRIES + 1_000).toLocaleString("en")}) as CSV`, `${hrefOf("inboxExport")}?status=all`],
      ]),
    ),
    enquiry: all(
      queryProbe("enquiry", async () => ({ id: await enquiry() })),
      async (kit) =>
        pages(kit.admin.cookie, [
          ["an enquiry with 1,000 notes of 5,000 characters", hrefOf("enquiry", { id: fixtures.enquiryWithNotes })],
        ]),
    ),
    enquiryUpdate: formProbe("enquiryUpdate", ["version", "status", "owner"], {
      params: async () => ({ id: await enquiry() }),
    }),
    enquiryNote: all(
      formProbe("enquiryNote", ["note"], { params: async () => ({ id: await enquiry() }) }),
      async (kit) => [
        {
          what: `a note of ${NOTE_MAX} characters on an enquiry of 1,000 notes`,
          send: postForm(hrefOf("enquiryNote", { id: fixtures.enquiryWithNotes }), kit.admin.cookie, {
            note: fill("Called. ", NOTE_MAX),
          }),
          expect: [303],
        },
      ],
    ),
    enquiryReplied: formProbe("enquiryReplied", ["version"], { params: async () => ({ id: await enquiry() }) }),
    enquiryNotSpam: formProbe("enquiryNotSpam", ["version"], { params: async () => ({ id: await enquiry() }) }),

    // Subscribers: thousands.
    subscribers: all(queryProbe("subscribers"), async (kit) =>
      pages(kit.admin.cookie, [
        ["every confirmed subscriber, page 1", `${hrefOf("subscribers")}?state=confirmed`],
        ["a one-letter search", `${hrefOf("subscribers")}?q=a`],
      ]),
    ),
    subscribersExport: all(queryProbe("subscribersExport"), async (kit) =>
      pages(kit.admin.cookie, [
        [`every subscriber (${SUBSCRIBERS.toLocaleString("en")}) as CSV`, hrefOf("subscribersExport")],
      ]),
    ),
    subscriberRemove: formProbe("subscriberRemove", ["x"], {
      params: async () => ({ id: await subscriber() }),
      fresh: true,
      done: [303],
    }),
    subscriberLift: formProbe("subscriberLift", ["x"], {
      params: async () => ({ id: await subscriber("bouncing") }),
      fresh: true,
      done: [303],
    }),

    // Analytics: the longest report, over the raw views of today and yesterday.
    analytics: all(queryProbe("analytics"), async (kit) => {
      const { from, to } = reportRange();
      return pages(kit.admin.cookie, [
        [`a report of ${MAX_REPORT_DAYS} days`, `${hrefOf("analytics")}?period=custom&from=${from}&to=${to}`],
      ]);
    }),
    analyticsReport: all(queryProbe("analyticsReport"), async (kit) => {
      const { from, to } = reportRange();
      return pages(kit.admin.cookie, [
        [`a report of ${MAX_REPORT_DAYS} days`, `${hrefOf("analyticsReport")}?from=${from}&to=${to}`],
      ]);
    }),
    analyticsExclusion: formProbe("analyticsExclusion", ["exclude"], { done: [400] }),

    // The studio: articles (Markdown bodies) and projects (a description of plain text).
    articles: articleProbes.list,
    articleNew: articleProbes.new,
    articleCreate: articleProbes.create,
    article: articleProbes.item,
    articleSave: articleProbes.save,
    articleAutosave: articleProbes.autosave,
    articlePresence: articleProbes.presence,
    markdownPreview: all(jsonProbe("markdownPreview", "body", undefined, [200, 422]), async (kit) =>
      toRender(MARKDOWN_SHAPES).map(([shape, body]) => ({
        what: `a body of ${shape}`,
        send: { method: "POST", url: hrefOf("markdownPreview"), cookie: kit.admin.cookie, payload: { body } },
        expect: [accepted(body) ? 200 : 422],
      })),
    ),
    articlePublish: articleProbes.publish,
    articleUnpublish: articleProbes.action("Unpublish"),
    articleTrash: articleProbes.action("Trash"),
    articleUntrash: articleProbes.action("Untrash"),
    articlePreviewLink: articleProbes.previewLink,
    articleCard: articleProbes.card,
    articleShareLink: articleProbes.shareLink,
    articleShareLinkRevoke: articleProbes.shareLinkRevoke,
    articleHistory: articleProbes.history,
    articleCompare: articleProbes.compare,
    articleRevisionRestore: articleProbes.restore,

    // The media library: where each picture is used is read from every article's rendered body.
    media: all(queryProbe("media"), async (kit) => {
      await pictureBesideAFreshBody(kit);
      return pages(kit.admin.cookie, [["the library beside a body no page has rendered", hrefOf("media")]]);
    }),
    mediaUpload: async (kit) => uploadShapes("mediaUpload", kit.admin.cookie, 422, 303),
    mediaUploadApi: async (kit) => uploadShapes("mediaUploadApi", kit.admin.cookie, 422, 201),
    // The chooser's list: a search of 48 at a time, refused past 100 characters or page 999.
    mediaChoicesApi: queryProbe("mediaChoicesApi"),
    mediaItem: all(
      queryProbe("mediaItem", async (kit) => ({ id: (await picture(kit.admin)).id })),
      async (kit) =>
        pages(kit.admin.cookie, [
          ["a picture beside a body no page has rendered", hrefOf("mediaItem", await pictureBesideAFreshBody(kit))],
        ]),
    ),
    mediaSave: all(
      formProbe("mediaSave", ["alt", "decorative"], { params: async (kit) => picture(kit.admin) }),
      async (kit) => {
        const { id } = await pictureBesideAFreshBody(kit);
        return [
          {
            what: "alt text of 100 KB",
            send: postForm(hrefOf("mediaSave", { id }), kit.admin.cookie, { alt: fill("a", 100_000) }),
            expect: [413],
          },
          {
            what: "alt text at the body limit",
            send: postForm(hrefOf("mediaSave", { id }), kit.admin.cookie, { alt: fill("a", site(t) - 10) }),
            expect: [422],
          },
          {
            what: "alt text, beside a body no page has rendered",
            send: postForm(hrefOf("mediaSave", { id }), kit.admin.cookie, { alt: "A substation" }),
            expect: [303],
          },
        ];
      },
    ),
    mediaAltApi: all(
      jsonProbe("mediaAltApi", "alt", async (kit) => picture(kit.admin), [400, 422]),
      async (kit) => {
        const { id } = await pictureBesideAFreshBody(kit);
        const url = hrefOf("mediaAltApi", { id });
        return [
          {
            what: "alt text of 100 KB",
            send: { method: "POST", url, cookie: kit.admin.cookie, payload: { alt: fill("a", 100_000) } },
            expect: [413],
          },
          {
            what: "alt text at the body limit",
            send: { method: "POST", url, cookie: kit.admin.cookie, payload: { alt: fill("a", site(t) - 20) } },
            expect: [422],
          },
          {
            what: "alt text, beside a body no page has rendered",
            send: { method: "POST", url, cookie: kit.admin.cookie, payload: { alt: "A substation" } },
            expect: [200],
          },
        ];
      },
    ),
    mediaDelete: all(
      formProbe("mediaDelete", ["x"], { params: async (kit) => picture(kit.admin), fresh: true, done: [303] }),
      async (kit) => [
        {
          what: "a picture beside a body no page has rendered",
          send: postForm(hrefOf("mediaDelete", await pictureBesideAFreshBody(kit)), kit.admin.cookie, {}),
          expect: [303],
        },
      ],
    ),

    projects: projectProbes.list,
    projectNew: projectProbes.new,
    projectCreate: projectProbes.create,
    project: projectProbes.item,
    projectSave: projectProbes.save,
    projectAutosave: projectProbes.autosave,
    projectPresence: projectProbes.presence,
    projectPublish: projectProbes.publish,
    projectUnpublish: projectProbes.action("Unpublish"),
    projectTrash: projectProbes.action("Trash"),
    projectUntrash: projectProbes.action("Untrash"),
    projectPreviewLink: projectProbes.previewLink,
    projectCard: projectProbes.card,
    projectShareLink: projectProbes.shareLink,
    projectShareLinkRevoke: projectProbes.shareLinkRevoke,
    projectHistory: projectProbes.history,
    projectCompare: projectProbes.compare,
    projectRevisionRestore: projectProbes.restore,

    // The team.
    team: queryProbe("team"),
    teamMemberNew: queryProbe("teamMemberNew"),
    teamMemberCreate: formProbe("teamMemberCreate", [
      "name",
      "title",
      "expertise",
      "imageUrl",
      "email",
      "linkedinUrl",
      "visibility",
    ]),
    teamMember: queryProbe("teamMember", async (kit) => ({ id: (await teamMember(kit.admin)).id })),
    teamMemberSave: formProbe(
      "teamMemberSave",
      ["name", "title", "expertise", "imageUrl", "email", "linkedinUrl", "baseRevisionId"],
      {
        params: async (kit) => ({ id: (await teamMember(kit.admin)).id }),
      },
    ),
    teamMemberShow: formProbe("teamMemberShow", ["baseRevisionId", "back"], {
      params: async (kit) => ({ id: (await teamMember(kit.admin)).id }),
    }),
    teamMemberHide: formProbe("teamMemberHide", ["baseRevisionId", "back"], {
      params: async (kit) => ({ id: (await teamMember(kit.admin)).id }),
    }),
    teamMemberTrash: formProbe("teamMemberTrash", ["baseRevisionId", "back"], {
      params: async (kit) => ({ id: (await teamMember(kit.admin)).id }),
    }),
    teamMemberUntrash: formProbe("teamMemberUntrash", ["baseRevisionId", "back"], {
      params: async (kit) => ({ id: (await teamMember(kit.admin)).id }),
    }),
    teamMemberMove: formProbe("teamMemberMove", ["direction"], {
      params: async (kit) => ({ id: (await teamMember(kit.admin)).id }),
    }),
    teamOrder: all(jsonProbe("teamOrder", "order", undefined, [400]), async (kit) => [
      {
        what: `an order of ${TEAM_ORDER_MAX} ids`,
        send: {
          method: "POST",
          url: hrefOf("teamOrder"),
          cookie: kit.admin.cookie,
          payload: {
            order: Array.from(
              { length: TEAM_ORDER_MAX },
              (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
            ),
          },
        },
        expect: [409],
      },
    ]),

    // Testimonials: the same ordered path, with their own fields.
    testimonials: queryProbe("testimonials"),
    testimonialNew: queryProbe("testimonialNew"),
    testimonialCreate: formProbe("testimonialCreate", [...testimonialsFields, "visibility"]),
    testimonial: queryProbe("testimonial", async (kit) => ({ id: await orderedItem(kit.admin, "testimonials") })),
    testimonialSave: formProbe("testimonialSave", [...testimonialsFields, "baseRevisionId"], {
      params: async (kit) => ({ id: await orderedItem(kit.admin, "testimonials") }),
    }),
    testimonialShow: formProbe("testimonialShow", ["baseRevisionId", "back"], {
      params: async (kit) => ({ id: await orderedItem(kit.admin, "testimonials") }),
    }),
    testimonialHide: formProbe("testimonialHide", ["baseRevisionId", "back"], {
      params: async (kit) => ({ id: await orderedItem(kit.admin, "testimonials") }),
    }),
    testimonialTrash: formProbe("testimonialTrash", ["baseRevisionId", "back"], {
      params: async (kit) => ({ id: await orderedItem(kit.admin, "testimonials") }),
    }),
    testimonialUntrash: formProbe("testimonialUntrash", ["baseRevisionId", "back"], {
      params: async (kit) => ({ id: await orderedItem(kit.admin, "testimonials") }),
    }),
    testimonialMove: formProbe("testimonialMove", ["direction"], {
      params: async (kit) => ({ id: await orderedItem(kit.admin, "testimonials") }),
    }),
    testimonialsOrder: jsonProbe("testimonialsOrder", "order", undefined, [400]),

    // Client logos: the same ordered path, with their own fields.
    "client-logos": queryProbe("client-logos"),
    clientLogoNew: queryProbe("clientLogoNew"),
    clientLogoCreate: formProbe("clientLogoCreate", [...clientLogosFields, "visibility"]),
    clientLogo: queryProbe("clientLogo", async (kit) => ({ id: await orderedItem(kit.admin, "client-logos") })),
    clientLogoSave: formProbe("clientLogoSave", [...clientLogosFields, "baseRevisionId"], {
      params: async (kit) => ({ id: await orderedItem(kit.admin, "client-logos") }),
    }),
    clientLogoShow: formProbe("clientLogoShow", ["baseRevisionId", "back"], {
      params: async (kit) => ({ id: await orderedItem(kit.admin, "client-logos") }),
    }),
    clientLogoHide: formProbe("clientLogoHide", ["baseRevisionId", "back"], {
      params: async (kit) => ({ id: await orderedItem(kit.admin, "client-logos") }),
    }),
    clientLogoTrash: formProbe("clientLogoTrash", ["baseRevisionId", "back"], {
      params: async (kit) => ({ id: await orderedItem(kit.admin, "client-logos") }),
    }),
    clientLogoUntrash: formProbe("clientLogoUntrash", ["baseRevisionId", "back"], {
      params: async (kit) => ({ id: await orderedItem(kit.admin, "client-logos") }),
    }),
    clientLogoMove: formProbe("clientLogoMove", ["direction"], {
      params: async (kit) => ({ id: await orderedItem(kit.admin, "client-logos") }),
    }),
    "client-logosOrder": jsonProbe("client-logosOrder", "order", undefined, [400]),

    // Staff, audit and privacy (admins).
    staff: queryProbe("staff"),
    staffInvite: formProbe("staffInvite", ["name", "email", "role"], { done: [200, 400] }),
    staffRole: formProbe("staffRole", ["role"], {
      params: async (kit) => ({ id: (await aMember(kit)).staffId }),
      done: [400],
    }),
    staffSignInLink: formProbe("staffSignInLink", ["x"], {
      params: async (kit) => ({ id: (await aMember(kit)).staffId }),
      done: [200],
    }),
    staffDisable: formProbe("staffDisable", ["x"], {
      params: async (kit) => ({ id: (await aMember(kit)).staffId }),
      fresh: true,
      done: [303],
    }),
    staffEnable: formProbe("staffEnable", ["x"], {
      params: async (kit) => ({ id: (await aMember(kit)).staffId }),
      fresh: true,
      done: [303],
    }),
    staffEndSessions: formProbe("staffEndSessions", ["x"], {
      params: async (kit) => {
        const member = await aMember(kit);
        await crowd(member, 1_000);
        return { id: member.staffId };
      },
      fresh: true,
      done: [303],
    }),
    staffCanPublish: formProbe("staffCanPublish", ["canPublish"], {
      params: async (kit) => ({ id: (await aMember(kit)).staffId }),
      done: [400],
    }),
    audit: all(queryProbe("audit"), async (kit) =>
      pages(kit.admin.cookie, [
        [
          `${AUDIT_EVENTS.toLocaleString("en")} events, the last page`,
          `${hrefOf("audit")}?page=${AUDIT_EVENTS / 50 + 1}`,
        ],
        ["one action over two years", `${hrefOf("audit")}?action=enquiries-exported&from=2024-11-23&to=2026-11-23`],
      ]),
    ),
    privacy: queryProbe("privacy"),
    privacyPreview: all(formProbe("privacyPreview", ["email", "confirm"], { done: [400] }), async (kit) => [
      {
        what: "an address of 500 enquiries",
        send: postForm(hrefOf("privacyPreview"), kit.admin.cookie, { email: fixtures.previewAddress }),
        expect: [200],
      },
    ]),
    privacyErase: all(formProbe("privacyErase", ["email", "confirm"], { done: [400] }), async (kit) => [
      {
        what: "erasing an address of 500 enquiries",
        send: postForm(hrefOf("privacyErase"), kit.admin.cookie, {
          email: fixtures.eraseAddress,
          confirm: fixtures.eraseAddress,
        }),
        expect: [200, 303],
      },
    ]),

    // Newsletters: an introduction of each shape at its limit, with the most articles.
    newsletters: queryProbe("newsletters"),
    newsletterNew: queryProbe("newsletterNew"),
    newsletterCreate: all(
      formProbe("newsletterCreate", ["subject", "introduction", "articleIds"], { done: [422] }),
      async (kit) =>
        INTRODUCTION_SHAPES.map(([shape, introduction]) => ({
          what: `an introduction of ${shape}`,
          send: postForm(hrefOf("newsletterCreate"), kit.admin.cookie, {
            subject: "Pathological",
            introduction,
            articleIds: fixtures.publicArticles,
          }),
          expect: [303],
        })),
    ),
    newsletter: all(
      queryProbe("newsletter", async () => ({ id: [...fixtures.newsletters.values()][0]! })),
      async (kit) =>
        [...fixtures.newsletters].map(([shape, id]) => ({
          what: `a newsletter of ${shape}`,
          send: get(hrefOf("newsletter", { id }), kit.admin.cookie),
          expect: [200],
        })),
    ),
    newsletterSave: all(
      formProbe("newsletterSave", ["subject", "introduction", "articleIds", "version"], {
        params: async (kit) => ({ id: await newsletter(kit.admin, [], "One.") }),
        done: [422],
      }),
      async (kit) => {
        const saves: Shape[] = [];
        for (const [shape, introduction] of INTRODUCTION_SHAPES) {
          const id = await newsletter(kit.admin, [], "One.");
          saves.push({
            what: `an introduction of ${shape}`,
            send: postForm(hrefOf("newsletterSave", { id }), kit.admin.cookie, {
              subject: "Pathological",
              introduction,
              articleIds: fixtures.publicArticles,
              version: "1",
            }),
            expect: [303],
          });
        }
        return saves;
      },
    ),
    newsletterPreview: all(
      queryProbe("newsletterPreview", async () => ({ id: [...fixtures.newsletters.values()][0]! }), [200]),
      async (kit) =>
        [...fixtures.newsletters].map(([shape, id]) => ({
          what: `the mail of ${shape}`,
          send: get(hrefOf("newsletterPreview", { id }), kit.admin.cookie),
          expect: [200],
        })),
    ),
    newsletterTest: all(
      formProbe("newsletterTest", ["x"], {
        params: async () => ({ id: fixtures.newsletters.get('"*a" runs')! }),
        done: [303],
      }),
      async () => [
        {
          what: "the test mails sent by the newsletter sender to an SMTP server",
          work: async () => {
            const before = peer.messages.length;
            const sender = new NewsletterSender({
              db: t.database.db,
              transport: createSmtpTransport(peer.url),
              from: "site@example.com",
              siteUrl: t.config.siteUrl,
              secret: "a-test-secret-of-enough-length",
              log: pino({ level: "silent" }),
              perMinute: 60,
            });
            try {
              await sender.sendDueBatch();
            } finally {
              await sender.stop();
            }
            return peer.messages.length > before;
          },
        },
      ],
    ),
    newsletterSendConfirm: queryProbe(
      "newsletterSendConfirm",
      async () => ({ id: fixtures.newsletters.get('"*a" runs')! }),
      [200],
    ),
    newsletterSend: all(
      formProbe("newsletterSend", ["version", "recipients"], {
        params: async (kit) => ({ id: await newsletter(kit.admin, fixtures.publicArticles, "One.") }),
        done: [400],
      }),
      async (kit) => {
        const id = await newsletter(
          kit.admin,
          fixtures.publicArticles,
          INTRODUCTION_SHAPES.find(([shape]) => shape === '"*a" runs')![1],
        );
        const [confirmed] = await queryRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from newsletter_subscribers where status = 'confirmed'`,
        );
        return [
          {
            what: `a send to ${confirmed!.n.toLocaleString("en")} subscribers`,
            send: postForm(hrefOf("newsletterSend", { id }), kit.admin.cookie, {
              version: "1",
              recipients: String(confirmed!.n),
            }),
            expect: [303],
          },
          { what: "its progress", send: get(hrefOf("newsletterProgress", { id }), kit.admin.cookie), expect: [200] },
        ];
      },
    ),
    // The progress of a newsletter sent to every subscriber (thousands of mails queued).
    newsletterProgress: queryProbe(
      "newsletterProgress",
      async (kit) => {
        const id = await newsletter(kit.admin, fixtures.publicArticles, "One.");
        const sent = await sendNewsletter(t.database.db, {
          newsletterId: id,
          expectedVersion: 1,
          actor: { id: kit.admin.staffId, label: "Probe Admin" },
          now: t.clock.now,
        });
        if (!sent.ok) throw new Error(`send: ${sent.reason}`);
        return { id };
      },
      [200],
    ),

    // Health: the page over an outbox of thousands of messages waiting and given up.
    health: all(queryProbe("health"), async (kit) => {
      await queryRows(
        t.database.db,
        sql`insert into mail_outbox (kind, recipient, status, attempts, last_error, created_at, next_attempt_at)
            select 'staff-sign-in-link', 'probe-health-' || g || '@example.com',
                   case when g % 2 = 0 then 'pending' else 'failed' end, 3,
                   'rejected by the SMTP server: 550 refused', now() - make_interval(mins => g), now() - make_interval(mins => g)
            from generate_series(1, 5000) g`,
      );
      onTestFinished(async () => {
        await queryRows(t.database.db, sql`delete from mail_outbox where recipient like 'probe-health-%'`);
      });
      return pages(kit.admin.cookie, [["5,000 messages waiting and given up", hrefOf("health")]]);
    }),
    // A backup asked for: the kit's app runs no backups (no schedule), so it answers 409 at once.
    healthBackup: formProbe("healthBackup", ["confirm"], { done: [409] }),
    // A backup's archive: digits that name none, and anything else.
    healthBackupDownload: queryProbe("healthBackupDownload", async () => ({ id: "999999999" }), [404]),

    // The site search's synonyms: a hostile form is refused by its schema (length, controls,
    // counts) before any query; each removal removes a group of its own.
    searchSynonyms: queryProbe("searchSynonyms"),
    searchSynonymAdd: formProbe("searchSynonymAdd", ["terms"], { done: [303, 400, 409] }),
    searchSynonymRemove: formProbe("searchSynonymRemove", ["x"], {
      params: async () => {
        const [group] = await t.database.db
          .insert(searchSynonyms)
          .values({ terms: ["probe one", "probe two"], createdByLabel: "probe" })
          .returning({ id: searchSynonyms.id });
        return { id: group!.id };
      },
      fresh: true,
      done: [303],
    }),
  } satisfies Record<AdminRouteName, Probe>;

  async function joinByInvitationFor(what: string) {
    return joinByInvitation(t, {
      email: `${unique(what.toLowerCase())}@example.com`,
      name: "Passkey Holder",
      role: "staff",
    });
  }

  async function signInToken(kit: Kit): Promise<string> {
    return createToken(t.database.db, (await aMember(kit)).staffId, "sign-in", t.clock.now);
  }

  async function inboxPages(name: "inbox", kit: Kit): Promise<Shape[]> {
    const url = hrefOf(name);
    return pages(kit.admin.cookie, [
      ["a one-letter search of every status", `${url}?status=all&q=a`],
      [
        "every filter at once",
        `${url}?status=all&service=grid-integration&from=2024-11-23&to=2026-11-23&q=harmonic&page=2`,
      ],
      ["the last page", `${url}?status=all&page=10000`],
    ]);
  }

  /** The articles and projects there are, by id. */
  const itemIds = async () => {
    const rows = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id from blog_posts union all select id from projects`,
    );
    return new Set(rows.map((row) => row.id));
  };

  /**
   * The articles and projects a test made, deleted after it: each probe sees the file's fixtures
   * and its own items alone (the media library reads every item's text on each of its pages).
   */
  async function deleteItemsMadeSince(before: Set<string>) {
    const made = [...(await itemIds())].filter((id) => !before.has(id));
    if (!made.length) return;
    await t.database.db.delete(blogPosts).where(inArray(blogPosts.id, made));
    await t.database.db.delete(projects).where(inArray(projects.id, made));
  }

  /** Each shape's stall: with EVENT_LOOP_REPORT=1 the longest are printed, for docs/testing.md. */
  const stalls: { what: string; stall: number }[] = [];
  afterAll(() => {
    if (process.env.EVENT_LOOP_REPORT !== "1") return;
    const longest = stalls.sort((a, b) => b.stall - a.stall).slice(0, 12);
    console.log(
      `The longest stalls on ${driver}:\n${longest.map((s) => `${s.stall.toFixed(0).padStart(6)} ms  ${s.what}`).join("\n")}`,
    );
  });

  it.each(names)(
    "%s",
    async (name) => {
      const before = await itemIds();
      onTestFinished(() => deleteItemsMadeSince(before));
      const admin = await staffWithSession(t, { name: "Probe Admin", role: "admin" });
      const shapes = await probes[name]({ t, admin, fixtures });
      expect(shapes.length).toBeGreaterThan(0);
      const answers: LightMyRequestResponse[] = [];
      for (const shape of shapes) {
        if ("work" in shape) {
          let done = false;
          const stall = await longestEventLoopStall(async () => {
            done = await shape.work();
          });
          stalls.push({ what: `${name}: ${shape.what}`, stall });
          expect.soft(done, shape.what).toBe(true);
          expect.soft(stall, `${shape.what}: the event loop held`).toBeLessThan(EVENT_LOOP_BUDGET_MS);
          continue;
        }
        expect(
          shape.expect.filter((status) => DOOR_REFUSALS.includes(status)),
          shape.what,
        ).toEqual([]);
        const sent = typeof shape.send === "function" ? shape.send(answers) : shape.send;
        let answer: LightMyRequestResponse | undefined;
        const stall = await longestEventLoopStall(async () => {
          answer = await t.send(sent);
        });
        stalls.push({ what: `${name}: ${shape.what}`, stall });
        answers.push(answer!);
        expect.soft(answer!.statusCode, `${shape.what}: ${answer!.body.slice(0, 300)}`).toBeOneOf([...shape.expect]);
        expect.soft(stall, `${shape.what}: the event loop held`).toBeLessThan(EVENT_LOOP_BUDGET_MS);
      }
    },
    120_000,
  );
});
