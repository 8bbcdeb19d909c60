import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlogPostSummary, Project, TeamMember } from "#shared/api-types.ts";
import { enquiryReference } from "#server/db/contact-repository.ts";
import { bumpContentVersion } from "#server/content/data-version.ts";
import { contactSubmissions, teamMembers } from "#server/db/schema.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { testDrivers } from "../../../test/databases.ts";

const validEnquiry = {
  firstName: "Asha",
  lastName: "Patel",
  email: "asha.patel@example.com",
  company: "Kutch Solar Park Pvt Ltd",
  service: "grid-integration",
  message: "We need a grid connectivity study for a 120 MW solar plant at a 220 kV GETCO substation.",
};

describe.each(testDrivers)("API on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(driver);
  });
  afterAll(async () => {
    await t.close();
  });

  describe("GET /api/team-members", () => {
    it("lists the team sorted by order", async () => {
      const response = await t.app.inject({ method: "GET", url: "/api/team-members" });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toMatch(/application\/json/);
      const members = response.json<TeamMember[]>();
      expect(members.length).toBeGreaterThanOrEqual(6);
      const orders = members.map((member) => member.order);
      expect(orders).toEqual([...orders].sort((a, b) => a - b));
      for (const member of members) {
        expect(member).toMatchObject({
          id: expect.any(String),
          name: expect.any(String),
          imageUrl: expect.stringMatching(/^\/images\//),
        });
      }
    });
  });

  describe("GET /api/projects", () => {
    it("lists every project, newest year first, each with a unique slug", async () => {
      const response = await t.app.inject({ method: "GET", url: "/api/projects" });
      expect(response.statusCode).toBe(200);
      const projects = response.json<Project[]>();
      expect(projects.length).toBeGreaterThanOrEqual(6);
      const years = projects.map((project) => project.year);
      expect(years).toEqual([...years].sort().reverse());
      expect(new Set(projects.map((project) => project.slug)).size).toBe(projects.length);
      const renewables = projects.filter((project) => project.category === "Renewable Energy");
      expect(renewables.length).toBeGreaterThan(0);
      for (const project of renewables) {
        expect(project.capacity).toBeTruthy();
        expect(project.timeline).toBeTruthy();
      }
    });
  });

  describe("GET /api/blog-posts", () => {
    it("lists published posts newest first with the fields the pages read", async () => {
      const response = await t.app.inject({ method: "GET", url: "/api/blog-posts" });
      expect(response.statusCode).toBe(200);
      const posts = response.json<BlogPostSummary[]>();
      expect(posts.length).toBeGreaterThanOrEqual(9);
      for (const post of posts) {
        expect(Object.keys(post).sort()).toEqual([
          "category",
          "excerpt",
          "id",
          "image",
          "imageUrl",
          "publishedAt",
          "slug",
          "title",
        ]);
        expect(Number.isNaN(Date.parse(post.publishedAt))).toBe(false);
      }
      const times = posts.map((post) => Date.parse(post.publishedAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(new Set(posts.map((post) => post.category)).size).toBeGreaterThanOrEqual(4);
      expect(posts.some((post) => post.category === "Renewable Energy")).toBe(true);
    });
  });

  describe("kept answers", () => {
    it("serves a repeated read from memory, compressed both ways with an ETag, until the content version moves", async () => {
      for (const url of [
        "/api/blog-posts",
        "/api/team-members",
        "/api/projects",
        "/api/blog-posts/arc-flash-studies-ieee-1584-2018",
      ]) {
        const plain = await t.app.inject({ method: "GET", url });
        expect(plain.statusCode, url).toBe(200);
        expect(plain.headers["content-encoding"], url).toBeUndefined();
        expect(plain.headers.vary, url).toMatch(/Accept-Encoding/);
        expect(plain.headers.etag, url).toMatch(/^W\/".+"$/);
        const br = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip, deflate, br" } });
        expect(br.headers["content-encoding"], url).toBe("br");
        expect(brotliDecompressSync(br.rawPayload).toString(), url).toBe(plain.body);
        const gzip = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip" } });
        expect(gzip.headers["content-encoding"], url).toBe("gzip");
        expect(gunzipSync(gzip.rawPayload).toString(), url).toBe(plain.body);
        const again = await t.app.inject({
          method: "GET",
          url,
          headers: { "if-none-match": String(plain.headers.etag) },
        });
        expect(again.statusCode, url).toBe(304);
      }
      // A row changed without a content sync is not seen: the answer comes from memory...
      const before = await t.app.inject({ method: "GET", url: "/api/team-members" });
      await t.database.db.update(teamMembers).set({ title: "Head of Kept Answers" }).where(eq(teamMembers.order, 1));
      expect((await t.app.inject({ method: "GET", url: "/api/team-members" })).body).toBe(before.body);
      // ...until the sync's last step moves the version, which every instance polls.
      await bumpContentVersion(t.database.db);
      await expect
        .poll(async () => (await t.app.inject({ method: "GET", url: "/api/team-members" })).body, { timeout: 15_000 })
        .toContain("Head of Kept Answers");
      expect((await t.app.inject({ method: "GET", url: "/api/team-members" })).headers.etag).not.toBe(
        before.headers.etag,
      );
    });

    it("answers a made-up slug 404 every time, the repeats from memory as well", async () => {
      for (let i = 0; i < 3; i++) {
        const response = await t.app.inject({ method: "GET", url: "/api/blog-posts/no-such-article" });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({
          error: "Not Found",
          message: "There is no article at /api/blog-posts/no-such-article.",
        });
      }
    });
  });

  describe("POST /api/contact", () => {
    it("stores a valid enquiry and answers 201 with its reference alone", async () => {
      const response = await t.app.inject({ method: "POST", url: "/api/contact", payload: validEnquiry });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toEqual({ reference: expect.stringMatching(/^ENQ-[0-9A-F]{8}$/) });
      const rows = await t.database.db
        .select()
        .from(contactSubmissions)
        .where(eq(contactSubmissions.email, validEnquiry.email));
      const stored = rows.filter((row) => enquiryReference(row.id) === body.reference);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ firstName: "Asha", email: validEnquiry.email, service: "grid-integration" });
    });

    it("stores an enquiry without the optional company and service as nulls, trimming text", async () => {
      const { company: _c, service: _s, ...required } = validEnquiry;
      const response = await t.app.inject({
        method: "POST",
        url: "/api/contact",
        payload: { ...required, firstName: "  Ravi ", company: "", service: "" },
      });
      expect(response.statusCode).toBe(201);
      const [row] = await t.database.db
        .select()
        .from(contactSubmissions)
        .where(eq(contactSubmissions.firstName, "Ravi"));
      expect(row).toMatchObject({ firstName: "Ravi", company: null, service: null });
    });

    const long = (n: number) => "x".repeat(n);
    const badEnquiries: [string, Record<string, unknown>, string][] = [
      ["first name missing", { ...validEnquiry, firstName: undefined }, "firstName"],
      ["first name blank", { ...validEnquiry, firstName: "   " }, "firstName"],
      ["last name missing", { ...validEnquiry, lastName: undefined }, "lastName"],
      ["email missing", { ...validEnquiry, email: undefined }, "email"],
      ["message missing", { ...validEnquiry, message: undefined }, "message"],
      ["email not an address", { ...validEnquiry, email: "asha at example" }, "email"],
      ["first name too long", { ...validEnquiry, firstName: long(101) }, "firstName"],
      ["last name too long", { ...validEnquiry, lastName: long(101) }, "lastName"],
      ["email too long", { ...validEnquiry, email: `${long(250)}@example.com` }, "email"],
      ["company too long", { ...validEnquiry, company: long(201) }, "company"],
      ["message too long", { ...validEnquiry, message: long(5001) }, "message"],
      ["first name a number", { ...validEnquiry, firstName: 42 }, "firstName"],
      ["message an object", { ...validEnquiry, message: { text: "hi" } }, "message"],
      ["company an array", { ...validEnquiry, company: ["a"] }, "company"],
      ["unknown service", { ...validEnquiry, service: "nuclear-fusion" }, "service"],
    ];

    it.each(badEnquiries)("answers 400 naming the field when %s", async (_name, payload, field) => {
      const before = await t.database.db.$count(contactSubmissions);
      const response = await t.app.inject({ method: "POST", url: "/api/contact", payload });
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.error).toBe("Bad Request");
      expect(Object.keys(body.fields)).toContain(field);
      expect(body.fields[field]).toEqual(expect.any(String));
      expect(await t.database.db.$count(contactSubmissions)).toBe(before);
    });

    it("answers 400 with a clear message for malformed JSON", async () => {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/contact",
        headers: { "content-type": "application/json" },
        payload: '{"firstName": "Asha",',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: "Bad Request", message: "The body is not valid JSON." });
    });

    it("answers 400 for an empty JSON body and for a body that is not an object", async () => {
      const empty = await t.app.inject({
        method: "POST",
        url: "/api/contact",
        headers: { "content-type": "application/json" },
        payload: "",
      });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toMatch(/empty/);
      for (const payload of ["[]", '"hello"', "null", "42"]) {
        const response = await t.app.inject({
          method: "POST",
          url: "/api/contact",
          headers: { "content-type": "application/json" },
          payload,
        });
        expect(response.statusCode, payload).toBe(400);
        expect(response.json().message).toMatch(/JSON object/);
      }
    });

    it("answers 415 for a content type it does not accept", async () => {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/contact",
        headers: { "content-type": "text/plain" },
        payload: "hello",
      });
      expect(response.statusCode).toBe(415);
      expect(response.json().message).toMatch(/application\/json/);
    });

    it("answers 413 for a body over the limit", async () => {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/contact",
        payload: { ...validEnquiry, message: long(t.config.bodyLimitBytes + 10) },
      });
      expect(response.statusCode).toBe(413);
      expect(response.json().message).toMatch(/limit/);
    });
  });

  it("answers unknown API paths with 404 JSON, whatever the method", async () => {
    for (const method of ["GET", "POST", "DELETE"] as const) {
      for (const path of ["/api/nothing-here", "/api"]) {
        const response = await t.app.inject({ method, url: `${path}?x=1` });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error: "Not Found", message: `There is no API endpoint ${method} ${path}.` });
      }
    }
  });
});
