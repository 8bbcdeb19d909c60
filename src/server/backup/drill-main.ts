import { createPageRenderer } from "../render/page-renderer.ts";
import { DRILL_ARCHIVE_ENV, runDrill } from "./drill.ts";

// The restore drill's child process under tsx (npm run dev, the tests): the pages render from the
// TypeScript entry; the compiled server runs the same drill from its own entry (main.ts).

const renderer = createPageRenderer({
  loadEntry: () => import("#web/entry-server.tsx"),
  assets: {
    base: { scripts: [], styles: [], preloads: [] },
    forIslands() {
      return this.base;
    },
  },
  siteUrl: "http://localhost",
});
const result = await runDrill(process.env[DRILL_ARCHIVE_ENV] ?? "", {
  passphrase: process.env.BACKUP_PASSPHRASE,
  renderer,
});
console.log(JSON.stringify(result));
process.exit(0);
