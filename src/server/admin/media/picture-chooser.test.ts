import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";
import type { PictureChoicesAnswer } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import type { ArticleDocument, ProjectDocument } from "#shared/content/documents.ts";
import { media } from "../../db/schema.ts";
import { mediaChoices, pictureName } from "../../media/media-choices.ts";
import { articleChecklist, bodyPictureWarnings, projectChecklist } from "../studio/checklist.ts";
import { uniqueEmail } from "../studio/studio-test-kit.ts";

// The picture chooser's list (/admin/api/media/choices, src/web/admin/media/picture-chooser.ts)
// on both databases: 48 pictures a page whatever the library holds, newest first, searched by
// alt text and file name with LIKE's wildcards taken literally, only pictures content may use,
// for staff only, from the back office's own pages only, and a 400 naming the parameter at fault.
// Then the publish checklist: a library picture named by another form of its address is among
// the site's pictures (no warning), a foreign address still is not.

const PICTURES = 60;
const anArticle = (imageUrl: string): ArticleDocument => ({
  title: "Harmonics",
  slug: "harmonics",
  excerpt: "Short.",
  category: "Power quality",
  author: "",
  imageUrl,
  imageAlt: "A spectrum",
  publishedAt: "",
  body: "Text.",
});
const aProject = (imageUrl: string): ProjectDocument => ({
  slug: "a-plant",
  title: "A plant",
  description: "A study.",
  category: "Industrial",
  imageUrl,
  year: "2024",
  capacity: null,
  timeline: null,
});
/** A key of 16 hex digits from a number. */
const keyOf = (n: number) => `c0ffee${String(n).padStart(10, "0")}`;

