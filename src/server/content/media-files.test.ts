import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaReference } from "#shared/media.ts";
import { siteContentDir } from "../../../test/build-test-app.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { metadataMarks, phonePhoto, plainPicture, readExif, truncatedJpeg } from "../../../test/media-fixtures.ts";
import { media, mediaFiles } from "../db/schema.ts";
import { mediaChoices } from "../media/media-choices.ts";
import { keyOf } from "../media/pipeline.ts";
import { importContent, seedContent } from "./import-content.ts";
import { readSiteContent } from "./load-content.ts";
import { readMediaFolder } from "./media-files.ts";
import { mediaUsage, usesOf } from "./media-usage.ts";

// The media library as files: content/media/ read and checked, the seed storing the committed
// pictures as they are (no image processing: their hash is their key), any other file made again
// by the pipeline, and the content's old /images/ addresses resolving to the pictures brought in
// from them, for "Used in" and the chooser.

let dirs: string[] = [];
const newDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "content-media-"));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  dirs = [];
});

describe("content/media as files", () => {
  it("holds the pictures brought in from public/images, each its own clean output, with alt text", async () => {
    const { media: entries, problems } = await readMediaFolder(siteContentDir);
    expect(problems).toEqual([]);
    expect(entries.length).toBe(18);
    for (const entry of entries) {
      expect(keyOf(entry.bytes)).toBe(entry.key);
      expect(entry.format).toBe("png");
      expect(entry.alt.length).toBeGreaterThan(10);
      expect(entry.sourcePath).toMatch(/^\/images\/(articles|projects|team)\/[a-z0-9-]+\.svg$/);
      const metadata = await sharp(entry.bytes).metadata();
      expect(metadata.width).toBe(entry.sourcePath!.startsWith("/images/team/") ? 800 : 1600);
      expect(metadata.exif ?? metadata.xmp ?? metadata.icc).toBeUndefined();
    }
  });

  it("names each broken file and the rule it breaks", async () => {
    const dir = await newDir();
    const folder = path.join(dir, "media");
    await cp(path.join(siteContentDir, "media"), folder, { recursive: true });
    const [one, two, three] = (await readMediaFolder(siteContentDir)).media;
    await rm(path.join(folder, `${one!.key}.png`));
    await writeFile(path.join(folder, `${two!.key}.yaml`), `key: ${two!.key}\nfileName: x.png\ncolour: red\n`);
    await writeFile(path.join(folder, `${three!.key}.png`), "<svg onload=alert(1)></svg>");
    await writeFile(path.join(folder, "0000000000000000.jpg"), await plainPicture("jpeg"));
    await writeFile(path.join(folder, "notes.yaml"), "key: x\n");
    const { media: entries, problems } = await readMediaFolder(dir);
    expect(entries).toHaveLength(15);
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file: "media/0000000000000000.jpg",
          field: "(file)",
          message: "has no 0000000000000000.yaml beside it (file name, alt text)",
        },
        {
          file: `media/${one!.key}.yaml`,
          field: "(picture)",
          message: `has no picture ${one!.key}.<jpg|png|webp|avif> beside it`,
        },
        { file: `media/${two!.key}.yaml`, field: "(file)", message: "unknown field(s) colour" },
        { file: `media/${three!.key}.png`, field: "(file)", message: "is not a PNG picture" },
        {
          file: "media/notes.yaml",
          field: "(file name)",
          message: "must be the picture's key (16 lower-case hexadecimal digits) and .yaml",
        },
      ]),
    );
  });
});

