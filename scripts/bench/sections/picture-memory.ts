import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { syntheticPhoto } from "../../../src/server/media/media-bench.ts";
import type { InspectedPicture } from "../../../src/server/media/pipeline.ts";
import { root } from "../processes.ts";
import { PRODUCTION_ENV } from "../production-env.ts";
import { megabytes, table } from "../report.ts";
import { defineSection } from "../section.ts";

// What making one picture takes, against what the processing line weighs it by
// (docs/decisions/047-a-memory-budget-for-making-pictures.md): each kind of picture the library
// takes (formats, sizes up to the 40-megapixel limit, progressive, turned by its EXIF orientation,
// with alpha, tall) made in a process of its own (scripts/bench/picture-memory-job.ts) with the
// production allocator setting; its peak resident memory over the step's start. A weight under its
// measured peak is flagged: the budget would then let more run together than it means to. Run it
// after changing an encoder setting, the ladder or sharp.

const exec = promisify(execFile);

type Kind = { name: string; make: (photo12: Buffer, photo40: Buffer) => Promise<Buffer> };

const KINDS: Kind[] = [
  { name: "3 MP JPEG", make: () => syntheticPhoto(3, 3) },
  { name: "12 MP JPEG", make: async (photo12) => photo12 },
  {
    name: "12 MP progressive JPEG, 4:4:4",
    make: (photo12) => sharp(photo12).jpeg({ quality: 92, progressive: true, chromaSubsampling: "4:4:4" }).toBuffer(),
  },
  {
    name: "12 MP JPEG, EXIF orientation 6",
    make: (photo12) => sharp(photo12).jpeg({ quality: 92 }).withMetadata({ orientation: 6 }).toBuffer(),
  },
  { name: "12 MP CMYK JPEG", make: (photo12) => sharp(photo12).toColourspace("cmyk").jpeg().toBuffer() },
  { name: "6 MP PNG", make: (photo12) => sharp(photo12).resize(2828).png().toBuffer() },
  { name: "6 MP PNG with alpha", make: (photo12) => sharp(photo12).resize(2828).ensureAlpha(0.5).png().toBuffer() },
  { name: "12 MP WebP", make: (photo12) => sharp(photo12).webp({ quality: 90 }).toBuffer() },
  { name: "12 MP AVIF", make: (photo12) => sharp(photo12).avif({ quality: 60, effort: 2 }).toBuffer() },
  {
    name: "800 × 16,000 JPEG (tall)",
    make: (photo12) => sharp(photo12).resize(800, 16_000, { fit: "fill" }).jpeg({ quality: 85 }).toBuffer(),
  },
  { name: "40 MP JPEG", make: async (_, photo40) => photo40 },
  {
    name: "40 MP progressive JPEG, 4:4:4",
    make: (_, photo40) =>
      sharp(photo40).jpeg({ quality: 92, progressive: true, chromaSubsampling: "4:4:4" }).toBuffer(),
  },
  {
    name: "40 MP progressive JPEG of one colour",
    make: () =>
      sharp({ create: { width: 7300, height: 5479, channels: 3, background: "#8090a0" } })
        .jpeg({ quality: 90, progressive: true, chromaSubsampling: "4:4:4" })
        .toBuffer(),
  },
  { name: "40 MP WebP", make: (_, photo40) => sharp(photo40).webp({ quality: 70 }).toBuffer() },
  { name: "40 MP AVIF", make: (_, photo40) => sharp(photo40).avif({ quality: 50, effort: 2 }).toBuffer() },
];

type Job = {
  inspected: InspectedPicture;
  weight: number;
  peak: number;
  keptPeak: number;
  ladderPeak: number;
  variantWeight: number;
  variantPeak: number;
};

export type PictureMemoryResult = { pictures: ({ name: string; bytes: number } & Job)[] };

export const pictureMemorySection = defineSection<PictureMemoryResult>({
  name: "picture-memory",
  description: "each kind of picture made in a process of its own: its peak memory against its weight in the line",
  usesWrk: false,
  async run(_settings, progress) {
    const scratch = await mkdtemp(path.join(tmpdir(), "site-bench-picture-memory-"));
    try {
      const [photo12, photo40] = await Promise.all([syntheticPhoto(12, 1), syntheticPhoto(40, 2)]);
      const pictures: PictureMemoryResult["pictures"] = [];
      for (const [index, kind] of KINDS.entries()) {
        const bytes = await kind.make(photo12, photo40);
        const file = path.join(scratch, `picture-${index}`);
        await writeFile(file, bytes);
        const { stdout } = await exec(
          process.execPath,
          ["--import", "tsx", "scripts/bench/picture-memory-job.ts", file],
          {
            cwd: root,
            env: { PATH: process.env.PATH, ...PRODUCTION_ENV },
            maxBuffer: 1024 * 1024,
          },
        );
        const job = JSON.parse(stdout.trim().split("\n").at(-1)!) as Job;
        pictures.push({ name: kind.name, bytes: bytes.length, ...job });
        progress(`picture-memory: ${kind.name}: weight ${megabytes(job.weight)} MB, peak ${megabytes(job.peak)} MB`);
      }
      return { pictures };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  },
  format(result) {
    return [
      "Making one picture: peak resident memory over the step's start (MB), against its weight in the line",
      table(
        [
          "picture",
          "file (KB)",
          "kept original",
          "ladder",
          "weight",
          "weight / peak",
          "one AVIF variant",
          "its weight",
          "weight ≥ peak",
        ],
        result.pictures.map((picture) => [
          picture.name,
          Math.round(picture.bytes / 1024),
          megabytes(picture.keptPeak),
          megabytes(picture.ladderPeak),
          megabytes(picture.weight),
          (picture.weight / picture.peak).toFixed(2),
          megabytes(picture.variantPeak),
          megabytes(picture.variantWeight),
          picture.weight >= picture.peak && picture.variantWeight >= picture.variantPeak ? "yes" : "NO",
        ]),
      ),
    ].join("\n");
  },
});
