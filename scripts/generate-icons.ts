import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

// The raster files that link previews and home screens need (they do not take SVG): the Open
// Graph picture and the app icons, drawn from SVG here and committed to public/.
// Run `node --import tsx scripts/generate-icons.ts` after changing the logo.

const root = fileURLToPath(new URL("../", import.meta.url));
const bolt = `<path d="M36 8 16 36h14l-4 20 22-30H34z" fill="#f59e0b"/>`;
const icon = (size: number, padding: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="${size}" height="${size}"><rect width="64" height="64" rx="${padding ? 0 : 14}" fill="#0b2545"/><g transform="translate(${padding} ${padding}) scale(${(64 - 2 * padding) / 64})">${bolt}</g></svg>`;

const og = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <rect width="1200" height="630" fill="#0b2545"/>
  <g stroke="#8da9c4" stroke-width="1" opacity=".2">${Array.from({ length: 14 }, (_, i) => `<path d="M${i * 90} 0v630"/>`).join("")}${Array.from({ length: 8 }, (_, i) => `<path d="M0 ${i * 90}h1200"/>`).join("")}</g>
  <rect x="80" y="90" width="120" height="120" rx="26" fill="#13315c"/>
  <g transform="translate(80 90) scale(1.875)">${bolt}</g>
  <g stroke="#dbeafe" stroke-width="6" fill="none" opacity=".5" transform="translate(40 0)"><path d="M860 560 930 250 1000 560M880 470h100M895 400h70M845 300h170"/><path d="M1040 560 1090 330 1140 560M1055 480h70"/></g>
  <path d="M970 250q60 40 160 80" stroke="#8da9c4" stroke-width="3" fill="none" opacity=".5"/>
  <g font-family="DejaVu Sans, Arial, sans-serif">
    <text x="80" y="330" font-size="54" font-weight="700" fill="#ffffff">Sabarmati Grid Engineering</text>
    <text x="80" y="400" font-size="34" fill="#f59e0b">Power Systems Consulting</text>
    <text x="80" y="460" font-size="28" fill="#dbeafe">Grid integration · Protection · Power quality · Ahmedabad</text>
  </g>
</svg>`;

const targets: [string, string, number, number][] = [
  ["public/og-image.png", og, 1200, 630],
  ["public/apple-touch-icon.png", icon(180, 10), 180, 180],
  ["public/icon-192.png", icon(192, 0), 192, 192],
  ["public/icon-512.png", icon(512, 0), 512, 512],
  ["public/icon-maskable-512.png", icon(512, 12), 512, 512],
];
for (const [file, svg, width, height] of targets) {
  const png = await sharp(Buffer.from(svg))
    .resize(width, height)
    .png({ compressionLevel: 9, palette: true })
    .toBuffer();
  await writeFile(path.join(root, file), png);
  console.log(`${file}: ${png.length} bytes`);
}

// /favicon.ico, which browsers and crawlers ask for whatever the page links: one 32 px PNG in an
// ICO container (a 6-byte header and one 16-byte directory entry before the PNG itself).
const favicon = await sharp(Buffer.from(icon(32, 0)))
  .resize(32, 32)
  .png({ compressionLevel: 9 })
  .toBuffer();
const header = Buffer.alloc(22);
header.writeUInt16LE(0, 0); // reserved
header.writeUInt16LE(1, 2); // type: icon
header.writeUInt16LE(1, 4); // one image
header.writeUInt8(32, 6); // width
header.writeUInt8(32, 7); // height
header.writeUInt16LE(1, 10); // colour planes
header.writeUInt16LE(32, 12); // bits per pixel
header.writeUInt32LE(favicon.length, 14);
header.writeUInt32LE(22, 18); // the image starts right after this header
await writeFile(path.join(root, "public/favicon.ico"), Buffer.concat([header, favicon]));
console.log(`public/favicon.ico: ${22 + favicon.length} bytes`);
