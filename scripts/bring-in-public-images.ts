import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { parse as parseYaml } from "yaml";
import { mediaReference } from "#shared/media.ts";
import { isLibraryFileName, MEDIA_FOLDER, mediaYamlText } from "#server/content/media-files.ts";
import { keptOriginal } from "#server/media/pipeline.ts";

// Run once (its output is committed): brings the content pictures of public/images into the media
// library's seed, content/media/ (docs/decisions/040-the-media-library.md). Each SVG under
// public/images/articles, /projects and /team is drawn with sharp at 1600 pixels wide (team
// portraits: 800) as a PNG, made the library's kept original by the upload pipeline itself, and
// written as content/media/<key>.png with <key>.yaml: its file name, alt text written from what the
// picture shows, and its old address, which content may go on naming.
//
// Some illustrations are the same drawing under two or three addresses (an article and a project
// about the same kind of plant): they are one picture of the library, kept under the first address
// (articles before projects); the content files naming another of its addresses are rewritten to
// name the picture by its reference, /media/<key>/original.png.
//
//   node --import tsx scripts/bring-in-public-images.ts
//
// The hero illustration and the office map are the site's design, not content: they stay in
// public/images.

const root = fileURLToPath(new URL("../", import.meta.url));
const FOLDERS = [
  { folder: "articles", width: 1600 },
  { folder: "projects", width: 1600 },
  { folder: "team", width: 800 },
] as const;

/** What each drawing shows, by its old address (the first address of a drawing shared by several). */
const ALT_TEXTS: Record<string, string> = {
  "/images/articles/arc-flash-studies-ieee-1584-2018.svg":
    "Illustration of an industrial plant with a saw-tooth roof and a smoking chimney",
  "/images/articles/bess-sizing-for-commercial-peak-shaving.svg":
    "Illustration of four battery storage cabinets in a row, each marked with a lightning bolt",
  "/images/articles/cea-reactive-power-requirements-for-solar-plants.svg":
    "Illustration of rows of solar panels under the sun",
  "/images/articles/deviation-settlement-and-forecasting-for-wind-solar.svg": "Illustration of four wind turbines",
  "/images/articles/earthing-design-for-a-220-kv-switchyard.svg":
    "Illustration of an earthing grid of buried conductors beneath a switchyard",
  "/images/articles/fault-ride-through-model-validation.svg":
    "Illustration of transmission towers carrying lines to a substation's control panel",
  "/images/articles/ieee-519-harmonics-at-a-vfd-heavy-plant.svg":
    "Illustration of a distorted current waveform above a bar chart of its harmonics",
  "/images/projects/distribution-network-loss-reduction.svg":
    "Illustration of a daily load curve drawn over a bar chart of losses",
  "/images/projects/hospital-power-resilience.svg": "Illustration of a hospital beside two office buildings",
  "/images/projects/wind-solar-hybrid-rajasthan.svg": "Illustration of four wind turbines on open ground",
};

type Found = { sourcePath: string; folder: string; slug: string; width: number };

async function teamName(slug: string): Promise<string> {
  const file = parseYaml(await readFile(path.join(root, "content", "team", `${slug}.yaml`), "utf8")) as {
    name: string;
  };
  return file.name;
}

async function main() {
  const found: Found[] = [];
  for (const { folder, width } of FOLDERS) {
    const names = (await readdir(path.join(root, "public", "images", folder))).filter((name) => name.endsWith(".svg"));
    for (const name of names.sort())
      found.push({ sourcePath: `/images/${folder}/${name}`, folder, slug: name.slice(0, -4), width });
  }

  const outDir = path.join(root, "content", MEDIA_FOLDER);
  await mkdir(outDir, { recursive: true });
  const byKey = new Map<string, Found>();
  /** Addresses of a drawing already kept under another address: rewritten in content to its reference. */
  const renamed = new Map<string, string>();
  const written = new Set<string>();
  for (const picture of found) {
    const svg = await readFile(path.join(root, "public", picture.sourcePath));
    // Drawn large (300 dpi) and made smaller, for clean edges at the width kept.
    const png = await sharp(svg, { density: 300, limitInputPixels: 40_000_000 })
      .resize({ width: picture.width })
      .png()
      .toBuffer();
    const fileName = `${picture.slug}.png`;
    const kept = await keptOriginal(png, fileName);
    const first = byKey.get(kept.key);
    if (first) {
      renamed.set(picture.sourcePath, mediaReference(kept.key, "png"));
      console.log(`${picture.sourcePath}: the same drawing as ${first.sourcePath}`);
      continue;
    }
    byKey.set(kept.key, picture);
    const alt =
      picture.folder === "team"
        ? `Illustrated portrait of ${await teamName(picture.slug)}`
        : (ALT_TEXTS[picture.sourcePath] ?? "");
    if (!alt) throw new Error(`no alt text for ${picture.sourcePath}: write one in ALT_TEXTS`);
    await writeFile(path.join(outDir, `${kept.key}.png`), kept.original.bytes);
    await writeFile(
      path.join(outDir, `${kept.key}.yaml`),
      mediaYamlText({ key: kept.key, fileName, alt, decorative: false, sourcePath: picture.sourcePath }),
    );
    written.add(`${kept.key}.png`).add(`${kept.key}.yaml`);
    console.log(
      `${picture.sourcePath} → content/media/${kept.key}.png (${kept.original.width} × ${kept.original.height}, ${kept.original.bytes.length} bytes)`,
    );
  }
  for (const name of await readdir(outDir)) {
    if (isLibraryFileName(name) && !written.has(name)) await rm(path.join(outDir, name));
  }

  // Content naming a drawing by an address it is not kept under names it by its reference.
  for (const folder of ["articles", "projects", "team"]) {
    const dir = path.join(root, "content", folder);
    for (const name of await readdir(dir)) {
      const file = path.join(dir, name);
      const text = await readFile(file, "utf8");
      const next = text.replace(/^image: (\S+)$/m, (line, address: string) =>
        renamed.has(address) ? `image: ${renamed.get(address)}` : line,
      );
      if (next !== text) {
        await writeFile(file, next);
        console.log(`content/${folder}/${name}: image is now ${/^image: (\S+)$/m.exec(next)![1]}`);
      }
    }
  }
  console.log(`${byKey.size} pictures in content/media, from ${found.length} files.`);
}

await main();
