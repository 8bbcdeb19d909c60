import type { APIRequestContext, Browser, Locator, Page } from "@playwright/test";
import { CONTENT_POLL_MS } from "../src/server/content/data-version.ts";
import { expect, type PageGuard, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { adminOrigin } from "./staff-sessions.ts";
import { uniqueWord, visitorContext } from "./studio-helpers.ts";

// Testimonials and client logos in the back office, in a real browser
// (docs/decisions/061-testimonials-and-client-logos.md): an admin adds a testimonial with the
// client's permission, publishes it and a visitor reads it on the home page and on its project's
// page; an anonymised one never shows its person, organisation or logo on any public address;
// Withdraw takes one off the home page within the content poll; Publish without a permission is
// refused with the checklist's reasons; two client logos, published and reordered with the
// keyboard, are in that order in the home page's "Trusted by" row, and gone when trashed; the
// pages at a phone's and a desktop's width, without axe violations or sideways scrolling.
//
// The tests share the browser tests' one site: each moves what it added to the trash (afterEach
// does it for a test that failed halfway), and reads of public pages look for this test's own
// words only, since other tests (testimonials.spec.ts) publish testimonials and logos too. The
// linked project is one no other browser test counts testimonials on.

/** A published project of the seed, chosen in the Project select by its title; its public page is /projects/<slug>. */
const PROJECT = { slug: "wind-solar-hybrid-rajasthan", title: "Wind-Solar Hybrid Plant Integration, Rajasthan" };

/**
 * How long a change in the back office may take to reach the public pages: the instance that wrote
 * reads the content version at once after its commit (decision 060), any other at its next poll,
 * every CONTENT_POLL_MS (decision 038, section 3); and then one page's answer on a busy machine.
 */
const SEEN_WITHIN = CONTENT_POLL_MS + 3_000;

type Kind = {
  plural: "testimonials" | "client-logos";
  /** The notices' key (`testimonial-created-shown`). */
  key: "testimonial" | "client-logo";
  add: string;
  newTitle: string;
  listLabel: string;
};

const TESTIMONIALS: Kind = {
  plural: "testimonials",
  key: "testimonial",
  add: "Add a testimonial",
  newTitle: "New testimonial",
  listLabel: "Testimonials",
};
const CLIENT_LOGOS: Kind = {
  plural: "client-logos",
  key: "client-logo",
  add: "Add a logo",
  newTitle: "New client logo",
  listLabel: "Client logos",
};

const listUrl = (kind: Kind) => `${adminOrigin}/admin/${kind.plural}`;
const itemUrl = (kind: Kind, id: string) => `${listUrl(kind)}/${id}`;

/** What each test added, moved to the trash after it if the test did not get that far. */
let added: { kind: Kind; id: string }[] = [];

/** The list's table, by its region. */
const listTable = (page: Page, kind: Kind): Locator => page.getByRole("region", { name: kind.listLabel });

/** An item's row of the list, by the name its link shows. */
const rowOf = (page: Page, kind: Kind, name: string): Locator =>
  listTable(page, kind)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader").getByRole("link", { name, exact: true }) });

/** The names of the list, first to last. */
const listedNames = (page: Page, kind: Kind): Promise<string[]> =>
  listTable(page, kind).getByRole("rowheader").getByRole("link").allInnerTexts();

type Permission = { by?: string; on?: string; covers?: string[]; review?: string };

/** A complete permission that covers this website. */
const WEBSITE_PERMISSION: Permission = {
  by: "Anita Shah, Head of Projects, by email",
  on: "2026-10-01",
  covers: ["This website", "Proposals"],
  review: "2027-10-01",
};

/** The permission's fields of an item's form. */
async function fillPermission(form: Locator, permission: Permission): Promise<void> {
  if (permission.by !== undefined) await form.getByLabel("Permission given by", { exact: true }).fill(permission.by);
  if (permission.on !== undefined) await form.getByLabel("Given on", { exact: true }).fill(permission.on);
  const covers = form.getByRole("group", { name: "Permission covers" });
  for (const use of permission.covers ?? []) await covers.getByRole("checkbox", { name: use, exact: true }).check();
  if (permission.review !== undefined) await form.getByLabel("Review on", { exact: true }).fill(permission.review);
}

type TestimonialFields = {
  quote: string;
  person?: string;
  role?: string;
  organisation?: string;
  anonymised?: boolean;
  description?: string;
  /** The Logo select's option, by index (0 is "No logo"). */
  logo?: number;
  /** A project by its title. */
  project?: string;
  services?: string[];
  industries?: string[];
  permission?: Permission;
};

/**
 * "Add <noun>" from the list, the form filled by `fill` and added, published at once or not:
 * the new item's id (its page is open, with the notice of its creation).
 */
async function addItem(
  page: Page,
  kind: Kind,
  fill: (form: Locator) => Promise<void>,
  publish: "at once" | "not yet",
): Promise<string> {
  await page.goto(listUrl(kind));
  await page.getByRole("link", { name: kind.add }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(kind.newTitle);
  const form = page.getByRole("form", { name: kind.newTitle });
  await fill(form);
  await form.getByRole("radio", { name: publish === "at once" ? "Publish at once" : /^Not yet/ }).check();
  await form.getByRole("button", { name: kind.add }).click();
  await page.waitForURL(
    new RegExp(
      `/admin/${kind.plural}/[0-9a-f-]{36}\\?notice=${kind.key}-created-${publish === "at once" ? "shown" : "hidden"}$`,
    ),
  );
  const id = new RegExp(`/admin/${kind.plural}/([0-9a-f-]{36})`).exec(page.url())![1]!;
  added.push({ kind, id });
  return id;
}

/** A testimonial added through the form: its id. */
function addTestimonial(page: Page, fields: TestimonialFields, publish: "at once" | "not yet"): Promise<string> {
  return addItem(
    page,
    TESTIMONIALS,
    async (form) => {
      await form.getByLabel("Quote", { exact: true }).fill(fields.quote);
      if (fields.person !== undefined) await form.getByLabel("Person", { exact: true }).fill(fields.person);
      if (fields.role !== undefined) await form.getByLabel("Role", { exact: true }).fill(fields.role);
      if (fields.organisation !== undefined)
        await form.getByLabel("Organisation", { exact: true }).fill(fields.organisation);
      if (fields.anonymised) await form.getByRole("checkbox", { name: "Anonymised", exact: true }).check();
      if (fields.description !== undefined)
        await form.getByLabel("Description", { exact: true }).fill(fields.description);
      if (fields.logo !== undefined)
        await form.getByLabel("Logo", { exact: true }).selectOption({ index: fields.logo });
      if (fields.project !== undefined)
        await form.getByLabel("Project", { exact: true }).selectOption({ label: fields.project });
      for (const service of fields.services ?? [])
        await form.getByRole("group", { name: "Services" }).getByRole("checkbox", { name: service }).check();
      for (const industry of fields.industries ?? [])
        await form.getByRole("group", { name: "Industries" }).getByRole("checkbox", { name: industry }).check();
      if (fields.permission) await fillPermission(form, fields.permission);
    },
    publish,
  );
}

/** A client logo added through the form, its picture the Logo select's option `logo`: its id. */
function addLogo(page: Page, organisation: string, logo: number, publish: "at once" | "not yet"): Promise<string> {
  return addItem(
    page,
    CLIENT_LOGOS,
    async (form) => {
      await form.getByLabel("Organisation", { exact: true }).fill(organisation);
      await form.getByLabel("Logo", { exact: true }).selectOption({ index: logo });
      await fillPermission(form, WEBSITE_PERMISSION);
    },
    publish,
  );
}

/** Moves an item to the trash from its page, as a person confirms it: off the site, and out of the others' way. */
async function trash(page: Page, kind: Kind, id: string, question: string): Promise<void> {
  await page.goto(itemUrl(kind, id));
  const asked = page.waitForEvent("dialog").then(async (dialog) => {
    const message = dialog.message();
    await dialog.accept();
    return message;
  });
  await page.getByRole("region", { name: "On the site" }).getByRole("button", { name: "Move to trash" }).click();
  expect(await asked).toBe(question);
  await page.waitForURL(`${listUrl(kind)}?notice=${kind.key}-trashed`);
  added = added.filter((item) => item.id !== id);
}

const TESTIMONIAL_TRASH_QUESTION =
  "Move this testimonial to the trash? It leaves every page; Restore brings it back, withdrawn.";
const LOGO_TRASH_QUESTION = "Move this logo to the trash? It leaves the home page; Restore brings it back, withdrawn.";

/** The item's status as its page's header shows it. */
const statusBadge = (page: Page): Locator => page.locator("main [data-item-status]").first();

/**
 * A status badge says `words` ("Published", "Not published"; its mark, ● or ○, is hidden from
 * screen readers) and is marked so.
 */
async function expectStatus(badge: Locator, words: "Published" | "Not published"): Promise<void> {
  await expect(badge).toHaveText(new RegExp(`^\\W?${words}$`));
  await expect(badge).toHaveAttribute("data-item-status", words === "Published" ? "shown" : "hidden");
}

/** A notice at the top of the page. */
const notice = (page: Page, text: string): Locator => page.getByRole("status").filter({ hasText: text });

/** A visitor's browser, its page guarded as the test's own. */
async function visitor(browser: Browser, pageGuard: PageGuard) {
  const context = await visitorContext(browser);
  const page = await context.newPage();
  pageGuard.watch(page);
  return { context, page };
}

/** The home page's testimonials section. */
const homeTestimonials = (page: Page): Locator =>
  page.locator("section", { has: page.getByRole("heading", { name: "What Our Clients Say" }) });

/** A project page's testimonials, under their heading. */
const projectTestimonials = (page: Page): Locator =>
  page.locator("div", { has: page.getByRole("heading", { name: "What our clients say" }) }).last();

/**
 * Reloads the home page until `seen` holds of it, no longer than the content poll allows
 * (SEEN_WITHIN): a change the site has not shown by then is a failure, not a slow machine. The
 * page's HTML is what the server rendered (no island carries testimonials), so each load waits for
 * it, not for its pictures.
 */
async function homeUntil(page: Page, seen: (page: Page) => Promise<boolean>, message: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.goto("/", { waitUntil: "domcontentloaded" });
        return seen(page);
      },
      { message, intervals: [250], timeout: SEEN_WITHIN },
    )
    .toBe(true);
}

