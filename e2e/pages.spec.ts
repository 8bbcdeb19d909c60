import { expect, test } from "./fixtures.ts";

test.describe("home", () => {
  test("has the spec's sections in order, with 3 team members, 2 projects and 3 articles", async ({ page }) => {
    await page.goto("/");
    await page.locator("html[data-hydrated=true]").waitFor();
    await expect(page.getByRole("link", { name: "Request Consultation" }).first()).toHaveAttribute("href", "/contact");
    await expect(page.getByRole("link", { name: "View Our Services" })).toHaveAttribute("href", "/services");
    const headings = await page.locator("main h2").allTextContents();
    const order = ["Core Services", "Fifteen years", "Meet Our Leadership", "Featured Projects", "What Our Clients Say", "Industry Insights"];
    const positions = order.map((text) => headings.findIndex((heading) => heading.startsWith(text)));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);

    const services = page.locator("section", { has: page.getByRole("heading", { name: "Core Services" }) });
    for (const name of ["Grid Integration", "Renewable Energy Solutions", "System Design", "Reliability Analysis", "Regulatory Compliance", "Performance Optimization"]) {
      await expect(services.getByRole("link", { name: new RegExp(`^${name}`) })).toHaveAttribute("href", "/services");
    }
    const about = page.locator("section", { has: page.getByRole("heading", { name: /^Fifteen years/ }) });
    for (const stat of ["15+", "200+", "95%", "25+"]) await expect(about.getByText(stat, { exact: true })).toBeVisible();

    await expect(page.locator("section", { has: page.getByRole("heading", { name: "Meet Our Leadership" }) }).getByRole("article")).toHaveCount(3);
    const projects = page.locator("section", { has: page.getByRole("heading", { name: "Featured Projects" }) });
    await expect(projects.getByRole("article")).toHaveCount(2);
    await expect(projects.getByRole("link", { name: "View All Projects" })).toHaveAttribute("href", "/projects");
    await expect(projects.getByRole("link", { name: "View Project" }).first()).toHaveAttribute("href", /^\/projects\/[a-z0-9-]+$/);
    const testimonials = page.locator("section", { has: page.getByRole("heading", { name: "What Our Clients Say" }) });
    await expect(testimonials.getByRole("img", { name: "Rated 5 out of 5 stars" })).toHaveCount(3);
    const insights = page.locator("section", { has: page.getByRole("heading", { name: "Industry Insights" }) });
    await expect(insights.getByRole("article")).toHaveCount(3);
    await expect(insights.getByRole("link", { name: "View All Articles" })).toHaveAttribute("href", "/blog");
    await expect(insights.getByRole("link", { name: "Read More" }).first()).toHaveAttribute("href", /^\/blog\/[a-z0-9-]+$/);
  });

  test("renders its lists only once their data is there", async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/team-members", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/services");
    await page.locator("html[data-hydrated=true]").waitFor();
    await page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Home" }).click();
    const team = page.locator("section", { has: page.getByRole("heading", { name: "Meet Our Leadership" }) });
    await expect(team.getByRole("heading", { name: "Meet Our Leadership" })).toBeVisible();
    await expect(team.getByRole("article")).toHaveCount(0);
    release();
    await expect(team.getByRole("article")).toHaveCount(3);
  });
});

test("about has the story, mission, vision, values, the whole team and the certifications", async ({ page }) => {
  await page.goto("/about");
  for (const heading of ["Our Mission", "Our Vision", "Our Values", "Our Team", "Certifications & Partnerships"]) {
    await expect(page.getByRole("heading", { name: heading })).toBeVisible();
  }
  for (const value of ["Excellence", "Collaboration", "Innovation"]) await expect(page.getByRole("heading", { name: value, exact: true })).toBeVisible();
  for (const name of ["IEEE Member", "PE Licensed", "NECA Partner", "ISO Certified"]) await expect(page.getByText(name, { exact: true })).toBeVisible();
  const team = page.locator("section", { has: page.getByRole("heading", { name: "Our Team" }) }).getByRole("article");
  expect(await team.count()).toBeGreaterThanOrEqual(6);
  await expect(team.first().getByRole("link", { name: /^Email / })).toHaveAttribute("href", /^mailto:/);
});