describe.each(testDrivers)("the picture chooser's list on %s", (driver) => {
  let t: AdminTestApp;
  let member: StaffWithSession;
  const start = new Date("2026-11-01T00:00:00Z").getTime();
  beforeAll(async () => {
    t = await buildAdminTestApp(driver);
    member = await staffWithSession(t, { email: uniqueEmail("ravi"), name: "Ravi Desai", role: "staff" });
    // Sixty pictures offered to content, one a minute (n = 59 the newest), and one still needing alt text.
    await t.database.db.insert(media).values([
      ...Array.from({ length: PICTURES }, (_, n) => ({
        key: keyOf(n),
        fileName: `site-photo-${n}.jpg`,
        format: "jpeg",
        width: 1200,
        height: 800,
        uploadedBytes: 1000,
        alt: n === 7 ? "A 100% rated_switchboard" : `Substation bay number ${n}`,
        decorative: false,
        createdAt: new Date(start + n * 60_000),
        createdByLabel: "test",
      })),
      {
        key: keyOf(999),
        fileName: "not-described.jpg",
        format: "jpeg",
        width: 640,
        height: 480,
        uploadedBytes: 1000,
        alt: "",
        decorative: false,
        createdAt: new Date(start + 3_600_000),
        createdByLabel: "test",
      },
      {
        key: keyOf(1000),
        fileName: "ieee-519-harmonics-at-a-vfd-heavy-plant.png",
        format: "png",
        width: 1600,
        height: 900,
        uploadedBytes: 1000,
        alt: "Harmonic spectrum measured at a drive-heavy plant",
        decorative: false,
        sourcePath: "/images/articles/ieee-519-harmonics-at-a-vfd-heavy-plant.svg",
        createdAt: new Date(start - 60_000),
        createdByLabel: "content files",
      },
    ]);
  });
  afterAll(async () => {
    await t.close();
  });

  const list = (query: string, headers: Record<string, string> = {}, signedIn = true) =>
    t.send({
      method: "GET",
      url: `${adminHref("mediaChoicesApi")}${query}`,
      cookie: signedIn ? member.cookie : undefined,
      headers,
    });

  it("answers 48 pictures a page, newest first, each with its name, alt text, thumbnail and reference", async () => {
    const first = await list("");
    expect(first.statusCode, first.body).toBe(200);
    const page1 = first.json<PictureChoicesAnswer>();
    expect(page1.items).toHaveLength(48);
    expect(page1).toMatchObject({ page: 1, more: true });
    expect(page1.items.slice(0, 3).map((item) => item.fileName)).toEqual([
      "site-photo-59.jpg",
      "site-photo-58.jpg",
      "site-photo-57.jpg",
    ]);
    expect(page1.items[0]).toEqual({
      mediaId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      src: `/media/${keyOf(59)}/original.jpg`,
      name: "Substation bay number 59",
      alt: "Substation bay number 59",
      decorative: false,
      thumbnail: `/media/${keyOf(59)}/320.webp`,
      fileName: "site-photo-59.jpg",
    });
    // The picture without alt text is not offered.
    expect(page1.items.map((item) => item.fileName)).not.toContain("not-described.jpg");

    const page2 = (await list("?page=2")).json<PictureChoicesAnswer>();
    expect(page2).toMatchObject({ page: 2, more: false });
    // 60 pictures and the one brought in from public/images, after the 48 of page 1; none twice.
    expect(page2.items).toHaveLength(PICTURES + 1 - 48);
    const seen = new Set([...page1.items, ...page2.items].map((item) => item.mediaId));
    expect(seen.size).toBe(PICTURES + 1);
    // The oldest, brought in from public/images: offered by its old address, named by its alt text.
    expect(page2.items.at(-1)).toMatchObject({
      src: "/images/articles/ieee-519-harmonics-at-a-vfd-heavy-plant.svg",
      name: "Harmonic spectrum measured at a drive-heavy plant",
    });
    expect((await list("?page=3")).json<PictureChoicesAnswer>()).toEqual({ items: [], page: 3, more: false });
  });

  it("searches alt text and file names in any case, its wildcards taken literally", async () => {
    const bay = (await list("?q=BAY%20NUMBER%205")).json<PictureChoicesAnswer>();
    expect(bay.items.map((item) => item.name)).toEqual([
      "Substation bay number 59",
      "Substation bay number 58",
      "Substation bay number 57",
      "Substation bay number 56",
      "Substation bay number 55",
      "Substation bay number 54",
      "Substation bay number 53",
      "Substation bay number 52",
      "Substation bay number 51",
      "Substation bay number 50",
      "Substation bay number 5",
    ]);
    const byFile = (await list("?q=site-photo-12.")).json<PictureChoicesAnswer>();
    expect(byFile.items.map((item) => item.fileName)).toEqual(["site-photo-12.jpg"]);
    // "%" and "_" find themselves, not everything.
    expect((await list("?q=100%25")).json<PictureChoicesAnswer>().items.map((item) => item.fileName)).toEqual([
      "site-photo-7.jpg",
    ]);
    expect((await list("?q=d_s")).json<PictureChoicesAnswer>().items.map((item) => item.fileName)).toEqual([
      "site-photo-7.jpg",
    ]);
    expect((await list("?q=harmonic")).json<PictureChoicesAnswer>().items).toHaveLength(1);
    expect((await list("?q=nothing%20like%20it")).json<PictureChoicesAnswer>()).toEqual({
      items: [],
      page: 1,
      more: false,
    });
  });

  it.each([
    ["page 0", "?page=0", "Page must be a number from 1 to 999."],
    ["page 1000", "?page=1000", "Page must be a number from 1 to 999."],
    ["a page in words", "?page=two", "Page must be a number from 1 to 999."],
    ["a page given twice", "?page=1&page=2", "Give page once."],
    ["a search of 101 characters", `?q=${"a".repeat(101)}`, "Search must be at most 100 characters."],
    ["a search with a control character", "?q=bay%00number", "Search must not contain control characters."],
    ["a search given twice", "?q=a&q=b", "Give q once."],
  ])("refuses %s with a 400 naming it", async (_what, query, message) => {
    const response = await list(query);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(message);
  });

  it("is for staff only: without a session, 401", async () => {
    const response = await list("", {}, false);
    expect(response.statusCode).toBe(401);
    expect(response.body).not.toContain("Substation");
  });

  it.each([
    ["another Origin", { origin: "https://evil.example" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site", origin: "https://evil.example" }],
    ["Sec-Fetch-Site: same-site", { "sec-fetch-site": "same-site" }],
  ])("refuses a request from another site (%s) with a 403, even signed in", async (_how, headers) => {
    const response = await list("", headers);
    expect(response.statusCode).toBe(403);
    expect(response.body).not.toContain("Substation");
  });

  it("answers the back office's own page (Sec-Fetch-Site: same-origin, no Origin)", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: adminHref("mediaChoicesApi"),
      headers: { cookie: member.cookie, "sec-fetch-site": "same-origin" },
    });
    expect(response.statusCode).toBe(200);
  });

  describe("the publish checklist", () => {
    const now = new Date("2026-11-30T00:00:00Z");
    const foreignWarning = "is not among the site's pictures";

    it("knows a library picture by another form of its address (older content), and warns of a foreign one", async () => {
      const images = await mediaChoices(t.database.db);
      // Offered by its old address; older content names it by its reference, as a .png or a .jpg.
      const cases: [string, boolean][] = [
        ["/images/articles/ieee-519-harmonics-at-a-vfd-heavy-plant.svg", false],
        [`/media/${keyOf(1000)}/original.png`, false],
        [`/media/${keyOf(1000)}/original.jpg`, false],
        [`/media/${keyOf(12)}/original.jpg`, false],
        // A key the library does not have, and an address elsewhere: warned.
        ["/media/0123456789abcdef/original.png", true],
        ["/images/articles/no-such-picture.svg", true],
      ];
      for (const [imageUrl, warned] of cases) {
        const article = await articleChecklist(t.database.db, anArticle(imageUrl), now, images);
        expect(
          article.warnings.some((warning) => warning.includes(foreignWarning)),
          imageUrl,
        ).toBe(warned);
        const project = projectChecklist(aProject(imageUrl), images);
        expect(project.warnings, imageUrl).toEqual(
          warned ? [`The image ${imageUrl} is not among the site's pictures.`] : [],
        );
      }
    });

    it("says which pictures of the body the page will not show, and why; the library's, in any form, pass", async () => {
      const images = await mediaChoices(t.database.db);
      const body = [
        `![Bay](/media/${keyOf(12)}/original.jpg)`,
        `![Harmonics](/media/${keyOf(1000)}/original.png)`,
        "![Old](/images/articles/ieee-519-harmonics-at-a-vfd-heavy-plant.svg)",
        `![Copied](https://www.example.test/media/${keyOf(3)}/640.webp)`,
        "![Elsewhere](https://elsewhere.example/photo.jpg)",
        "![Again](https://elsewhere.example/photo.jpg)",
        "```markdown\n![A sample](https://elsewhere.example/in-code.jpg)\n```",
        "Inline `![code](https://elsewhere.example/inline.jpg)` too.",
      ].join("\n\n");
      expect(bodyPictureWarnings(body, images)).toEqual([
        `The picture https://www.example.test/media/${keyOf(3)}/640.webp in the body is named by a full address, which the page does not show: write it as /media/${keyOf(3)}/original.webp, or put it in again with the Picture button.`,
        "The picture https://elsewhere.example/photo.jpg in the body is not in the media library, so the page will not show it: put it in with the Picture button.",
      ]);
      const checklist = await articleChecklist(
        t.database.db,
        { ...anArticle("/images/articles/ieee-519-harmonics-at-a-vfd-heavy-plant.svg"), body },
        now,
        images,
      );
      expect(checklist.warnings).toHaveLength(2);
      // At most five, however many the body has.
      const many = Array.from({ length: 40 }, (_, n) => `![${n}](https://elsewhere.example/${n}.jpg)`).join("\n\n");
      expect(bodyPictureWarnings(many, images)).toHaveLength(5);
    });

    it("names the picture by its alt text in the fields' choices, never by its file name and folder", async () => {
      const images = await mediaChoices(t.database.db);
      const harmonic = images.find((image) => image.key === keyOf(1000));
      expect(harmonic?.label).toBe("Harmonic spectrum measured at a drive-heavy plant");
      expect(images.map((image) => image.label).join("\n")).not.toContain("(articles)");
      // Pictures without alt text are not offered.
      const offered = await t.database.db
        .select({ key: media.key })
        .from(media)
        .where(inArray(media.key, [keyOf(999)]));
      expect(offered).toHaveLength(1);
      expect(images.some((image) => image.key === keyOf(999))).toBe(false);
    });
  });
});

describe("a picture's name", () => {
  it("is its alt text, cut at a word after 80 characters; a decorative picture's, its file name in words", () => {
    expect(pictureName({ alt: "  A relay panel\nwith its doors open ", fileName: "x.jpg", sourcePath: null })).toBe(
      "A relay panel with its doors open",
    );
    const long =
      "Illustration of a distorted current waveform above a bar chart of its harmonics, from the fifth to the forty-ninth";
    const name = pictureName({ alt: long, fileName: "x.jpg", sourcePath: null });
    expect(name).toBe("Illustration of a distorted current waveform above a bar chart of its harmonics…");
    expect(name.length).toBeLessThanOrEqual(81);
    expect(pictureName({ alt: "", fileName: "ieee-519_harmonics.v2.png", sourcePath: null })).toBe(
      "Ieee 519 harmonics v2",
    );
    expect(
      pictureName({
        alt: "",
        fileName: "x.png",
        sourcePath: "/images/articles/ieee-519-harmonics-at-a-vfd-heavy-plant.svg",
      }),
    ).toBe("Ieee 519 harmonics at a vfd heavy plant");
    expect(pictureName({ alt: "", fileName: ".png", sourcePath: null })).toBe("Untitled picture");
  });
});
