import { and, asc, count, eq, isNotNull, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";
import { adminHref } from "#shared/admin/routes.ts";
import type { PublicTestimonials } from "#shared/api-types.ts";
import { projectPath } from "#shared/paths.ts";
import { auditEvents, clientLogos, contentRevisions, media, projects, testimonials } from "../../db/schema.ts";
import { mediaChoices } from "../../media/media-choices.ts";
import { propsOf, setCanPublish, uniqueEmail } from "../studio/studio-test-kit.ts";

// Testimonials and client logos in the back office, through inject() on both databases
// (docs/decisions/061-testimonials-and-client-logos.md): added, saved, published with a complete
// permission that covers this website and refused without one (the checklist says why), an
// anonymised one whose person and organisation reach no public address, withdrawn off every page
// at once with the audit trail keeping who and when, the logos' order; and the requests a hostile
// or hurried client sends, each a clear 4xx that changes nothing.

vi.mock("#web/admin/entry-server.tsx", async (importOriginal) =>
  (await import("../studio/studio-test-kit.ts")).recordingEntry(await importOriginal()),
);

const someId = "00000000-0000-4000-8000-000000000000";

type Fields = Record<string, string | string[]>;

const PERMISSION: Fields = {
  permissionBy: "Anita Shah, Head of Projects, by email",
  permissionOn: "2026-10-01",
  permissionUses: ["website", "proposals"],
  permissionReview: "2027-10-01",
};

/** A form post whose lists repeat their name, as ticked boxes do. */
function formBody(fields: Record<string, string | number | string[]>): string {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields))
    for (const one of Array.isArray(value) ? value : [value]) body.append(name, String(one));
  return body.toString();
}

