import { parseConfig } from "../src/server/config.ts";
import { finish, parseImportArgs, runImportCommand } from "./content-commands.ts";

// `npm run content:sync [-- --force] [--dry-run]`: the import of the site's CONTENT_DIR with
// --prune (npm run content:import -- $CONTENT_DIR --prune), as docs/content.md describes.

finish(
  Promise.resolve().then(() =>
    runImportCommand(
      parseImportArgs(process.argv.slice(2), parseConfig(process.env).contentDir),
      "npm run content:sync",
    ),
  ),
);