test("services lists 29 studies and calls to action", async ({ page }) => {
  await page.goto("/services");
  await expect(page.getByRole("heading", { level: 1, name: "Power System Studies" })).toBeVisible();
  await expect(page.locator("main h3").filter({ hasNot: page.locator("span") })).toHaveCount(29);
  await expect(page.getByRole("link", { name: "Schedule Consultation" })).toHaveAttribute("href", "/contact");
  await expect(page.getByRole("link", { name: "View Our Work" })).toHaveAttribute("href", "/projects");
});

test("industries has four industries with services, projects and a button, the stats and the cross-industry cards", async ({ page }) => {
  await page.goto("/industries");
  for (const [value, label] of [["50+", "Utility Partners"], ["2GW+", "Renewable Capacity"], ["100+", "Industrial Projects"], ["500+", "Commercial Clients"]]) {
    await expect(page.getByText(value!, { exact: true })).toBeVisible();
    await expect(page.getByText(label!, { exact: true })).toBeVisible();
  }
  for (const industry of ["Utilities", "Renewables", "Industrial", "Commercial"]) {
    const section = page.locator("section", { has: page.getByRole("heading", { level: 2, name: industry, exact: true }) });
    await expect(section.getByRole("heading", { name: "Key Services" })).toBeVisible();
    await expect(section.getByRole("heading", { name: "Recent Projects" })).toBeVisible();
    await expect(section.getByRole("link", { name: "Discuss Your Project" })).toHaveAttribute("href", "/contact");
  }
  await expect(page.getByRole("heading", { name: "Cross-Industry Expertise" })).toBeVisible();
  await expect(page.getByRole("link", { name: "View Our Projects" })).toHaveAttribute("href", "/projects");
});

