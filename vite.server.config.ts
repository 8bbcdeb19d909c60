import { readFileSync } from "node:fs";
import { defineConfig, type Plugin } from "vite";

// The server itself, compiled to JavaScript for production (`npm run build`, after the two web
// builds): src/server/main.ts and everything it imports from src/ in one file,
// dist/server-node/main.js, which `npm start` and the Dockerfile run with plain `node`. Packages
// stay imports of node_modules (Vite's default for an SSR build), so the production install is
// what the process loads. See docs/decisions/023-the-server-compiled-to-javascript.md.
//
// The output sits two folders below the project root, as src/server/*.ts does, so that paths
// computed from import.meta.url (src/server/project-root.ts) hold in both.
//
// With SERVER_ENTRY=render-worker, the same build makes the Markdown renderer's worker thread
// (src/server/content/render-worker.ts) into dist/server-node/render-worker.js, beside main.js,
// where src/server/content/render-pool.ts starts it from (decision 049). Two builds, as each is
// one file.
const worker = process.env.SERVER_ENTRY === "render-worker";

// The embedded database's thread (src/server/db/pglite-worker.mjs, decision 050) is plain
// JavaScript that imports only packages and socket-sessions.mjs: the build copies both beside
// main.js as they are.
const pgliteWorker: Plugin = {
  name: "pglite-worker",
  generateBundle() {
    for (const file of ["pglite-worker.mjs", "socket-sessions.mjs"])
      this.emitFile({ type: "asset", fileName: file, source: readFileSync(`src/server/db/${file}`, "utf8") });
  },
};

export default defineConfig({
  publicDir: false,
  plugins: worker ? [] : [pgliteWorker],
  logLevel: "warn",
  build: {
    ssr: worker ? "src/server/content/render-worker.ts" : "src/server/main.ts",
    outDir: "dist/server-node",
    emptyOutDir: !worker,
    target: "node20.19",
    minify: false,
    // Stack traces name the compiled file; `node --enable-source-maps` maps them to the source.
    sourcemap: true,
    rolldownOptions: {
      output: {
        entryFileNames: worker ? "render-worker.js" : "main.js",
        // One file: a chunk elsewhere would compute its paths from another folder.
        codeSplitting: false,
      },
    },
  },
});
