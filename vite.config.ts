import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Two builds: the browser bundle (dist/client, with a manifest the server reads) and the
// server-rendering entry (dist/server). `npm run build` runs both.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      // wouter imports the shim for React 17; React 19 has useSyncExternalStore built in.
      "use-sync-external-store/shim/index.js": fileURLToPath(new URL("src/web/lib/use-sync-external-store.ts", import.meta.url)),
    },
  },
  build: isSsrBuild
    ? {
        outDir: "dist/server",
        emptyOutDir: true,
        copyPublicDir: false,
        // The public pages' server entry and the back office's, each a file of its own.
        rolldownOptions: { input: { "entry-server": "src/web/entry-server.tsx", "admin-entry-server": "src/web/admin/entry-server.tsx" } },
      }
    : {
        outDir: "dist/client",
        emptyOutDir: true,
        manifest: true,
        // The server writes <link rel="modulepreload"> for each page's chunks itself.
        modulePreload: false,
        rolldownOptions: {
          // The boot script starts the entry once the page has been painted (src/web/boot.ts); the
          // back office's script is an entry of its own, which no public page links.
          input: ["src/web/entry-client.tsx", "src/web/boot.ts", "src/web/admin/admin-client.ts"],
          output: {
            // Few modules, because each one a phone fetches and evaluates costs it a few
            // milliseconds of main thread: React DOM, the rest of the framework with the icons,
            // the site's shared code, then each page's own chunk; zod only where a form validates.
            codeSplitting: {
              groups: [
                { name: "react-dom", test: /node_modules[\\/](react-dom|scheduler)[\\/]/, priority: 4 },
                { name: "validation", test: /node_modules[\\/]zod[\\/]/, priority: 3 },
                // Not the back office's passkey library: it belongs to the back office's own chunk.
                { name: "framework", test: /node_modules[\\/](?!lucide-react[\\/]|@simplewebauthn[\\/])/, priority: 2 },
                // Not the boot script, the entry or the zod schemas: those stay where they are used.
                {
                  name: "site",
                  test: /src[\\/](shared[\\/](?!schemas[\\/](contact-submission|newsletter-signup)|admin-)|web[\\/](components|lib|ui|api)[\\/]|web[\\/](app|routes)\.tsx)/,
                  priority: 1,
                },
              ],
            },
          },
        },
      },
}));
