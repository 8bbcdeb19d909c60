import { finish, parseImportArgs, runImportCommand } from "./content-commands.ts";

// `npm run content:import -- <dir> [--force] [--prune] [--dry-run]`: brings a content folder into
// the database the site uses, saying what it added, updated, trashed and skipped (docs/content.md).
// Exits 1 when a file is broken, 2 when an item was skipped because it changed in the studio.

finish(
  Promise.resolve().then(() => runImportCommand(parseImportArgs(process.argv.slice(2)), "npm run content:import")),
);