test.describe("projects", () => {
  test("lists every project with the badge rule, filters by category, and links each to its page", async ({ page, request }) => {
    const all = (await (await request.get("/api/projects")).json()) as { slug: string; category: string; title: string }[];
    await page.goto("/projects");
    await page.locator("html[data-hydrated=true]").waitFor();
    const cards = page.locator("main article");
    await expect(cards).toHaveCount(all.length);
    for (const project of all) {
      const card = cards.filter({ has: page.getByRole("heading", { name: project.title, exact: true }) });
      await expect(card.locator("[data-badge]")).toHaveAttribute("data-badge", project.category === "Renewable Energy" ? "green" : "blue");
      await expect(card.getByRole("link", { name: "View Project" })).toHaveAttribute("href", `/projects/${project.slug}`);
    }
    await page.getByRole("list", { name: "Filter projects by category" }).getByRole("link", { name: "Renewable Energy" }).click();
    await expect(cards).toHaveCount(all.filter((project) => project.category === "Renewable Energy").length);
  });

  test("each project has a page with its facts, related work and a call to action; an unknown one is 404", async ({ page, pageGuard }) => {
    pageGuard.allow(/status of 404/);
    await page.goto("/projects/kutch-solar-park-grid-connection");
    await expect(page.getByRole("heading", { level: 1, name: "300 MW Solar Park Grid Connection, Kutch" })).toBeVisible();
    for (const fact of ["Year", "Capacity", "Timeline"]) await expect(page.locator("main dt", { hasText: fact }).first()).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Projects");
    await expect(page.getByRole("heading", { name: "Related Projects" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Discuss Your Project" }).first()).toHaveAttribute("href", "/contact");
    const missing = await page.goto("/projects/no-such-project");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
  });
});

test.describe("articles", () => {
  test("an article shows its facts, byline, contents, body, related articles and the way back", async ({ page }) => {
    await page.goto("/blog/ieee-519-harmonics-at-a-vfd-heavy-plant");
    await page.locator("html[data-hydrated=true]").waitFor();
    await expect(page.locator("header time")).toHaveText("June 18, 2025");
    await expect(page.getByText(/^\d+ min read$/)).toBeVisible();
    await expect(page.locator("article [data-badge]").first()).toHaveText("Power Quality");
    const byline = page.getByRole("link", { name: "Neha Shah" });
    await expect(byline).toHaveAttribute("href", "/about#team-neha-shah");
    const contents = page.getByRole("navigation", { name: "In this article" });
    const firstEntry = contents.getByRole("link").first();
    const target = (await firstEntry.getAttribute("href"))!;
    await expect(page.locator(`.article-body ${target}`)).toHaveCount(1);
    await expect(page.locator(".article-body table")).toHaveCount(1);
    await expect(page.getByRole("heading", { name: "Related Articles" })).toBeVisible();
    await page.getByRole("link", { name: "Back to Insights" }).click();
    await expect(page).toHaveURL(/\/blog$/);
  });

  test("the byline leads to the author on the About page", async ({ page }) => {
    await page.goto("/blog/arc-flash-studies-ieee-1584-2018");
    await page.locator("html[data-hydrated=true]").waitFor();
    await page.getByRole("link", { name: "Anil Patel" }).click();
    await expect(page).toHaveURL(/\/about#team-anil-patel$/);
    // Scrolled to the entry, as a full page load would be, not left at the top of the About page.
    await expect(page.locator("#team-anil-patel")).toBeInViewport();
  });

  test("Read More on the blog opens the article; an unknown article answers 404", async ({ page, pageGuard }) => {
    pageGuard.allow(/status of 404/);
    await page.goto("/blog");
    await page.locator("html[data-hydrated=true]").waitFor();
    const first = page.getByTestId("article-grid").getByRole("article").first();
    const title = (await first.getByRole("heading").textContent())!;
    await first.getByRole("link", { name: "Read More" }).click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    const missing = await page.goto("/blog/no-such-article");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
  });
});

test("the sitemap, robots.txt and the RSS feed are well formed and list what they should", async ({ page, request }) => {
  await page.goto("/");
  const parse = (xml: string) =>
    page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, "application/xml");
      return {
        error: doc.querySelector("parsererror")?.textContent ?? null,
        locs: [...doc.querySelectorAll("url > loc")].map((node) => node.textContent),
        lastmods: doc.querySelectorAll("url > lastmod").length,
        items: [...doc.querySelectorAll("item > link")].map((node) => node.textContent),
        encoded: [...doc.getElementsByTagNameNS("http://purl.org/rss/1.0/modules/content/", "encoded")].map((node) => node.textContent?.length ?? 0),
      };
    }, xml);
  const posts = (await (await request.get("/api/blog-posts")).json()) as { slug: string }[];
  const sitemap = await parse(await (await request.get("/sitemap.xml")).text());
  expect(sitemap.error).toBeNull();
  for (const path of ["/", "/about", "/services", "/industries", "/projects", "/blog", "/contact"]) {
    expect(sitemap.locs.some((loc) => loc && new URL(loc).pathname === path)).toBe(true);
  }
  for (const post of posts) expect(sitemap.locs.some((loc) => loc?.endsWith(`/blog/${post.slug}`))).toBe(true);
  expect(sitemap.lastmods).toBe(sitemap.locs.length);
  const rss = await parse(await (await request.get("/rss.xml")).text());
  expect(rss.error).toBeNull();
  expect(rss.items).toHaveLength(posts.length);
  expect(Math.min(...rss.encoded)).toBeGreaterThan(1000);
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toMatch(/^Sitemap: http:\/\/.+\/sitemap\.xml$/m);
});

test("every icon and the manifest a page links are served, and /favicon.ico too", async ({ page, request }) => {
  await page.goto("/");
  const linked = await page.locator('link[rel="icon"], link[rel="apple-touch-icon"], link[rel="manifest"]').evaluateAll((links) =>
    links.map((link) => link.getAttribute("href") ?? ""),
  );
  expect(linked).toContain("/favicon.ico");
  for (const href of linked) {
    const response = await request.get(href);
    expect(response.status(), href).toBe(200);
    expect(response.headers()["content-type"], href).toMatch(/^(image\/|application\/manifest\+json)/);
  }
  const manifest = (await (await request.get("/site.webmanifest")).json()) as { icons: { src: string }[] };
  for (const icon of manifest.icons) expect((await request.get(icon.src)).status(), icon.src).toBe(200);
});
