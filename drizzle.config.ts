import { defineConfig } from "drizzle-kit";

// Generates the SQL migrations in drizzle/ from the schema: `npm run db:generate`.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/server/db/schema.ts",
  out: "./drizzle",
});
