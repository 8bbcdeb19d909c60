import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Two builds: the browser bundle (dist/client, with a manifest the server reads) and the
// server-rendering entry (dist/server). `npm run build` runs both.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss()],
  build: isSsrBuild
    ? {
        outDir: "dist/server",
        emptyOutDir: true,
        copyPublicDir: false,
        // The public pages' server entry and the back office's, each a file of its own.
        rolldownOptions: {
          input: { "entry-server": "src/web/entry-server.tsx", "admin-entry-server": "src/web/admin/entry-server.tsx" },
        },
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
            // React in one file, which every public page loads; then each island's own chunk and
            // the few modules islands share; zod only where a form validates, when it does.
            codeSplitting: {
              groups: [
                { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
                { name: "validation", test: /node_modules[\\/]zod[\\/]/, priority: 2 },
              ],
            },
          },
        },
      },
}));
