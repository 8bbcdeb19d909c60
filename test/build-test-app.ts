import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { type AppDependencies, buildApp } from "#server/app.ts";
import { type Config, parseConfig } from "#server/config.ts";
import { seedContent } from "#server/content/import-content.ts";
import { applyMigrations } from "#server/db/migrate.ts";
import { type AdminRenderer, createAdminRenderer } from "#server/render/admin-renderer.ts";
import { createPageRenderer, type PageRenderer } from "#server/render/page-renderer.ts";
import type { PageData } from "#shared/page-rendering.ts";
import { companyDataKey } from "#shared/company.ts";
import { repoRoot, siteContentDir } from "./paths.ts";
import { createTestDatabase, type TestDatabase, type TestDriver } from "./databases.ts";

export { repoRoot, siteContentDir };

/** The back office's pages, rendered by its real server entry, with placeholder asset names. */
export function testAdminRenderer(): AdminRenderer {
  return createAdminRenderer({
    loadEntry: () => import("#web/admin/entry-server.tsx"),
    assets: { script: "/assets/admin-client.js", styles: ["/assets/admin-client.css"] },
  });
}

/** Pages rendered by the real server entry, with placeholder asset names. */
export function testRenderer(siteUrl: string, siteData?: PageData): PageRenderer {
  return createPageRenderer({
    loadEntry: () => import("#web/entry-server.tsx"),
    assets: {
      base: { scripts: ["/assets/entry-client.js"], styles: ["/assets/entry-client.css"], preloads: [] },
      forIslands(modules) {
        return { ...this.base, preloads: modules.map((module) => `/assets/${path.basename(module, ".tsx")}.js`) };
      },
    },
    siteUrl,
    ...(siteData ? { siteData } : {}),
  });
}

export type TestApp = { app: FastifyInstance; database: TestDatabase; config: Config; close: () => Promise<void> };

/**
 * The real app over a fresh, migrated database of the given driver, with the site's content
 * loaded (unless `content: false`) and pages rendered by the real server entry.
 */
export async function buildTestApp(
  driver: TestDriver,
  options: {
    content?: boolean;
    env?: Record<string, string>;
    now?: () => Date;
    onMailQueued?: () => void;
    queuedWorkTimer?: AppDependencies["queuedWorkTimer"];
    afterAnswer?: (work: () => Promise<void>) => void;
    /** How much work may wait after answers (the app's MAX_WORK_AFTER_ANSWER by default). */
    maxWorkAfterAnswer?: number;
    /**
     * Migrates and seeds the database here instead of copying the run's template: for a test whose
     * point is two independent loads of the same content (new row ids in each).
     */
    seededHere?: boolean;
    /** pino's options, a stream among them, for a test that reads what the site logs. */
    logger?: AppDependencies["logger"];
    /** Where the embedded database runs (test/databases.ts): "worker" as the site runs it. */
    thread?: "worker" | "process";
    /** The backups the Health page may ask for (app.ts). */
    backups?: AppDependencies["backups"];
    /** How often the app polls the content version (CONTENT_POLL_MS by default). */
    contentPollMs?: number;
  } = {},
): Promise<TestApp> {
  const config = parseConfig({
    NODE_ENV: "test",
    SITE_URL: "https://www.example.test",
    RATE_LIMIT_PER_MINUTE: "100000",
    // Erasures write the ledger beside the backups: never into the project's own ./backups.
    BACKUP_DIR: path.join(tmpdir(), `site-test-backups-${process.pid}`),
    ...options.env,
  });
  const from = options.content === false ? "empty" : "content";
  const database = await createTestDatabase(driver, {
    ...(options.seededHere ? {} : { from }),
    ...(options.thread ? { thread: options.thread } : {}),
  });
  if (options.seededHere) {
    await applyMigrations(database.db);
    if (from === "content") await seedContent(database.db, siteContentDir);
  }
  const app = await buildApp({
    config,
    db: database.db,
    renderer: testRenderer(config.siteUrl, { [companyDataKey]: config.company }),
    adminRenderer: testAdminRenderer(),
    now: options.now,
    onEnquiryQueued: options.onMailQueued,
    queuedWorkTimer: options.queuedWorkTimer,
    afterAnswer: options.afterAnswer,
    maxWorkAfterAnswer: options.maxWorkAfterAnswer,
    logger: options.logger,
    backups: options.backups,
    contentPollMs: options.contentPollMs,
  });
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
