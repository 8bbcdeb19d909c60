import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import type { AdminPagePropsOf, AdminPageName, AdminServerEntry } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { type AdminTestApp, cookieFrom, type StaffWithSession } from "../../../../test/admin-fixtures.ts";
import { blogPosts, staff, teamMembers } from "../../db/schema.ts";

// What the studio's tests share. The pages are rendered by the real back-office entry; the tests
// read the props each page was given (the contract of src/shared/admin/pages.ts) from a JSON copy
// appended to the rendered body by `recordingEntry`, which each test file installs with
//   vi.mock("#web/admin/entry-server.tsx", async (importOriginal) =>
//     (await import("./studio-test-kit.ts")).recordingEntry(await importOriginal()));
// so a page that fails to render still fails the test.

const PROPS_MARK = '<script type="application/json" id="test-page-props">';

export function recordingEntry(real: AdminServerEntry): AdminServerEntry {
  return {
    renderAdminPage(props) {
      const rendered = real.renderAdminPage(props);
      const json = JSON.stringify(props).replace(/</g, "\\u003c");
      return { ...rendered, bodyHtml: `${rendered.bodyHtml}${PROPS_MARK}${json}</script>` };
    },
  };
}

/** The props of the page an answer rendered, which must be `page`. */
export function propsOf<Name extends AdminPageName>(
  response: LightMyRequestResponse,
  page: Name,
): AdminPagePropsOf<Name> {
  const start = response.body.lastIndexOf(PROPS_MARK);
  if (start < 0) throw new Error(`no page in the answer (${response.statusCode}): ${response.body.slice(0, 300)}`);
  const json = response.body.slice(start + PROPS_MARK.length, response.body.lastIndexOf("</script>"));
  const props = JSON.parse(json) as { page: string };
  if (props.page !== page) throw new Error(`expected the ${page} page, got ${props.page}: ${json.slice(0, 300)}`);
  return props as AdminPagePropsOf<Name>;
}

/** A cover image that is among the site's pictures. */
export const COVER = "/images/articles/arc-flash-studies-ieee-1584-2018.svg";

/** The editor's fields of a complete article (every checklist item met), with overrides. */
export function articleFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    title: "Arc flash studies under IEEE 1584-2018",
    slug: "",
    excerpt: "What changed in the 2018 edition and what it means for a plant's labels.",
    category: "Protection",
    imageUrl: COVER,
    imageAlt: "An arc flash boundary drawn around a switchboard",
    publishedAt: "",
    author: "",
    body: "## Why it matters\n\nThe 2018 edition changed the model.",
    ...overrides,
  };
}

/** A URL-encoded form post, as the pages send one without script. */
export function postForm(
  t: AdminTestApp,
  url: string,
  person: StaffWithSession,
  fields: Record<string, string | number>,
) {
  return t.send({
    method: "POST",
    url,
    cookie: person.cookie,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams(Object.entries(fields).map(([key, value]) => [key, String(value)])).toString(),
  });
}

/** A JSON post, as the editor's script sends one. */
export function postJson(t: AdminTestApp, url: string, person: StaffWithSession, body: unknown) {
  return t.send({ method: "POST", url, cookie: person.cookie, payload: body as Record<string, unknown> });
}

/**
 * Share preview as the editor's form sends it (decision 058): the editor's page for its form's
 * key, the post, and the page the post's 303 leads to, with the cookie the post set. `requestKey`
 * replaces the page's key (a replayed form); `get` is the page after the redirect.
 */
export async function sharePreview(
  t: AdminTestApp,
  kind: "article" | "project",
  id: string,
  person: StaffWithSession,
  requestKey?: string,
) {
  const page = kind === "article" ? "article-editor" : "project-editor";
  const key =
    requestKey ??
    propsOf(await t.send({ method: "GET", url: adminHref(kind, { id }), cookie: person.cookie }), page).editor
      .shareRequestKey;
  const post = await postForm(
    t,
    adminHref(kind === "article" ? "articleShareLink" : "projectShareLink", { id }),
    person,
    {
      requestKey: key,
    },
  );
  const setCookie = post.headers["set-cookie"];
  const shareCookie = setCookie ? cookieFrom(setCookie) : undefined;
  const cookie = shareCookie ? `${person.cookie}; ${shareCookie}` : person.cookie;
  const location = String(post.headers.location ?? "");
  const get = async (as: string = cookie) => {
    const answer = await t.send({ method: "GET", url: location.replace(/#.*$/, ""), cookie: as });
    return { answer, view: propsOf(answer, page).editor };
  };
  return { key, post, location, cookie, shareCookie, get };
}

/** "New article": the new article's id. */
export async function createArticle(t: AdminTestApp, person: StaffWithSession, overrides: Record<string, string> = {}) {
  const response = await postForm(t, adminHref("articleCreate"), person, articleFields(overrides));
  if (response.statusCode !== 303) throw new Error(`create: ${response.statusCode} ${response.body.slice(0, 500)}`);
  return /\/admin\/articles\/([0-9a-f-]{36})\?notice=article-created$/.exec(String(response.headers.location))![1]!;
}

/** The article's row. */
export async function articleRow(t: AdminTestApp, id: string) {
  const [row] = await t.database.db.select().from(blogPosts).where(eq(blogPosts.id, id));
  return row!;
}

/** The article's head revision id. */
export async function headOf(t: AdminTestApp, id: string): Promise<number> {
  return (await articleRow(t, id)).headRevisionId!;
}

/** A public team member (as an import makes one), for the Author field. */
export async function addTeamMember(t: AdminTestApp, slug: string, name: string) {
  await t.database.db
    .insert(teamMembers)
    .values({
      slug,
      name,
      title: "Engineer",
      expertise: "Protection",
      imageUrl: "/images/team/meera-iyer.svg",
      status: "published",
    })
    .onConflictDoNothing();
}

/** Lets a member of staff publish (or not), directly: the Staff page's own test posts the form. */
export async function setCanPublish(t: AdminTestApp, person: StaffWithSession, canPublish: boolean) {
  await t.database.db.update(staff).set({ canPublish }).where(eq(staff.id, person.staffId));
}

let people = 0;
/** An address no other test of the run uses. */
export const uniqueEmail = (name: string) => `${name}.studio.${(people += 1)}@example.com`;

export { HOSTILE_BODY } from "../../../../test/hostile-markdown.ts";

/** Whether HTML carries any of the hostile payloads' script vectors. */
export function hasScriptVector(html: string): boolean {
  return [/<script/i, /<img/i, /<iframe/i, /<svg/i, /\son\w+=/i, /javascript:/i, /href="data:/i, /style=/i].some(
    (pattern) => pattern.test(html),
  );
}
