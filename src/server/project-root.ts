import { fileURLToPath } from "node:url";

/**
 * The project's root folder: drizzle/ and dist/ are found from it. This file sits two folders
 * below the root (src/server/), and so does the compiled server that contains it
 * (dist/server-node/main.js, see vite.server.config.ts), so one relative URL holds in both.
 */
export const projectRoot = fileURLToPath(new URL("../../", import.meta.url));
