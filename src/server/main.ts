import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerEntry } from "#shared/page-rendering.ts";
import { DRILL_ARCHIVE_ENV, runDrill } from "./backup/drill.ts";
import { type Config, ConfigError, parseConfig } from "./config.ts";
import type { AdminServerEntry } from "#shared/admin/pages.ts";
import { type AdminRenderer, createAdminRenderer, devAdminAssets, readAdminAssets } from "./render/admin-renderer.ts";
import { createLogDestination } from "./log-destination.ts";
import { projectRoot } from "./project-root.ts";
import { devAssets, readBuiltAssets } from "./render/assets.ts";
import { createPageRenderer, type PageRenderer } from "./render/page-renderer.ts";
import { type Site, type SiteOptions, startSite } from "./site.ts";
import { companyDataKey } from "#shared/company.ts";

// Starts the site: configuration, database and migrations, content, pages, then listens.

const clientDir = path.join(projectRoot, "dist", "client");
const serverEntryPath = path.join(projectRoot, "dist", "server", "entry-server.js");
const adminEntryPath = path.join(projectRoot, "dist", "server", "admin-entry-server.js");

function loadConfig(): Config {
  try {
    return parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** The restore drill's child process (backup/drill.ts): the built pages, from the archive's database. */
async function drill(archive: string) {
  const entry = (await import(pathToFileURL(serverEntryPath).href)) as ServerEntry;
  const renderer = createPageRenderer({
    loadEntry: async () => entry,
    assets: readBuiltAssets(clientDir),
    siteUrl: "http://localhost",
  });
  console.log(JSON.stringify(await runDrill(archive, { passphrase: process.env.BACKUP_PASSPHRASE, renderer })));
  process.exit(0);
}

async function main() {
  const drillArchive = process.env[DRILL_ARCHIVE_ENV];
  if (drillArchive) return drill(drillArchive);
  const config = loadConfig();
  // JSON logs in production, written to stdout asynchronously and flushed on the way out;
  // readable ones in development.
  const logDestination = config.dev ? undefined : createLogDestination();
  const logger = logDestination
    ? { level: config.logLevel, stream: logDestination.stream }
    : {
        level: config.logLevel,
        transport: { target: "pino-pretty", options: { translateTime: "HH:MM:ss", ignore: "pid,hostname" } },
      };

  // The signal handlers come first: a signal during start-up (migrations, content sync) stops it
  // after the step in hand, closes the database and exits 0, like one that arrives later.
  const startup = new AbortController();
  let closeDevServer = async () => {};
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    startup.abort(new Error(`start-up called off by ${signal}`));
    const site = await starting.catch(() => undefined);
    if (site) {
      const shutdownStarted = performance.now();
      site.app.log.info({ signal }, "shutting down");
      await site.close();
      site.app.log.info({ signal, durationMs: Math.round(performance.now() - shutdownStarted) }, "shut down");
    }
    await closeDevServer();
    // Last: the log lines still queued, the shutdown's own among them.
    await logDestination?.flush();
    console.log(site ? `Site stopped cleanly (${signal}).` : `Site stopped during start-up (${signal}).`);
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  // `npm run content:sync` and `npm run backup` ask a site that holds the embedded database to
  // load the content, or make a backup, itself (site-requests.ts).
  process.on("SIGHUP", () => {
    site.onHangUp().then(
      () => site.app.log.info("answered SIGHUP"),
      (error: unknown) => site.app.log.error({ err: error }, "answering SIGHUP failed"),
    );
  });

  async function startUp(): Promise<Site> {
    console.log("Starting: database, migrations, content…");
    let renderer: PageRenderer;
    let adminRenderer: AdminRenderer;
    let devMiddleware: SiteOptions["devMiddleware"];
    if (config.dev) {
      const { createServer } = await import("vite");
      const vite = await createServer({ root: projectRoot, server: { middlewareMode: true }, appType: "custom" });
      devMiddleware = vite.middlewares as unknown as typeof devMiddleware;
      closeDevServer = () => vite.close();
      renderer = createPageRenderer({
        loadEntry: () => vite.ssrLoadModule("/src/web/entry-server.tsx") as Promise<ServerEntry>,
        assets: devAssets,
        transformHtml: (url, html) => vite.transformIndexHtml(url, html),
        siteUrl: config.siteUrl,
        siteData: { [companyDataKey]: config.company },
      });
      adminRenderer = createAdminRenderer({
        loadEntry: () => vite.ssrLoadModule("/src/web/admin/entry-server.tsx") as Promise<AdminServerEntry>,
        assets: devAdminAssets,
        transformHtml: (url, html) => vite.transformIndexHtml(url, html),
      });
    } else {
      const entry = (await import(pathToFileURL(serverEntryPath).href)) as ServerEntry;
      renderer = createPageRenderer({
        loadEntry: async () => entry,
        assets: readBuiltAssets(clientDir),
        siteUrl: config.siteUrl,
        siteData: { [companyDataKey]: config.company },
      });
      const adminEntry = (await import(pathToFileURL(adminEntryPath).href)) as AdminServerEntry;
      adminRenderer = createAdminRenderer({ loadEntry: async () => adminEntry, assets: readAdminAssets(clientDir) });
    }
    return startSite({
      config,
      renderer,
      adminRenderer,
      devMiddleware,
      clientDir: config.dev ? undefined : clientDir,
      logger,
      signal: startup.signal,
      // The drill's child process is this entry again, with the same flags (tsx, when it has them).
      drillEntry: config.dev ? undefined : { script: fileURLToPath(import.meta.url), execArgv: process.execArgv },
    });
  }

  const starting = startUp();
  let site: Site;
  try {
    site = await starting;
  } catch (error) {
    if (stopping) return; // stop() finishes the shutdown.
    throw error;
  }
  if (stopping) return;

  try {
    await site.app.listen({ port: config.port, host: config.host });
  } catch (error) {
    if (stopping) return; // Closed by a signal while it was starting to listen.
    throw error;
  }
  const address = site.app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const shownHost = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  console.log(
    `${config.dev ? "Development server" : "Site"} running at http://${shownHost}:${port}/ ` +
      `(database: ${site.database.driver === "pglite" ? `embedded, in ${path.resolve(config.dataDir)}` : "PostgreSQL"})`,
  );
}

main().catch((error: unknown) => {
  console.error("The server could not start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
