import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

// After `vite build`: writes .br and .gz beside every compressible file in dist/client, at the
// highest levels, so the server (and nginx's gzip_static) sends them without compressing per
// request.

const clientDir = fileURLToPath(new URL("../dist/client/", import.meta.url));
const compressible = /\.(js|css|svg|json|webmanifest|txt|xml|html)$/;

async function* files(dir: string): AsyncGenerator<string> {
  for (const name of await readdir(dir)) {
    const full = path.join(dir, name);
    if ((await stat(full)).isDirectory()) yield* files(full);
    else yield full;
  }
}

let count = 0;
for await (const file of files(clientDir)) {
  if (!compressible.test(file) || file.includes(`${path.sep}.vite${path.sep}`)) continue;
  const body = await readFile(file);
  if (body.length < 512) continue;
  await writeFile(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
  count += 1;
}
console.log(`compressed ${count} files in dist/client`);