describe.each(testDrivers)("the library's seed on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver, { from: "empty" });
  });
  afterAll(async () => {
    await database.drop();
  });

  it("stores the committed pictures as they are (the original only: the rest is made when first asked for)", async () => {
    const started = performance.now();
    await seedContent(database.db, siteContentDir);
    const took = performance.now() - started;
    const { media: entries } = await readMediaFolder(siteContentDir);
    const rows = await database.db.select().from(media);
    expect(rows).toHaveLength(entries.length);
    for (const entry of entries) {
      const row = rows.find((candidate) => candidate.key === entry.key)!;
      expect(row).toMatchObject({
        fileName: entry.fileName,
        alt: entry.alt,
        decorative: false,
        sourcePath: entry.sourcePath,
        format: "png",
        createdByLabel: "content files",
      });
      const files = await database.db.select().from(mediaFiles).where(eq(mediaFiles.mediaId, row.id));
      expect(files.map((file) => file.name)).toEqual(["original.png"]);
      expect(Buffer.from(files[0]!.bytes).equals(entry.bytes)).toBe(true);
      expect([files[0]!.width, files[0]!.height]).toEqual([row.width, row.height]);
    }
    // The whole first start's seed, content and pictures, in well under the time one picture takes to make.
    expect(took).toBeLessThan(15_000);
  });

  it("resolves old addresses: a picture brought in is used by the content naming its /images/ address or its reference", async () => {
    const usage = await mediaUsage(database.db);
    const [arcFlash] = await database.db
      .select()
      .from(media)
      .where(eq(media.sourcePath, "/images/articles/arc-flash-studies-ieee-1584-2018.svg"));
    const uses = usesOf(usage, arcFlash!);
    expect(uses.map((use) => use.kind).sort()).toEqual(["article", "project"]);
    expect(uses.find((use) => use.kind === "project")?.title).toMatch(/arc flash/i);
    const choices = await mediaChoices(database.db);
    expect(choices).toHaveLength(18);
    expect(choices).toContainEqual({
      url: "/images/articles/arc-flash-studies-ieee-1584-2018.svg",
      key: arcFlash!.key,
      // Named by its alt text, not by its file name and folder.
      label: arcFlash!.alt,
      thumbnail: `/media/${arcFlash!.key}/320.webp`,
      alt: arcFlash!.alt,
      decorative: false,
    });
    // Every picture the content names is one of the library's.
    const content = await readSiteContent(siteContentDir);
    const named = [
      ...content.articles.map((file) => file.document.imageUrl),
      ...content.projects.map((p) => p.imageUrl),
    ];
    const all = await database.db.select().from(media);
    const known = new Set(all.flatMap((row) => [row.sourcePath, mediaReference(row.key, "png")]));
    for (const image of [...named, ...content.teamMembers.map((member) => member.imageUrl)])
      expect(known.has(image), image).toBe(true);
  });

  it("takes a file whose bytes are not its key's through the pipeline, and leaves a known picture as it is", async () => {
    const dir = await newDir();
    await cp(path.join(siteContentDir, "media"), path.join(dir, "media"), { recursive: true });
    const fresh = await plainPicture("jpeg", { width: 500, height: 400, colour: "#abcdef" });
    const stated = "00000000000000aa";
    await writeFile(path.join(dir, "media", `${stated}.jpg`), fresh);
    await writeFile(
      path.join(dir, "media", `${stated}.yaml`),
      `key: ${stated}\nfileName: hand-made.jpg\nalt: A pale blue card\ndecorative: false\n`,
    );
    // A known picture whose file says other words: the library's stay.
    const [known] = (await readMediaFolder(siteContentDir)).media;
    await writeFile(
      path.join(dir, "media", `${known!.key}.yaml`),
      (await readFile(path.join(siteContentDir, "media", `${known!.key}.yaml`), "utf8")).replace(
        /^alt: .*$/m,
        "alt: Changed",
      ),
    );
    const summary = await importContent(database.db, await readSiteContent(dir));
    expect(summary.problems).toEqual([]);
    const added = summary.added.filter((line) => line.kind === "media");
    expect(added).toHaveLength(1);
    expect(added[0]!.file).toBe(`media/${stated}.jpg`);
    const [row] = await database.db.select().from(media).where(eq(media.fileName, "hand-made.jpg"));
    expect(row!.key).not.toBe(stated);
    expect(added[0]!.detail).toBe(
      `added through the pipeline: its key is ${row!.key}, not ${stated} (content naming /media/${stated}/ shows no picture)`,
    );
    const files = await database.db
      .select({ name: mediaFiles.name })
      .from(mediaFiles)
      .where(eq(mediaFiles.mediaId, row!.id));
    expect(files.length).toBeGreaterThan(1);
    const [kept] = await database.db.select().from(media).where(eq(media.key, known!.key));
    expect(kept!.alt).toBe(known!.alt);
  });

  it("keeps no file as it is for its name alone: a photo named by its hash keeps no GPS, a file that does not decode is a problem", async () => {
    const dir = await newDir();
    await mkdir(path.join(dir, "media"));
    const add = async (bytes: Buffer, fileName: string) => {
      const key = keyOf(bytes);
      await writeFile(path.join(dir, "media", `${key}.jpg`), bytes);
      await writeFile(path.join(dir, "media", `${key}.yaml`), `key: ${key}\nfileName: ${fileName}\nalt: A site\n`);
      return key;
    };
    // A phone's photo: EXIF with the camera and where it was taken.
    const photo = await phonePhoto({ width: 640, height: 480 });
    expect(readExif(photo).hasGps).toBe(true);
    const photoKey = await add(photo, "from-the-phone.jpg");
    // A clean JPEG with a comment saying where: sharp's metadata() does not see it.
    const clean = await sharp(await plainPicture("jpeg", { colour: "#0e7490" }))
      .jpeg()
      .toBuffer();
    const words = Buffer.from("23N 72E, site B", "latin1");
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, words.length + 2]), words]);
    const commented = Buffer.concat([clean.subarray(0, 2), comment, clean.subarray(2)]);
    expect((await sharp(commented).metadata()).comments).toBeUndefined();
    const commentedKey = await add(commented, "commented.jpg");
    // A JPEG cut off at 60 %: its header is whole, its picture is not.
    const broken = await truncatedJpeg();
    const brokenKey = await add(broken, "cut-short.jpg");

    const summary = await importContent(database.db, await readSiteContent(dir));
    expect(summary.problems).toEqual([
      {
        file: `media/${brokenKey}.jpg`,
        field: "(file)",
        message:
          "“cut-short.jpg” is damaged or incomplete: its picture data cannot be read to the end, so it was not kept. Upload the whole file again.",
      },
    ]);
    expect(await database.db.select().from(media).where(eq(media.fileName, "cut-short.jpg"))).toEqual([]);
    expect(await database.db.select().from(media).where(eq(media.key, brokenKey))).toEqual([]);
    for (const [fileName, stated] of [
      ["from-the-phone.jpg", photoKey],
      ["commented.jpg", commentedKey],
    ] as const) {
      const [row] = await database.db.select().from(media).where(eq(media.fileName, fileName));
      expect(row, fileName).toBeDefined();
      expect(row!.key, fileName).not.toBe(stated);
      const line = summary.added.find((added) => added.title === fileName);
      expect(line?.detail, fileName).toMatch(/^added through the pipeline: its key is /);
      const [original] = await database.db
        .select({ bytes: mediaFiles.bytes })
        .from(mediaFiles)
        .where(and(eq(mediaFiles.mediaId, row!.id), eq(mediaFiles.name, "original.jpg")));
      const bytes = Buffer.from(original!.bytes);
      expect(readExif(bytes), fileName).toMatchObject({ hasExif: false, hasGps: false });
      expect(metadataMarks(bytes), fileName).toEqual([]);
      expect(bytes.includes(Buffer.from("23N 72E")), fileName).toBe(false);
    }
  });
});
