import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Writes the flat SVG illustrations the content files point at (team portraits, project and
// article pictures) into public/images, chosen from each file's name so a rerun gives the same
// files. `node --import tsx scripts/generate-illustrations.ts` after adding content without a
// picture of its own; an existing picture is never overwritten.

const root = fileURLToPath(new URL("../", import.meta.url));
const palette = {
  navy: "#0b2545",
  blue: "#13315c",
  brand: "#1d4ed8",
  sky: "#8da9c4",
  pale: "#dbeafe",
  green: "#15803d",
  mint: "#dcfce7",
  amber: "#f59e0b",
  paper: "#f8fafc",
};

function hash(text: string): number {
  let h = 2166136261;
  for (const char of text) h = Math.imul(h ^ char.charCodeAt(0), 16777619);
  return h >>> 0;
}
const pick = <T>(items: readonly T[], seed: number, salt = 0): T => items[(seed >>> salt) % items.length] as T;

function portrait(slug: string): string {
  const seed = hash(slug);
  const skin = pick(["#8d5524", "#a0673c", "#c68642", "#e0ac69", "#b97a4f", "#7a4a2a"], seed);
  const hair = pick(["#1f1a17", "#2b1d14", "#3b2a20", "#111827", "#4b3621"], seed, 3);
  const attire = pick([palette.brand, palette.blue, palette.green, "#334155", "#7c2d12", "#0f766e"], seed, 6);
  const background = pick([palette.pale, palette.mint, "#fef3c7", "#e0e7ff", "#f1f5f9"], seed, 9);
  const style = seed % 4;
  const hairShape = [
    `<path d="M140 170c0-55 35-90 60-90s60 35 60 90c-10-30-30-48-60-48s-50 18-60 48z" fill="${hair}"/>`,
    `<path d="M128 200c-6-80 32-122 72-122s78 42 72 122c-8-10-12-60-24-70-14 12-70 14-96 0-12 10-16 60-24 70z" fill="${hair}"/><path d="M128 200c-2 40 4 80 14 96h-18c-10-30-8-70 4-96zM272 200c2 40-4 80-14 96h18c10-30 8-70-4-96z" fill="${hair}"/>`,
    `<circle cx="200" cy="86" r="26" fill="${hair}"/><path d="M142 168c0-50 30-82 58-82s58 32 58 82c-14-24-34-38-58-38s-44 14-58 38z" fill="${hair}"/>`,
    `<path d="M146 150c8-40 30-62 54-62s46 22 54 62c-16-14-34-20-54-20s-38 6-54 20z" fill="${hair}"/>`,
  ][style];
  const glasses =
    seed % 3 === 0
      ? `<g fill="none" stroke="${palette.navy}" stroke-width="5"><circle cx="178" cy="182" r="16"/><circle cx="222" cy="182" r="16"/><path d="M194 182h12"/></g>`
      : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400"><rect width="400" height="400" fill="${background}"/><circle cx="200" cy="200" r="150" fill="#ffffff" opacity=".45"/><path d="M70 400c8-78 62-118 130-118s122 40 130 118z" fill="${attire}"/><path d="M170 280l30 42 30-42z" fill="${palette.paper}"/><rect x="178" y="236" width="44" height="50" rx="14" fill="${skin}"/><ellipse cx="200" cy="180" rx="58" ry="68" fill="${skin}"/>${hairShape}<circle cx="178" cy="184" r="5" fill="${palette.navy}"/><circle cx="222" cy="184" r="5" fill="${palette.navy}"/><path d="M184 216q16 12 32 0" fill="none" stroke="${palette.navy}" stroke-width="4" stroke-linecap="round"/>${glasses}</svg>\n`;
}

const scenes: Record<string, (seed: number) => string> = {
  solar: () => {
    let rows = "";
    for (let r = 0; r < 3; r += 1) {
      for (let c = 0; c < 5; c += 1) {
        const x = 90 + c * 210 - r * 40;
        const y = 380 + r * 90;
        rows += `<path d="M${x} ${y + 70}l40-70h150l-40 70z" fill="${palette.brand}" stroke="${palette.sky}" stroke-width="3"/><path d="M${x + 20} ${y + 35}h150M${x + 70} ${y}l-40 70M${x + 120} ${y}l-40 70" stroke="${palette.sky}" stroke-width="2"/>`;
      }
    }
    return `<circle cx="980" cy="150" r="70" fill="${palette.amber}"/>${rows}`;
  },
  wind: (seed) => {
    let turbines = "";
    for (let i = 0; i < 4; i += 1) {
      const x = 180 + i * 260;
      const h = 260 + ((seed >>> i) % 80);
      const top = 620 - h;
      turbines += `<path d="M${x - 8} 620l4-${h}h8l4 ${h}z" fill="${palette.paper}"/><circle cx="${x}" cy="${top}" r="12" fill="${palette.paper}"/><g transform="rotate(${(seed >>> (i + 2)) % 120} ${x} ${top})" fill="${palette.paper}"><path d="M${x} ${top}l-8-130 16 0z"/><path d="M${x} ${top}l-8-130 16 0z" transform="rotate(120 ${x} ${top})"/><path d="M${x} ${top}l-8-130 16 0z" transform="rotate(240 ${x} ${top})"/></g>`;
    }
    return `${turbines}<path d="M0 620h1200" stroke="${palette.sky}" stroke-width="4"/>`;
  },
  storage: () => {
    let units = "";
    for (let i = 0; i < 4; i += 1) {
      const x = 140 + i * 240;
      units += `<rect x="${x}" y="360" width="200" height="200" rx="10" fill="${palette.paper}"/><rect x="${x + 20}" y="390" width="160" height="20" fill="${palette.sky}"/><rect x="${x + 20}" y="420" width="160" height="20" fill="${palette.sky}"/><rect x="${x + 20}" y="500" width="50" height="40" rx="4" fill="${palette.green}"/><path d="M${x + 150} 450l-20 40h20l-10 36 34-50h-20l12-26z" fill="${palette.amber}"/>`;
    }
    return `${units}<path d="M0 560h1200" stroke="${palette.sky}" stroke-width="4"/><path d="M140 300h920" stroke="${palette.pale}" stroke-width="6"/>`;
  },
  grid: () => {
    const tower = (x: number, s: number) =>
      `<g stroke="${palette.pale}" stroke-width="${4 * s}" fill="none"><path d="M${x - 60 * s} 620L${x} ${620 - 420 * s}L${x + 60 * s} 620M${x - 40 * s} ${620 - 140 * s}h${80 * s}M${x - 25 * s} ${620 - 260 * s}h${50 * s}M${x - 80 * s} ${620 - 340 * s}h${160 * s}M${x - 60 * s} ${620 - 390 * s}h${120 * s}"/></g>`;
    return `${tower(200, 1)}${tower(600, 0.85)}${tower(960, 0.7)}<g stroke="${palette.sky}" stroke-width="3" fill="none"><path d="M120 280q280 90 420 40t360 40M140 230q280 90 420 40t360 40"/></g><rect x="840" y="470" width="240" height="150" rx="10" fill="${palette.navy}" stroke="${palette.sky}" stroke-width="4"/><rect x="870" y="500" width="60" height="90" rx="6" fill="${palette.brand}"/><rect x="950" y="500" width="100" height="40" rx="6" fill="${palette.amber}"/><rect x="950" y="550" width="100" height="40" rx="6" fill="${palette.green}"/>`;
  },
  industry: () =>
    `<path d="M120 620V380l180 100V380l180 100V380l180 100V300h140v320z" fill="${palette.paper}"/><rect x="820" y="180" width="40" height="140" fill="${palette.sky}"/><rect x="880" y="220" width="40" height="100" fill="${palette.sky}"/><g fill="${palette.brand}">${[0, 1, 2, 3].map((i) => `<rect x="${170 + i * 180}" y="520" width="70" height="50" rx="4"/>`).join("")}</g><path d="M840 160c20-40 60-40 80-80" stroke="${palette.pale}" stroke-width="10" fill="none" stroke-linecap="round" opacity=".6"/><path d="M0 620h1200" stroke="${palette.sky}" stroke-width="4"/>`,
  building: () =>
    `<rect x="160" y="200" width="300" height="420" fill="${palette.paper}"/><rect x="500" y="120" width="260" height="500" fill="${palette.pale}"/><rect x="800" y="260" width="240" height="360" fill="${palette.paper}"/><g fill="${palette.brand}">${Array.from({ length: 24 }, (_, i) => `<rect x="${190 + (i % 4) * 65}" y="${240 + Math.floor(i / 4) * 60}" width="40" height="34"/>`).join("")}</g><g fill="${palette.navy}">${Array.from({ length: 21 }, (_, i) => `<rect x="${530 + (i % 3) * 75}" y="${160 + Math.floor(i / 3) * 62}" width="50" height="36"/>`).join("")}</g><path d="M900 300h40v30h30v40h-30v30h-40v-30h-30v-40h30z" fill="${palette.green}"/><path d="M0 620h1200" stroke="${palette.sky}" stroke-width="4"/>`,
  chart: (seed) => {
    const points = Array.from(
      { length: 13 },
      (_, i) => `${140 + i * 75},${420 - Math.round(Math.sin(i / 1.7 + (seed % 7)) * 120)}`,
    ).join(" ");
    return `<rect x="100" y="140" width="1000" height="460" rx="16" fill="${palette.navy}" stroke="${palette.sky}" stroke-width="3"/><g stroke="${palette.sky}" stroke-width="1.5" opacity=".5">${[0, 1, 2, 3, 4].map((i) => `<path d="M140 ${220 + i * 80}h920"/>`).join("")}</g><polyline points="${points}" fill="none" stroke="${palette.amber}" stroke-width="6" stroke-linejoin="round"/><g fill="${palette.green}">${Array.from({ length: 12 }, (_, i) => `<rect x="${150 + i * 75}" y="${520 - ((seed >>> i) % 60)}" width="40" height="${40 + ((seed >>> i) % 60)}"/>`).join("")}</g>`;
  },
  waveform: () => {
    let wave = "M120 380";
    for (let x = 120; x <= 1080; x += 20)
      wave += ` L${x} ${380 - Math.round(Math.sin((x - 120) / 48) * 110 + Math.sin((x - 120) / 9.6) * 30)}`;
    return `<rect x="100" y="160" width="1000" height="440" rx="16" fill="${palette.navy}" stroke="${palette.sky}" stroke-width="3"/><path d="M120 380h960" stroke="${palette.sky}" stroke-width="2"/><path d="${wave}" fill="none" stroke="${palette.amber}" stroke-width="5"/><g fill="${palette.green}">${[140, 60, 40, 28, 18, 12].map((h, i) => `<rect x="${760 + i * 50}" y="${580 - h}" width="30" height="${h}"/>`).join("")}</g>`;
  },
  earthing: () =>
    `<path d="M100 300h1000v300H100z" fill="#7c5a3a" opacity=".55"/><g stroke="${palette.amber}" stroke-width="5">${[0, 1, 2, 3, 4, 5, 6].map((i) => `<path d="M${180 + i * 140} 360v200"/>`).join("")}${[0, 1, 2].map((i) => `<path d="M160 ${380 + i * 80}h880"/>`).join("")}</g><g stroke="${palette.pale}" stroke-width="5" fill="none"><path d="M300 300V160h120v140M700 300V120h160v180"/></g><path d="M0 300h1200" stroke="${palette.sky}" stroke-width="4"/>`,
};

function sceneFor(slug: string): keyof typeof scenes {
  const rules: [RegExp, keyof typeof scenes][] = [
    [/bess|battery|storage/, "storage"],
    [/wind|hybrid/, "wind"],
    [/solar|reactive/, "solar"],
    [/earthing|grounding/, "earthing"],
    [/harmonic|519|power-factor|apfc|quality/, "waveform"],
    [/hospital|data-centre|commercial|building/, "building"],
    [/chemical|cement|plant|arc-flash|industrial/, "industry"],
    [/deviation|forecast|loss|regulat/, "chart"],
  ];
  return rules.find(([pattern]) => pattern.test(slug))?.[1] ?? "grid";
}

function picture(slug: string): string {
  const seed = hash(slug);
  const renewable = ["solar", "wind", "storage"].includes(sceneFor(slug));
  const top = renewable ? "#0f3b2e" : palette.navy;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 675"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${palette.blue}"/></linearGradient></defs><rect width="1200" height="675" fill="url(#g)"/><g stroke="${palette.sky}" stroke-width="1" opacity=".18">${Array.from({ length: 14 }, (_, i) => `<path d="M${i * 90} 0v675"/>`).join("")}${Array.from({ length: 8 }, (_, i) => `<path d="M0 ${i * 90}h1200"/>`).join("")}</g>${scenes[sceneFor(slug)]!(seed)}</svg>\n`;
}

async function slugsIn(folder: string, extension: string): Promise<string[]> {
  try {
    return (await readdir(path.join(root, "content", folder)))
      .filter((name) => name.endsWith(extension))
      .map((name) => name.slice(0, -extension.length));
  } catch {
    return [];
  }
}

async function writeIfMissing(file: string, body: string): Promise<boolean> {
  await mkdir(path.dirname(file), { recursive: true });
  try {
    await writeFile(file, body, { flag: "wx" });
    return true;
  } catch {
    return false;
  }
}

let written = 0;
for (const slug of await slugsIn("team", ".yaml")) {
  if (await writeIfMissing(path.join(root, "public/images/team", `${slug}.svg`), portrait(slug))) written += 1;
}
for (const [folder, extension] of [
  ["projects", ".yaml"],
  ["articles", ".md"],
] as const) {
  for (const slug of await slugsIn(folder, extension)) {
    if (await writeIfMissing(path.join(root, "public/images", folder, `${slug}.svg`), picture(slug))) written += 1;
  }
}
console.log(`${written} illustration(s) written`);
