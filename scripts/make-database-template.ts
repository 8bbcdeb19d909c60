import path from "node:path";
import { databaseTemplatePath, makeDatabaseTemplate } from "#server/db/database-template.ts";

// The build's last step: the empty embedded database a new one starts from
// (src/server/db/database-template.ts).
const target = databaseTemplatePath();
const bytes = await makeDatabaseTemplate(target);
console.log(
  `empty database for a first start: ${path.relative(process.cwd(), target)} (${(bytes / 1024 / 1024).toFixed(1)} MB)`,
);
