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
    ? { outDir: "dist/server", emptyOutDir: true, copyPublicDir: false }
    : {
        outDir: "dist/client",
        emptyOutDir: true,
        manifest: true,
        // The server writes <link rel="modulepreload"> for each page's chunks itself.
        modulePreload: false,
        rolldownOptions: {
          // The boot script starts the entry once the page has been painted (src/web/boot.ts).
          input: ["src/web/entry-client.tsx", "src/web/boot.ts"],
          output: {
            // The framework in one well-compressed chunk, zod only where a form validates; the
            // site's own code split by page.
            codeSplitting: {
              groups: [
                { name: "framework", test: /node_modules[\\/](?!zod|lucide-react)/, priority: 3 },
                { name: "validation", test: /node_modules[\\/]zod/, priority: 2 },
              ],
            },
          },
        },
      },
}));