describe.each(testDrivers)("testimonials and client logos in the back office on %s", (driver) => {
  let t: AdminTestApp;
  let admin: StaffWithSession;
  let member: StaffWithSession;
  let publisher: StaffWithSession;
  let project: { id: string; slug: string };
  let logo: string;
  let logoKey: string;
  let otherLogo: string;
  beforeAll(async () => {
    t = await buildAdminTestApp(driver, { content: true, startAt: new Date() });
    admin = await staffWithSession(t, { email: uniqueEmail("meera"), name: "Meera Shah", role: "admin" });
    member = await staffWithSession(t, { email: uniqueEmail("ravi"), name: "Ravi Desai", role: "staff" });
    publisher = await staffWithSession(t, { email: uniqueEmail("asha"), name: "Asha Patel", role: "staff" });
    await setCanPublish(t, publisher, true);
    const [published] = await t.database.db
      .select({ id: projects.id, slug: projects.slug })
      .from(projects)
      .where(and(eq(projects.status, "published"), isNull(projects.deletedAt), isNotNull(projects.slug)))
      .orderBy(asc(projects.slug))
      .limit(1);
    project = { id: published!.id, slug: published!.slug! };
    const choices = await mediaChoices(t.database.db);
    logo = choices[0]!.url;
    logoKey = choices[0]!.key;
    otherLogo = choices[1]!.url;
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (
    url: string,
    person: StaffWithSession,
    fields: Record<string, string | number | string[]>,
    headers = {},
  ) =>
    t.send({
      method: "POST",
      url,
      cookie: person.cookie,
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      payload: formBody(fields),
    });
  const rowOf = async (id: string) =>
    (await t.database.db.select().from(testimonials).where(eq(testimonials.id, id)))[0]!;
  const logoRowOf = async (id: string) =>
    (await t.database.db.select().from(clientLogos).where(eq(clientLogos.id, id)))[0]!;
  const publicTestimonials = async () =>
    (await t.app.inject({ method: "GET", url: "/api/testimonials" })).json<PublicTestimonials>();
  const page = async (id: string, person: StaffWithSession = admin) =>
    propsOf(
      await t.send({ method: "GET", url: adminHref("testimonial", { id }), cookie: person.cookie }),
      "ordered-item",
    ).item;
  /** Everything a refused change could have touched. */
  const snapshot = async (id?: string) => ({
    row: id ? await rowOf(id) : undefined,
    testimonials: (await t.database.db.select({ n: count() }).from(testimonials))[0]!.n,
    logos: (await t.database.db.select({ n: count() }).from(clientLogos))[0]!.n,
    revisions: (await t.database.db.select({ n: count() }).from(contentRevisions))[0]!.n,
    audit: (await t.database.db.select({ n: count() }).from(auditEvents))[0]!.n,
  });

  const testimonialFields = (overrides: Fields = {}): Fields => ({
    quote: "Their protection review found the one setting that would have tripped the pooling station.",
    personName: "Anita Shah",
    personRole: "Head of Projects",
    organisation: "Kutch Renewables Private Limited",
    project: project.id,
    services: ["short-circuit-and-protection"],
    ...PERMISSION,
    ...overrides,
  });

  /** "Add a testimonial": its id (the answer must be the 303 to its page). */
  async function addTestimonial(fields: Fields, visibility: "shown" | "hidden", person = admin) {
    const response = await post(adminHref("testimonialCreate"), person, { ...fields, visibility });
    if (response.statusCode !== 303) throw new Error(`add: ${response.statusCode} ${response.body.slice(0, 800)}`);
    return /\/admin\/testimonials\/([0-9a-f-]{36})\?notice=testimonial-created-(?:shown|hidden)$/.exec(
      String(response.headers.location),
    )![1]!;
  }
  const act = async (
    name: "testimonialShow" | "testimonialHide" | "testimonialTrash" | "testimonialUntrash",
    id: string,
    person = admin,
    base?: number,
  ) => post(adminHref(name, { id }), person, { baseRevisionId: base ?? (await rowOf(id)).headRevisionId! });

  it("takes a service slug the definition offers", async () => {
    // The definition's choices are the groups of /services: the fixture's must be one of them.
    const { TESTIMONIALS } = await import("#shared/admin/collections/index.ts");
    expect(TESTIMONIALS.fields.services.choices.map((choice) => choice.value)).toContain(
      "short-circuit-and-protection",
    );
  });

  it("adds a testimonial with a permission and a linked project, publishes it: on the home page, the project's page and the API, audited", async () => {
    const id = await addTestimonial(testimonialFields(), "hidden");
    const hidden = await rowOf(id);
    expect(hidden).toMatchObject({ status: "draft", quote: null });
    expect((await publicTestimonials()).testimonials.map((one) => one.id)).not.toContain(id);
    const before = await page(id);
    expect(before).toMatchObject({
      status: "hidden",
      blockers: [],
      name: "Anita Shah, Kutch Renewables Private Limited",
    });
    expect(before.options.project!.map((option) => option.value)).toContain(project.id);

    const published = await act("testimonialShow", id);
    expect(published.statusCode).toBe(303);
    expect(published.headers.location).toBe(`${adminHref("testimonial", { id })}?notice=testimonial-shown`);
    const row = await rowOf(id);
    expect(row).toMatchObject({
      status: "published",
      quote: testimonialFields().quote,
      personName: "Anita Shah",
      projectId: project.id,
      permissionUses: ["website", "proposals"],
      permissionReview: "2027-10-01",
    });
    const shown = (await publicTestimonials()).testimonials.find((one) => one.id === id);
    expect(shown).toMatchObject({
      person: { name: "Anita Shah", organisation: "Kutch Renewables Private Limited" },
      projectSlug: project.slug,
    });
    const home = await t.app.inject({ method: "GET", url: "/" });
    expect(home.body).toContain("Their protection review found the one setting");
    const projectPage = await t.app.inject({ method: "GET", url: projectPath(project.slug) });
    expect(projectPage.body).toContain("Their protection review found the one setting");
    const audit = await t.database.db
      .select({ action: auditEvents.action, actor: auditEvents.actorLabel })
      .from(auditEvents)
      .where(eq(auditEvents.targetId, id))
      .orderBy(asc(auditEvents.id));
    expect(audit).toEqual([
      { action: "testimonial-created", actor: "Meera Shah" },
      { action: "testimonial-shown", actor: "Meera Shah" },
    ]);

    // Withdrawn: off every page at once; the audit trail keeps who and when.
    const withdrawn = await act("testimonialHide", id, publisher);
    expect(withdrawn.statusCode).toBe(303);
    expect((await rowOf(id)).status).toBe("unpublished");
    expect((await publicTestimonials()).testimonials.map((one) => one.id)).not.toContain(id);
    expect((await t.app.inject({ method: "GET", url: "/" })).body).not.toContain("Their protection review found");
    expect((await t.app.inject({ method: "GET", url: projectPath(project.slug) })).body).not.toContain(
      "Their protection review found",
    );
    const [last] = await t.database.db
      .select({ action: auditEvents.action, actor: auditEvents.actorLabel })
      .from(auditEvents)
      .where(eq(auditEvents.targetId, id))
      .orderBy(asc(auditEvents.id))
      .offset(2);
    expect(last).toMatchObject({ action: "testimonial-hidden", actor: "Asha Patel" });
    await act("testimonialTrash", id);
  });

  it("keeps an anonymised testimonial's person, organisation and logo off every public address", async () => {
    const secret = { personName: "Zqxsecret Personname", organisation: "Zqxsecret Transco Limited" };
    const id = await addTestimonial(
      testimonialFields({
        ...secret,
        quote: "Clear answers to every question the utility's engineers asked, in days.",
        anonymised: "true",
        description: "Head of protection, a state transmission utility in western India",
        logoUrl: logo,
      }),
      "shown",
    );
    expect((await rowOf(id)).status).toBe("published");
    const api = await t.app.inject({ method: "GET", url: "/api/testimonials" });
    const shown = api.json<PublicTestimonials>().testimonials.find((one) => one.id === id);
    expect(shown).toMatchObject({
      person: null,
      description: "Head of protection, a state transmission utility in western India",
    });
    const addresses = [
      "/",
      projectPath(project.slug),
      "/api/testimonials",
      "/services",
      "/industries",
      "/sitemap.xml",
      "/rss.xml",
    ];
    for (const url of addresses) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.body, url).not.toContain("Zqxsecret");
    }
    expect((await t.app.inject({ method: "GET", url: "/" })).body).toContain(
      "a state transmission utility in western India",
    );
    await act("testimonialTrash", id);
    expect((await t.app.inject({ method: "GET", url: "/" })).body).not.toContain(
      "a state transmission utility in western India",
    );
  });

  it("refuses to publish a testimonial without a permission: the checklist says why, and nothing changes", async () => {
    const id = await addTestimonial(
      testimonialFields({ permissionBy: "", permissionOn: "", permissionUses: [], permissionReview: "" }),
      "hidden",
    );
    const item = await page(id);
    expect(item.blockers).toEqual([
      "Say who gave permission.",
      "Give the date permission was given.",
      "Choose what the permission covers.",
      "Give a date to review the permission.",
    ]);
    const html = (await t.send({ method: "GET", url: adminHref("testimonial", { id }), cookie: admin.cookie })).body;
    expect(html).toContain("Before it can be published");
    expect(html).toContain("Say who gave permission.");
    const before = await snapshot(id);
    const refused = await act("testimonialShow", id);
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain("This testimonial cannot be published yet: Say who gave permission.");
    expect(await snapshot(id)).toEqual(before);
    expect((await publicTestimonials()).testimonials.map((one) => one.id)).not.toContain(id);

    // Nor added published at once, nor published when the permission leaves this website out.
    const counted = await snapshot();
    const atOnce = await post(adminHref("testimonialCreate"), admin, {
      ...testimonialFields({ permissionBy: "" }),
      visibility: "shown",
    });
    expect(atOnce.statusCode).toBe(422);
    expect(atOnce.body).toContain("cannot be published yet: Say who gave permission.");
    expect(await snapshot()).toEqual(counted);
    const proposalsOnly = await addTestimonial(testimonialFields({ permissionUses: ["proposals"] }), "hidden");
    const notHere = await act("testimonialShow", proposalsOnly);
    expect(notHere.statusCode).toBe(409);
    expect(notHere.body).toContain("The permission must cover this website to be shown here.");
    await act("testimonialTrash", id);
    await act("testimonialTrash", proposalsOnly);
  });

  it("refuses to save a published testimonial into one that could not be published, keeping what was typed", async () => {
    const id = await addTestimonial(testimonialFields(), "shown");
    const before = await snapshot(id);
    const response = await post(adminHref("testimonialSave", { id }), admin, {
      ...testimonialFields({ permissionUses: [], quote: "A changed quote" }),
      baseRevisionId: before.row!.headRevisionId!,
    });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain("Choose what the permission covers.");
    expect(response.body).toContain("A changed quote");
    expect(await snapshot(id)).toEqual(before);
    // Saved properly: a revision, published at once.
    const saved = await post(adminHref("testimonialSave", { id }), admin, {
      ...testimonialFields({ quote: "A second, approved wording of the quote." }),
      baseRevisionId: before.row!.headRevisionId!,
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toContain("notice=testimonial-saved-shown");
    expect((await rowOf(id)).quote).toBe("A second, approved wording of the quote.");
    // A save from the revision before is refused as stale, and shows both.
    const stale = await post(adminHref("testimonialSave", { id }), admin, {
      ...testimonialFields({ quote: "A third wording." }),
      baseRevisionId: before.row!.headRevisionId!,
    });
    expect(stale.statusCode).toBe(409);
    expect((await rowOf(id)).quote).toBe("A second, approved wording of the quote.");
    await act("testimonialTrash", id);
  });

  it.each([
    ["a project that is not one", { project: someId }, "project", "Project must be chosen from its list"],
    ["a project that is no id", { project: "kutch; drop table" }, "project", "Project must be chosen from its list"],
    ["a service not offered", { services: ["astrology"] }, "services", "Services must be chosen from its list"],
    [
      "a service twice",
      { services: ["short-circuit-and-protection", "short-circuit-and-protection"] },
      "services",
      "Services names one choice twice",
    ],
    [
      "a use not offered",
      { permissionUses: ["billboards"] },
      "permissionUses",
      "Permission covers must be chosen from its list",
    ],
    [
      "a date that does not exist",
      { permissionOn: "2026-02-30" },
      "permissionOn",
      "Given on must be a date that exists, like 2026-11-30",
    ],
    [
      "a date in words",
      { permissionReview: "next year" },
      "permissionReview",
      "Review on must be a date that exists, like 2026-11-30",
    ],
    [
      "a picture of another site",
      { logoUrl: "https://evil.example/logo.png" },
      "logoUrl",
      "Logo must be one of the pictures of the media library",
    ],
    [
      "a control character",
      { personName: "Anita\u0000Shah" },
      "personName",
      "Person must not contain control characters",
    ],
    ["a quote past its limit", { quote: "x".repeat(1001) }, "quote", "Quote must be at most 1000 characters"],
    ["a line break in a one-line field", { organisation: "Kutch\nRenewables" }, "organisation", "Organisation"],
    ["a tick that is no tick", { anonymised: "perhaps" }, "anonymised", "Anonymised must be ticked or not"],
  ])("refuses %s with 422 at its field, adding nothing", async (_what, overrides, field, message) => {
    const before = await snapshot();
    const response = await post(adminHref("testimonialCreate"), admin, {
      ...testimonialFields(overrides as Fields),
      visibility: "hidden",
    });
    expect(response.statusCode).toBe(422);
    const props = propsOf(response, "ordered-item");
    expect(props.form?.errors[field]).toContain(message);
    expect(await snapshot()).toEqual(before);
  });

  it("lets only those who may publish change testimonials, only from this site, and answers 404 for no such one", async () => {
    const id = await addTestimonial(testimonialFields(), "hidden");
    const before = await snapshot(id);
    const base = before.row!.headRevisionId!;
    // Staff without Can publish see the list, and change nothing.
    expect((await t.send({ method: "GET", url: adminHref("testimonials"), cookie: member.cookie })).statusCode).toBe(
      200,
    );
    for (const response of [
      await post(adminHref("testimonialCreate"), member, { ...testimonialFields(), visibility: "shown" }),
      await post(adminHref("testimonialShow", { id }), member, { baseRevisionId: base }),
      await post(adminHref("testimonialSave", { id }), member, { ...testimonialFields(), baseRevisionId: base }),
    ])
      expect(response.statusCode).toBe(403);
    // Another site's form, even with an admin's session.
    const forged = await post(
      adminHref("testimonialShow", { id }),
      admin,
      { baseRevisionId: base },
      { origin: "https://evil.example" },
    );
    expect(forged.statusCode).toBe(403);
    // No session at all.
    const anonymous = await t.send({
      method: "POST",
      url: adminHref("testimonialShow", { id }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: formBody({ baseRevisionId: base }),
    });
    // The door sends one without a session to sign in, and does nothing.
    expect(anonymous.statusCode).toBe(303);
    expect(String(anonymous.headers.location)).toMatch(/^\/admin\/sign-in/);
    // No such testimonial, a malformed id, and a logo's id on the testimonials' address.
    const [aLogo] = await t.database.db.select({ id: clientLogos.id }).from(clientLogos).limit(1);
    for (const other of [someId, "not-an-id", ...(aLogo ? [aLogo.id] : [])]) {
      const response = await post(adminHref("testimonialShow", { id: other }), admin, { baseRevisionId: base });
      expect(response.statusCode, other).toBe(404);
    }
    // Another testimonial's revision: stale.
    const otherId = await addTestimonial(testimonialFields(), "hidden");
    const otherBase = (await rowOf(otherId)).headRevisionId!;
    expect((await act("testimonialShow", id, admin, otherBase)).statusCode).toBe(409);
    expect(await snapshot(id)).toEqual({
      ...before,
      testimonials: before.testimonials + 1,
      revisions: before.revisions + 1,
      audit: before.audit + 1,
    });
    await act("testimonialTrash", id);
    await act("testimonialTrash", otherId);
  });

  describe("client logos", () => {
    const logoFields = (organisation: string, picture: string): Fields => ({
      organisation,
      logoUrl: picture,
      ...PERMISSION,
    });
    async function addLogo(fields: Fields, visibility: "shown" | "hidden") {
      const response = await post(adminHref("clientLogoCreate"), admin, { ...fields, visibility });
      if (response.statusCode !== 303) throw new Error(`add: ${response.statusCode} ${response.body.slice(0, 800)}`);
      return /\/admin\/client-logos\/([0-9a-f-]{36})\?notice=client-logo-created-(?:shown|hidden)$/.exec(
        String(response.headers.location),
      )![1]!;
    }
    const logoAct = async (name: "clientLogoShow" | "clientLogoHide" | "clientLogoTrash", id: string) =>
      post(adminHref(name, { id }), admin, { baseRevisionId: (await logoRowOf(id)).headRevisionId! });

    it("shows the published logos on the home page in their order, greyscale with the organisation as alt; none, no row", async () => {
      // Whatever the seed holds goes first to the trash: the row is this test's.
      const seeded = await t.database.db
        .select({ id: clientLogos.id })
        .from(clientLogos)
        .where(isNull(clientLogos.deletedAt));
      for (const { id } of seeded) await logoAct("clientLogoTrash", id);
      expect((await publicTestimonials()).clientLogos).toEqual([]);
      const home = (await t.app.inject({ method: "GET", url: "/" })).body;
      expect(home).not.toContain("Trusted by");

      const first = await addLogo(logoFields("Alpha Grid Corporation", logo), "shown");
      const second = await addLogo(logoFields("Beta Power Limited", otherLogo), "shown");
      const hiddenOne = await addLogo(logoFields("Gamma Hidden Limited", logo), "hidden");
      expect((await publicTestimonials()).clientLogos.map((one) => one.organisation)).toEqual([
        "Alpha Grid Corporation",
        "Beta Power Limited",
      ]);
      const moved = await post(adminHref("clientLogoMove", { id: second }), admin, { direction: "up" });
      expect(moved.statusCode).toBe(303);
      expect(moved.headers.location).toBe(`${adminHref("client-logos")}?notice=client-logos-moved&focus=up-${second}`);
      expect((await publicTestimonials()).clientLogos.map((one) => one.organisation)).toEqual([
        "Beta Power Limited",
        "Alpha Grid Corporation",
      ]);
      const withLogos = (await t.app.inject({ method: "GET", url: "/" })).body;
      expect(withLogos).toContain("Trusted by");
      expect(withLogos.indexOf('alt="Beta Power Limited"')).toBeGreaterThan(-1);
      expect(withLogos.indexOf('alt="Beta Power Limited"')).toBeLessThan(
        withLogos.indexOf('alt="Alpha Grid Corporation"'),
      );
      expect(withLogos).not.toContain("Gamma Hidden Limited");

      // The list, as the back office shows it.
      const list = propsOf(
        await t.send({ method: "GET", url: adminHref("client-logos"), cookie: admin.cookie }),
        "ordered-list",
      );
      expect(list.rows.map((row) => [row.name, row.status, row.position])).toEqual([
        ["Beta Power Limited", "shown", 1],
        ["Alpha Grid Corporation", "shown", 2],
        ["Gamma Hidden Limited", "hidden", 3],
      ]);

      // A logo without its picture cannot be published.
      const noPicture = await addLogo(logoFields("Delta Utilities", ""), "hidden");
      const refused = await logoAct("clientLogoShow", noPicture);
      expect(refused.statusCode).toBe(409);
      expect(refused.body).toContain("This logo cannot be published yet: Choose the logo.");

      for (const id of [first, second, hiddenOne, noPicture]) await logoAct("clientLogoTrash", id);
      expect((await publicTestimonials()).clientLogos).toEqual([]);
      expect((await t.app.inject({ method: "GET", url: "/" })).statusCode).toBe(200);
      expect((await t.app.inject({ method: "GET", url: "/" })).body).not.toContain("Trusted by");
      for (const { id } of seeded)
        await post(adminHref("clientLogoUntrash", { id }), admin, {
          baseRevisionId: (await logoRowOf(id)).headRevisionId!,
        });
    });

    it("names the logo in its picture's Used in, linking to its page, and keeps the picture from deletion", async () => {
      const id = await addLogo(logoFields("Epsilon Networks", logo), "hidden");
      const [picture] = await t.database.db.select({ id: media.id }).from(media).where(eq(media.key, logoKey));
      expect(picture, `the picture ${logo} is in the library`).toBeDefined();
      const item = propsOf(
        await t.send({ method: "GET", url: adminHref("mediaItem", { id: picture!.id }), cookie: admin.cookie }),
        "media-item",
      ).item;
      expect(item.usedIn).toContainEqual({
        kind: "client-logo",
        title: "Logo of Epsilon Networks",
        trashed: false,
        href: adminHref("clientLogo", { id }),
      });
      const deleted = await post(adminHref("mediaDelete", { id: picture!.id }), admin, {});
      expect(deleted.statusCode).toBeGreaterThanOrEqual(400);
      expect((await t.database.db.select({ id: media.id }).from(media).where(eq(media.id, picture!.id))).length).toBe(
        1,
      );
      await logoAct("clientLogoTrash", id);
    });

    it("refuses an order that is not every logo once", async () => {
      const response = await t.send({
        method: "POST",
        url: adminHref("client-logosOrder"),
        cookie: admin.cookie,
        payload: { order: [someId] },
      });
      expect(response.statusCode).toBe(409);
      const twice = await t.send({
        method: "POST",
        url: adminHref("client-logosOrder"),
        cookie: admin.cookie,
        payload: { order: [someId, someId] },
      });
      expect(twice.statusCode).toBe(400);
      expect(twice.body).toContain("The order names a logo twice.");
    });
  });
});
