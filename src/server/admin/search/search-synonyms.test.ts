import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminHref } from "#shared/admin/routes.ts";
import { MAX_SYNONYM_GROUPS } from "#shared/search.ts";
import { auditEvents, searchSynonyms } from "../../db/schema.ts";
import { type AdminTestApp, buildAdminTestApp, staffWithSession } from "../../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";

// The Search synonyms page (docs/decisions/054-site-search.md): admins add and remove groups,
// each audited, and the public search widens with them at once; every hostile post is refused
// with a clear 4xx and changes nothing.

describe.each(testDrivers)("search synonyms, on %s", (driver) => {
  let t: AdminTestApp;
  let admin: { cookie: string };
  let staffer: { cookie: string };
  const groups = async () => (await t.database.db.select({ n: count() }).from(searchSynonyms))[0]!.n;
  const post = (cookie: string, payload: string, headers: Record<string, string> = {}) =>
    t.send({
      method: "POST",
      url: adminHref("searchSynonymAdd"),
      cookie,
      payload,
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    });

  beforeAll(async () => {
    t = await buildAdminTestApp(driver, { content: true });
    admin = await staffWithSession(t, { name: "Asha Admin", role: "admin" });
    staffer = await staffWithSession(t, { name: "Sanjay Staff", role: "staff" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists the seeded groups to an admin", async () => {
    const page = await t.send({ method: "GET", url: adminHref("searchSynonyms"), cookie: admin.cookie });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("LVRT, low-voltage ride-through");
  });

  it("adds a group, audited, that widens the public search at once, and removes it", async () => {
    const before = await groups();
    const added = await post(
      admin.cookie,
      new URLSearchParams({ terms: "Kvetchwort,\n detuned reactor , KVETCHWORT" }).toString(),
    );
    expect(added.statusCode).toBe(303);
    expect(added.headers.location).toBe(adminHref("searchSynonyms", {}, { notice: "synonyms-added" }));
    const [group] = await t.database.db
      .select()
      .from(searchSynonyms)
      .where(eq(searchSynonyms.createdByLabel, "Asha Admin"));
    expect(group!.terms).toEqual(["Kvetchwort", "detuned reactor"]);
    expect(await groups()).toBe(before + 1);
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "search-synonyms-added"));
    expect(event).toMatchObject({ targetLabel: "Kvetchwort, detuned reactor" });

    const found = await t.app.inject({ method: "GET", url: "/search?q=kvetchwort" });
    expect(found.body).toContain("Also searched for: detuned reactor");

    const removed = await t.send({
      method: "POST",
      url: adminHref("searchSynonymRemove", { id: group!.id }),
      cookie: admin.cookie,
      payload: "",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(removed.statusCode).toBe(303);
    expect(await groups()).toBe(before);
    const again = await t.send({
      method: "POST",
      url: adminHref("searchSynonymRemove", { id: group!.id }),
      cookie: admin.cookie,
      payload: "",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain("There is no such synonym group.");
  });

  it("refuses another site, a post with no origin, staff who are not admins, a huge body and bad terms, changing nothing", async () => {
    const before = await groups();
    const good = new URLSearchParams({ terms: "alpha one, alpha two" }).toString();
    const refusals: [string, Promise<{ statusCode: number; body: string }>, number, string][] = [
      ["another site", post(admin.cookie, good, { origin: "https://evil.example" }), 403, "own pages only"],
      [
        "no origin",
        t.app.inject({
          method: "POST",
          url: adminHref("searchSynonymAdd"),
          payload: good,
          headers: { cookie: admin.cookie, "content-type": "application/x-www-form-urlencoded" },
        }),
        403,
        "own pages only",
      ],
      ["staff", post(staffer.cookie, good), 403, ""],
      ["a huge body", post(admin.cookie, `terms=${"a".repeat(70_000)}`), 413, ""],
      [
        "control characters",
        post(admin.cookie, "terms=alpha%00one%2C%20beta%1B"),
        400,
        "control characters are not allowed",
      ],
      ["one term", post(admin.cookie, "terms=alpha"), 400, "two or more"],
      ["a long field", post(admin.cookie, `terms=${"a,".repeat(400)}`), 400, "at most"],
      ["a long term", post(admin.cookie, `terms=${"a".repeat(61)}%2Cb`), 400, "each word or phrase at most 60"],
      ["too many terms", post(admin.cookie, `terms=${"a1,a2,a3,a4,a5,a6,a7,a8,a9"}`), 400, "at most 8"],
      ["punctuation", post(admin.cookie, "terms=%21%21%2C%3F%3F"), 400, ""],
      ["no field", post(admin.cookie, "other=1"), 400, "Synonyms"],
    ];
    for (const [what, answer, status, says] of refusals) {
      const response = await answer;
      expect(response.statusCode, what).toBe(status);
      if (says) expect(response.body, what).toContain(says);
    }
    expect(await groups()).toBe(before);
  });

  it(`refuses a group past the ${MAX_SYNONYM_GROUPS}th`, async () => {
    const before = await groups();
    await t.database.db.insert(searchSynonyms).values(
      Array.from({ length: MAX_SYNONYM_GROUPS - before }, (_, index) => ({
        terms: [`filler${index}`, `stuffing${index}`],
        createdByLabel: "test",
      })),
    );
    const refused = await post(admin.cookie, "terms=one%20more%2C%20and%20another");
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain("remove one first");
    expect(await groups()).toBe(MAX_SYNONYM_GROUPS);
    await t.database.db.delete(searchSynonyms).where(eq(searchSynonyms.createdByLabel, "test"));
  });

  it("lists the searches that found nothing on the Analytics page, by week, to any member of staff", async () => {
    const browser = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
    for (const q of ["IEEE 2800 Plover", "ieee-2800 plover", "Grumblewick"]) {
      const answer = await t.app.inject({
        method: "GET",
        url: `/search?${new URLSearchParams({ q }).toString()}`,
        headers: { "user-agent": browser },
      });
      expect(answer.body, q).toContain("No results for");
    }
    await t.app.searchMisses.flush();
    const page = await t.send({ method: "GET", url: adminHref("analytics"), cookie: staffer.cookie });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Searches that found nothing");
    expect(page.body).toContain("Week of");
    expect(page.body).toMatch(/ieee 2800 plover<\/th><td[^>]*>2</);
    expect(page.body).toContain("grumblewick");
  });
});
