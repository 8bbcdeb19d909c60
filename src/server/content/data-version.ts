import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Database, queryRows } from "../db/client.ts";
import { blogPosts, projects } from "../db/schema.ts";
import { articleIsPublic, articleIsScheduled, projectIsPublic, projectIsScheduled } from "./public-conditions.ts";

// The content's version, shared by every instance through the database: every write that changes
// what the public reads bumps it in its transaction (publishing.ts, the importer, the media store,
// the team), the instance that wrote reads it again at once after its commit (the back office's
// door, after a route the route table marks `publicContent` succeeded: decision 060), and every
// instance polls it every 2 s to know when its page cache is stale. The moment the next scheduled article or
// project comes due on the instance's clock also counts as a change, with no poll and no job.
// docs/decisions/038-the-database-holds-the-content.md, section 3; 016 before it.

export const CONTENT_VERSION_KEY = "content-version";

/**
 * Moves the content version, in the caller's transaction. The value is the time in ms (the
 * sitemap dates pages by it), and always greater than the one before, so two writes within one
 * millisecond still make two versions: a watcher that read the first cannot miss the second.
 */
export async function bumpContentVersion(db: Database): Promise<void> {
  await queryRows(
    db,
    sql`insert into app_settings (key, value) values (${CONTENT_VERSION_KEY}, ${String(Date.now())})
        on conflict (key) do update set value = case
          when app_settings.value ~ '^[0-9]{1,15}$' then greatest(app_settings.value::bigint + 1, excluded.value::bigint)::text
          else excluded.value end`,
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
  const [row] = await queryRows<{ value: string }>(
    db,
    sql`select value from app_settings where key = ${CONTENT_LOADED_KEY}`,
  );
  return row?.value;
}

/** When the content was last synced (the stored version is that moment in ms), or undefined before any sync. */
export async function contentSyncedAt(db: Database): Promise<Date | undefined> {
  const [row] = await queryRows<{ value: string }>(
    db,
    sql`select value from app_settings where key = ${CONTENT_VERSION_KEY}`,
  );
  const time = Number(row?.value);
  return row && Number.isFinite(time) ? new Date(time) : undefined;
}

export type ContentVersionWatcher = {
  /** The current version: the stored one plus the newest article or project due on this instance's clock. */
  current: () => string;
  /** Reads the version now (the writing instance calls it after its commit; the timer does every poll). */
  refresh: () => Promise<void>;
  stop: () => void;
};

/** How often an instance looks for a change another made (decision 038, section 3). */
export const CONTENT_POLL_MS = 2000;

/**
 * The watchers of this process by database: for refreshContentVersion, which the studio's and the
 * team's handlers still call until their routes are marked `publicContent` (issue 34) and tests
 * call after writing the database directly, and for watchedContentVersion (the media index). The
 * back office reads its own watcher, handed to the door (docs/decisions/060-the-door-refreshes-the-content-version.md).
 */
const watchersByDatabase = new WeakMap<Database, Set<ContentVersionWatcher>>();

/**
 * Call after the commit of a write that changed what the public reads (publish, unpublish, trash,
 * a slug change…): every watcher of this process over `db` reads the version at once, so this
 * instance's next answer shows the change; the other instances see it at their next poll. Never
 * throws: a failed read keeps the last version, as a failed poll does. A back-office route does
 * not call it: it carries `publicContent` in the route table, and the door reads the version
 * again after its success (decision 060).
 */
export async function refreshContentVersion(db: Database): Promise<void> {
  const watchers = watchersByDatabase.get(db);
  if (watchers) await Promise.all([...watchers].map((watcher) => watcher.refresh().catch(() => {})));
}

/**
 * Watches the content version. Each poll is one small query: the stored version, and the newest
 * and next publication times of articles and projects under the public read condition
 * (src/server/content/public-content.ts) with this instance's clock as its parameter, not the
 * database's now(), so the clock that decides what a page shows also decides when its version moves.
 */
export async function watchContentVersion(
  db: Database,
  intervalMs = CONTENT_POLL_MS,
  now: () => Date = () => new Date(),
): Promise<ContentVersionWatcher> {
  let stored = "";
  let latestPublished = 0;
  let nextPublishAt = Number.POSITIVE_INFINITY;
  const time = (value: Date | string | null | undefined) => (value ? new Date(value).getTime() : undefined);
  const refresh = async () => {
    const at = now();
    const [row] = await queryRows<{
      version: string | null;
      latest: Date | string | null;
      next_publish: Date | string | null;
    }>(
      db,
      sql`select (select value from app_settings where key = ${CONTENT_VERSION_KEY}) as version,
                 greatest((select max(${blogPosts.publishedAt}) from ${blogPosts} where ${articleIsPublic(at)}),
                          (select max(${projects.publishedAt}) from ${projects} where ${projectIsPublic(at)})) as latest,
                 least((select min(${blogPosts.publishedAt}) from ${blogPosts} where ${articleIsScheduled(at)}),
                       (select min(${projects.publishedAt}) from ${projects} where ${projectIsScheduled(at)})) as next_publish`,
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
  const watcher: ContentVersionWatcher = {
    // The newest article or project already due is part of the version; past the next scheduled one the
    // version moves at once, before the next poll confirms it.
    current: () => `${stored}:${now().getTime() >= nextPublishAt ? nextPublishAt : latestPublished}`,
    refresh,
    stop: () => {
      clearInterval(timer);
      watchersByDatabase.get(db)?.delete(watcher);
    },
  };
  const watchers = watchersByDatabase.get(db) ?? new Set();
  watchers.add(watcher);
  watchersByDatabase.set(db, watchers);
  return watcher;
}

/**
 * The version a watcher of this process over `db` holds now, with no query; undefined when none
 * watches it (a command, a test reading the content directly). What the public pages' media index
 * (responsive-images.ts) is kept by, so that it follows every change the pages follow.
 */
export function watchedContentVersion(db: Database): string | undefined {
  const [watcher] = watchersByDatabase.get(db) ?? [];
  return watcher?.current();
}

/** The stored version, read now ("" before any); for a reader of `db` that no watcher serves. */
export async function storedContentVersion(db: Database): Promise<string> {
  const [row] = await queryRows<{ value: string }>(
    db,
    sql`select value from app_settings where key = ${CONTENT_VERSION_KEY}`,
  );
  return row?.value ?? "";
}