/** The text a visitor's raw request gets at `path`, asserting it answered 200. */
async function publicText(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  return response.text();
}

test.describe("testimonials and client logos in the back office", () => {
  test.describe.configure({ timeout: 120_000 });
  test.beforeEach(({ pageGuard }) => {
    // The back office is on localhost, the public site on 127.0.0.1.
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
    added = [];
  });
  test.afterEach(async ({ page }) => {
    // What a failed test left behind, off the site: the others read the same home page.
    for (const { kind, id } of [...added].reverse())
      await trash(page, kind, id, kind === TESTIMONIALS ? TESTIMONIAL_TRASH_QUESTION : LOGO_TRASH_QUESTION);
  });

  test("an admin adds a testimonial with the client's permission and publishes it at once: the home page and its project's page show it", async ({
    page,
    browser,
    pageGuard,
    signIn,
  }) => {
    await signIn(page, "admin");
    const tag = uniqueWord();
    const fields = {
      quote: `Their load-flow study of our hybrid plant answered the utility's every question in one round (${tag}).`,
      person: `Kiran ${tag}`,
      role: "Chief Engineer",
      organisation: `Thar Renewables ${tag}`,
      project: PROJECT.title,
      services: ["Renewable & Grid Integration"],
      industries: ["Renewables"],
      permission: WEBSITE_PERMISSION,
    };
    await page.goto(listUrl(TESTIMONIALS));
    const before = await listedNames(page, TESTIMONIALS);
    const id = await addTestimonial(page, fields, "at once");
    const name = `${fields.person}, ${fields.organisation}`;
    await expect(notice(page, "The testimonial was added and is on the site now.")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await expectStatus(statusBadge(page), "Published");
    const onTheSite = page.getByRole("region", { name: "On the site" });
    await expect(onTheSite.getByText(/^Published, in place \d+ of the list\. Withdraw takes it off/)).toBeVisible();
    await expect(onTheSite.getByRole("button", { name: "Withdraw" })).toBeVisible();
    // What was saved is what the form shows again.
    const form = page.getByRole("form", { name: "Testimonials" });
    await expect(form.getByLabel("Quote", { exact: true })).toHaveValue(fields.quote);
    await expect(form.getByLabel("Project", { exact: true }).locator("option:checked")).toHaveText(PROJECT.title);
    await expect(form.getByLabel("Given on", { exact: true })).toHaveValue("2026-10-01");
    await expect(
      form.getByRole("group", { name: "Permission covers" }).getByRole("checkbox", { name: "This website" }),
    ).toBeChecked();
    await expect(
      form.getByRole("group", { name: "Permission covers" }).getByRole("checkbox", { name: "Social media" }),
    ).not.toBeChecked();

    // The list has it, published, after every one there before (other tests add theirs meanwhile).
    await page.goto(listUrl(TESTIMONIALS));
    const after = await listedNames(page, TESTIMONIALS);
    const stillThere = before.filter((other) => after.includes(other));
    expect(stillThere.length).toBeGreaterThanOrEqual(3);
    expect(after.indexOf(name)).toBeGreaterThan(Math.max(...stillThere.map((other) => after.indexOf(other))));
    await expectStatus(rowOf(page, TESTIMONIALS, name).locator("[data-item-status]"), "Published");

    const { context, page: home } = await visitor(browser, pageGuard);
    try {
      await homeUntil(
        home,
        async (shown) => (await homeTestimonials(shown).locator("figure", { hasText: fields.quote }).count()) === 1,
        "the home page shows the new testimonial",
      );
      const figure = homeTestimonials(home).locator("figure", { hasText: fields.quote });
      await expect(figure.getByText(fields.person, { exact: true })).toBeVisible();
      await expect(figure.getByText(`${fields.role}, ${fields.organisation}`, { exact: true })).toBeVisible();

      // Its project's page shows it too, under "What our clients say".
      await home.goto(`/projects/${PROJECT.slug}`);
      const said = projectTestimonials(home).locator("figure", { hasText: fields.quote });
      await expect(said).toBeVisible();
      await expect(said.getByText(fields.person, { exact: true })).toBeVisible();
      // So does the section of the service it names on /services.
      await home.goto("/services");
      await expect(
        home.locator("section[aria-labelledby='group-renewable-and-grid-integration']").getByText(fields.quote, {
          exact: false,
        }),
      ).toBeVisible();
      // Another project's page does not.
      await home.goto("/projects/hospital-power-resilience");
      await expect(home.locator("figure", { hasText: fields.quote })).toHaveCount(0);

      await trash(page, TESTIMONIALS, id, TESTIMONIAL_TRASH_QUESTION);
      await expect(notice(page, "Moved to the trash, and off the site.")).toBeVisible();
      expect(await listedNames(page, TESTIMONIALS)).not.toContain(name);
      await homeUntil(
        home,
        async (shown) => !(await shown.content()).includes(tag),
        "the home page no longer shows the trashed testimonial",
      );
    } finally {
      await context.close();
    }
  });

  test("an anonymised testimonial, added then published from its page: its description is on the site, its person, role, organisation and logo nowhere", async ({
    page,
    browser,
    pageGuard,
    signIn,
  }) => {
    await signIn(page, "admin");
    // `secret` is in what must never reach a visitor, `tag` in what must.
    const secret = uniqueWord();
    const tag = uniqueWord();
    const fields = {
      quote: `Clear answers to every question the utility's engineers asked, in days rather than weeks (${tag}).`,
      person: `Secretperson ${secret}`,
      role: `Secretrole ${secret}`,
      organisation: `Hidden Transco ${secret}`,
      anonymised: true,
      description: `Head of protection, a state transmission utility in western India (${tag})`,
      logo: 3,
      project: PROJECT.title,
      services: ["Renewable & Grid Integration"],
      industries: ["Utilities"],
      permission: { ...WEBSITE_PERMISSION, covers: ["This website"] },
    };
    const id = await addTestimonial(page, fields, "not yet");
    await expect(notice(page, "The testimonial was added, not published: Publish puts it on the site.")).toBeVisible();
    // Named by its description in the back office, as on the site.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(fields.description);
    await expectStatus(statusBadge(page), "Not published");
    const onTheSite = page.getByRole("region", { name: "On the site" });
    await expect(
      onTheSite.getByText("Ready to publish: the permission is on record and covers this website."),
    ).toBeVisible();
    await onTheSite.getByRole("button", { name: "Publish" }).click();
    await page.waitForURL(`${itemUrl(TESTIMONIALS, id)}?notice=testimonial-shown`);
    await expect(notice(page, "Published: the testimonial is on the site now.")).toBeVisible();
    await expectStatus(statusBadge(page), "Published");

    const { context, page: home } = await visitor(browser, pageGuard);
    try {
      await homeUntil(
        home,
        async (shown) => (await homeTestimonials(shown).locator("figure", { hasText: fields.quote }).count()) === 1,
        "the home page shows the anonymised testimonial",
      );
      const figure = homeTestimonials(home).locator("figure", { hasText: fields.quote });
      await expect(figure.getByText(fields.description, { exact: true })).toBeVisible();
      // No logo: the only picture is the five stars, a picture of words.
      await expect(figure.locator("img")).toHaveCount(0);
      await expect(figure.getByRole("img")).toHaveAccessibleName("Rated 5 out of 5 stars");
      expect(await home.content()).not.toContain(secret);

      await home.goto(`/projects/${PROJECT.slug}`);
      const said = projectTestimonials(home).locator("figure", { hasText: fields.quote });
      await expect(said.getByText(fields.description, { exact: true })).toBeVisible();
      await expect(said.locator("img")).toHaveCount(0);
      expect(await home.content()).not.toContain(secret);

      // Every public address that shows testimonials, or could: the description (and the quote)
      // where it belongs, the secret nowhere, in the body or the headers, as any client reads them.
      const shows = ["/", `/projects/${PROJECT.slug}`, "/services", "/industries", "/api/testimonials"];
      const others = [`/api/projects/${PROJECT.slug}`, "/api/projects", "/rss.xml", "/sitemap.xml", "/robots.txt"];
      for (const path of [...shows, ...others]) {
        const response = await context.request.get(path);
        expect(response.status(), path).toBe(200);
        const body = await response.text();
        expect(body.toLowerCase(), path).not.toContain(secret.toLowerCase());
        expect(JSON.stringify(response.headers()).toLowerCase(), `${path}: headers`).not.toContain(
          secret.toLowerCase(),
        );
        if (shows.includes(path)) expect(body, path).toContain(tag);
      }
      // The API's item carries the quote and the description, and no person at all.
      const api = (await (await context.request.get("/api/testimonials")).json()) as {
        testimonials: { quote: string; description?: string; person?: unknown; projectSlug: string | null }[];
      };
      const item = api.testimonials.find((testimonial) => testimonial.quote === fields.quote);
      expect(item).toMatchObject({ description: fields.description, person: null, projectSlug: PROJECT.slug });

      await trash(page, TESTIMONIALS, id, TESTIMONIAL_TRASH_QUESTION);
      await homeUntil(
        home,
        async (shown) => !(await shown.content()).includes(tag),
        "the home page no longer shows the trashed testimonial",
      );
      expect(await publicText(context.request, "/api/testimonials")).not.toContain(tag);
    } finally {
      await context.close();
    }
  });

  test("Withdraw takes a published testimonial off the home page and its project's page within the content poll", async ({
    page,
    browser,
    pageGuard,
    signIn,
  }) => {
    await signIn(page, "publisher");
    const tag = uniqueWord();
    const fields = {
      quote: `The relay settings they proposed held through the monsoon's faults without one nuisance trip (${tag}).`,
      person: `Meher ${tag}`,
      role: "Protection Engineer",
      organisation: `Western Grid Works ${tag}`,
      project: PROJECT.title,
      permission: WEBSITE_PERMISSION,
    };
    const id = await addTestimonial(page, fields, "at once");
    const { context, page: home } = await visitor(browser, pageGuard);
    try {
      await homeUntil(
        home,
        async (shown) => (await homeTestimonials(shown).locator("figure", { hasText: fields.quote }).count()) === 1,
        "the home page shows the published testimonial",
      );

      // Withdraw, with the keyboard: the page's button, focused and pressed.
      await page.goto(itemUrl(TESTIMONIALS, id));
      const withdraw = page.getByRole("region", { name: "On the site" }).getByRole("button", { name: "Withdraw" });
      await withdraw.focus();
      await page.keyboard.press("Enter");
      await page.waitForURL(`${itemUrl(TESTIMONIALS, id)}?notice=testimonial-hidden`);
      await expect(notice(page, "Withdrawn: the testimonial is no longer on any page.")).toBeVisible();
      await expectStatus(statusBadge(page), "Not published");
      await expect(
        page.getByRole("region", { name: "On the site" }).getByRole("button", { name: "Publish" }),
      ).toBeVisible();

      await homeUntil(
        home,
        async (shown) => !(await shown.content()).includes(tag),
        `the home page no longer shows the withdrawn testimonial within ${SEEN_WITHIN} ms`,
      );
      expect(await publicText(context.request, "/")).not.toContain(tag);
      expect(await publicText(context.request, `/projects/${PROJECT.slug}`)).not.toContain(tag);
      expect(await publicText(context.request, "/api/testimonials")).not.toContain(tag);

      // The list says so too.
      await page.goto(listUrl(TESTIMONIALS));
      await expectStatus(
        rowOf(page, TESTIMONIALS, `${fields.person}, ${fields.organisation}`).locator("[data-item-status]"),
        "Not published",
      );
      await trash(page, TESTIMONIALS, id, TESTIMONIAL_TRASH_QUESTION);
    } finally {
      await context.close();
    }
  });

  test("Publish without the client's permission is refused: the page lists what is missing and the testimonial stays off the site", async ({
    page,
    browser,
    pageGuard,
    signIn,
  }) => {
    // The refused Publish is a 409 page, the refused Save a 422 one.
    pageGuard.allow(/status of 409/);
    pageGuard.allow(/status of 422/);
    await signIn(page, "admin");
    const tag = uniqueWord();
    const fields = {
      quote: `They found the one setting that would have tripped the whole pooling station (${tag}).`,
      person: `Nirav ${tag}`,
      organisation: `Kutch Pooling Co ${tag}`,
    };
    const name = `${fields.person}, ${fields.organisation}`;

    // "Publish at once" with no permission: refused, nothing added.
    await page.goto(`${listUrl(TESTIMONIALS)}/new`);
    const newForm = page.getByRole("form", { name: "New testimonial" });
    await newForm.getByLabel("Quote", { exact: true }).fill(fields.quote);
    await newForm.getByLabel("Person", { exact: true }).fill(fields.person);
    await newForm.getByLabel("Organisation", { exact: true }).fill(fields.organisation);
    await newForm.getByRole("radio", { name: "Publish at once" }).check();
    await newForm.getByRole("button", { name: "Add a testimonial" }).click();
    await expect(
      newForm
        .getByRole("alert")
        .filter({ hasText: /^This testimonial cannot be published yet: Say who gave permission\./ }),
    ).toBeVisible();
    await expect(newForm.getByLabel("Quote", { exact: true })).toHaveValue(fields.quote);
    await page.goto(listUrl(TESTIMONIALS));
    await expect(rowOf(page, TESTIMONIALS, name)).toHaveCount(0);

    const id = await addTestimonial(page, fields, "not yet");
    const checklist = page.locator("[data-publish-checklist]");
    const missing = [
      "Say who gave permission.",
      "Give the date permission was given.",
      "Choose what the permission covers.",
      "Give a date to review the permission.",
    ];
    await expect(page.getByText("Before it can be published", { exact: true })).toBeVisible();
    await expect(checklist.getByRole("listitem")).toHaveText(missing);

    // Publish, refused: the reasons in words, at the top and in the checklist; still not published.
    const onTheSite = page.getByRole("region", { name: "On the site" });
    await onTheSite.getByRole("button", { name: "Publish" }).click();
    await expect(page.getByRole("alert")).toHaveText(`This testimonial cannot be published yet: ${missing.join(" ")}`);
    await expect(checklist.getByRole("listitem")).toHaveText(missing);
    await expectStatus(statusBadge(page), "Not published");
    await expect(onTheSite).toContainText("Not published: not on the site.");
    await expectNoAxeViolations(page, "a refused Publish");

    // A permission for proposals alone is complete, and still not enough for this website.
    const form = page.getByRole("form", { name: "Testimonials" });
    await fillPermission(form, { ...WEBSITE_PERMISSION, covers: ["Proposals"] });
    await form.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(`${itemUrl(TESTIMONIALS, id)}?notice=testimonial-saved-hidden`);
    await expect(checklist.getByRole("listitem")).toHaveText([
      "The permission must cover this website to be shown here.",
    ]);
    await page.getByRole("region", { name: "On the site" }).getByRole("button", { name: "Publish" }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "This testimonial cannot be published yet: The permission must cover this website to be shown here.",
    );
    await expectStatus(statusBadge(page), "Not published");

    await page.goto(listUrl(TESTIMONIALS));
    await expectStatus(rowOf(page, TESTIMONIALS, name).locator("[data-item-status]"), "Not published");

    // Never published, so on no public page.
    const { context } = await visitor(browser, pageGuard);
    try {
      expect(await publicText(context.request, "/")).not.toContain(tag);
      expect(await publicText(context.request, "/api/testimonials")).not.toContain(tag);
    } finally {
      await context.close();
    }
    await trash(page, TESTIMONIALS, id, TESTIMONIAL_TRASH_QUESTION);
  });

  test("two client logos, published and moved with the keyboard, are in that order in the home page's row; trashed, they leave it", async ({
    page,
    browser,
    pageGuard,
    signIn,
  }) => {
    await signIn(page, "admin");
    const tag = uniqueWord();
    const first = `Alpha Grid ${tag}`;
    const second = `Beta Power ${tag}`;
    const firstId = await addLogo(page, first, 1, "at once");
    await expect(notice(page, "The logo was added and is on the home page now.")).toBeVisible();
    await expectStatus(statusBadge(page), "Published");
    const secondId = await addLogo(page, second, 2, "at once");
    await expectStatus(statusBadge(page), "Published");

    const { context, page: home } = await visitor(browser, pageGuard);
    /** The alternative texts of the home page's logos that are this test's, first to last. */
    const ours = async (shown: Page): Promise<string[]> =>
      (
        await shown
          .locator("section", { has: shown.getByRole("heading", { name: "Trusted by" }) })
          .getByRole("img")
          .evaluateAll((images) => images.map((image) => image.getAttribute("alt") ?? ""))
      ).filter((alt) => alt.endsWith(tag));
    try {
      await homeUntil(
        home,
        async (shown) => (await ours(shown)).join() === [first, second].join(),
        "the home page's row shows the two logos in the order they were added",
      );

      // The second one above the first with Move up, by the keyboard alone: each Enter swaps it
      // with the one above, and the focus is on its button again (on Move down once at the top).
      // (Added one after the other, one press; while another test adds or moves logos, more.)
      await page.goto(listUrl(CLIENT_LOGOS));
      let names = await listedNames(page, CLIENT_LOGOS);
      expect(names.indexOf(first)).toBeGreaterThanOrEqual(0);
      expect(names.indexOf(first)).toBeLessThan(names.indexOf(second));
      await rowOf(page, CLIENT_LOGOS, second)
        .getByRole("button", { name: `Move up ${second}` })
        .focus();
      while (names.indexOf(second) > names.indexOf(first)) {
        const above = names[names.indexOf(second) - 1]!;
        await page.keyboard.press("Enter");
        await page.waitForURL(new RegExp(`notice=client-logos-moved&focus=up-${secondId}$`));
        await expect(notice(page, "Moved. The home page shows the new order now.")).toBeVisible();
        const place = Number(await rowOf(page, CLIENT_LOGOS, second).locator("[data-team-position]").innerText());
        await expect(rowOf(page, CLIENT_LOGOS, above).locator("[data-team-position]")).toHaveText(String(place + 1));
        await expect(
          rowOf(page, CLIENT_LOGOS, second).getByRole("button", {
            name: place === 1 ? `Move down ${second}` : `Move up ${second}`,
          }),
        ).toBeFocused();
        names = await listedNames(page, CLIENT_LOGOS);
      }
      expect(names.indexOf(second)).toBe(names.indexOf(first) - 1);

      await homeUntil(
        home,
        async (shown) => (await ours(shown)).join() === [second, first].join(),
        "the home page's row shows the new order",
      );
      const row = home.locator("section", { has: home.getByRole("heading", { name: "Trusted by" }) });
      await expect(row.getByRole("img", { name: second, exact: true })).toBeVisible();
      await expect(row.getByRole("img", { name: first, exact: true })).toBeVisible();

      await trash(page, CLIENT_LOGOS, secondId, LOGO_TRASH_QUESTION);
      await expect(notice(page, "Moved to the trash, and off the site.")).toBeVisible();
      await homeUntil(
        home,
        async (shown) => (await ours(shown)).join() === first,
        "the home page's row shows the one logo left",
      );
      await trash(page, CLIENT_LOGOS, firstId, LOGO_TRASH_QUESTION);
      await homeUntil(home, async (shown) => (await ours(shown)).length === 0, "the home page shows neither logo");
      // With none published the home page has no row at all: the integration tests hold that
      // (testimonials-admin.test.ts); here another file's logos may be published meanwhile.
    } finally {
      await context.close();
    }
  });

  for (const kind of [TESTIMONIALS, CLIENT_LOGOS])
    test(`the ${kind.listLabel.toLowerCase()} list, an item's page and a new one at 375 and 1280 px: no axe violations, no sideways overflow, photographed`, async ({
      page,
      signIn,
    }) => {
      test.setTimeout(180_000);
      await signIn(page, "admin");
      const tag = uniqueWord();
      // Not published: the public pages do not change. A testimonial with long words and an
      // incomplete permission (its checklist shown), a logo ready to publish.
      const id =
        kind === TESTIMONIALS
          ? await addTestimonial(
              page,
              {
                quote: `Their harmonic study of our drive-heavy plant measured, modelled and specified the filter that ended months of nuisance trips on the 11 kV feeders (${tag}).`,
                person: `Venkataraghavan ${tag}`,
                role: "General Manager, Electrical Maintenance and Reliability",
                organisation: `Saurashtra Cement and Chemicals Limited ${tag}`,
                logo: 1,
                project: PROJECT.title,
                permission: { by: "Venkataraghavan, by email", covers: ["Proposals"] },
              },
              "not yet",
            )
          : await addLogo(page, `Gujarat Energy Transmission Corporation Limited ${tag}`, 1, "not yet");
      const pages = [
        { name: "list", url: listUrl(kind) },
        { name: "item", url: itemUrl(kind, id) },
        { name: "new", url: `${listUrl(kind)}/new` },
      ];
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        for (const entry of pages) {
          await page.goto(entry.url);
          if (entry.name === "list") await page.locator("tbody[data-team-order-ready=true]").waitFor();
          const where = `${kind.plural} ${entry.name} at ${width} px`;
          await expectNoAxeViolations(page, where);
          await expectNoOverflow(page, where);
          await photograph(page, `${kind.plural}-${entry.name}-${width}`);
        }
      }
      await trash(page, kind, id, kind === TESTIMONIALS ? TESTIMONIAL_TRASH_QUESTION : LOGO_TRASH_QUESTION);
    });
});
