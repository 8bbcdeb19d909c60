import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Database, queryRows } from "../db/client.ts";

// The content's version, shared by every instance through the database: the content sync bumps
// it, and each instance reads it every few seconds to know when its page cache is stale. The
// moment the next scheduled article is published also counts as a change.

export const CONTENT_VERSION_KEY = "content-version";

export async function bumpContentVersion(db: Database): Promise<void> {
  await queryRows(
    db,
    sql`insert into app_settings (key, value) values (${CONTENT_VERSION_KEY}, ${String(Date.now())})
        on conflict (key) do update set value = excluded.value`,
  );
}

/**
 * When a sync last ran to its end, whether or not it changed anything: what `npm run content:sync`
 * waits for after asking a running site to load its files (the version moves only on a change).
 */
export const CONTENT_LOADED_KEY = "content-loaded";

export async function markContentLoaded(db: Database): Promise<void> {
  await queryRows(
    db,
    sql`insert into app_settings (key, value) values (${CONTENT_LOADED_KEY}, ${`${Date.now()} ${randomUUID()}`})
        on conflict (key) do update set value = excluded.value`,
  );
}

export async function contentLoadedAt(db: Database): Promise<string | undefined> {
  const [row] = await queryRows<{ value: string }>(db, sql`select value from app_settings where key = ${CONTENT_LOADED_KEY}`);
  return row?.value;
}

/** When the content was last synced (the stored version is that moment in ms), or undefined before any sync. */
export async function contentSyncedAt(db: Database): Promise<Date | undefined> {
  const [row] = await queryRows<{ value: string }>(db, sql`select value from app_settings where key = ${CONTENT_VERSION_KEY}`);
  const time = Number(row?.value);
  return row && Number.isFinite(time) ? new Date(time) : undefined;
}

export type ContentVersionWatcher = {
  /** The current version: the stored one plus the number of scheduled articles now due. */
  current: () => string;
  refresh: () => Promise<void>;
  stop: () => void;
};

export async function watchContentVersion(db: Database, intervalMs = 5000): Promise<ContentVersionWatcher> {
  let stored = "";
  let latestPublished = 0;
  let nextPublishAt = Number.POSITIVE_INFINITY;
  const time = (value: Date | string | null | undefined) => (value ? new Date(value).getTime() : undefined);
  const refresh = async () => {
    const [row] = await queryRows<{ version: string | null; latest: Date | string | null; next_publish: Date | string | null }>(
      db,
      sql`select (select value from app_settings where key = ${CONTENT_VERSION_KEY}) as version,
                 (select max(published_at) from blog_posts where published_at <= now()) as latest,
                 (select min(published_at) from blog_posts where published_at > now()) as next_publish`,
    );
    stored = row?.version ?? "";
    latestPublished = time(row?.latest) ?? 0;
    nextPublishAt = time(row?.next_publish) ?? Number.POSITIVE_INFINITY;
  };
  // Before the migrations have run there is nothing to read yet; the next poll will find it.
  await refresh().catch(() => {});
  const timer = setInterval(() => {
    // A failed poll keeps the last known version; the next one tries again.
    refresh().catch(() => {});
  }, intervalMs);
  timer.unref();
  return {
    // The newest article already due is part of the version; past the next scheduled one the
    // version moves at once, before the next poll confirms it.
    current: () => `${stored}:${Date.now() >= nextPublishAt ? nextPublishAt : latestPublished}`,
    refresh,
    stop: () => clearInterval(timer),
  };
}
