import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Database, queryRows } from "../db/client.ts";
import type { ImportOptions, ImportSummary } from "./import-content.ts";

// How `npm run content:import` (and content:sync) has a running site do an import, when the
// site holds the embedded database (docs/decisions/005-…): the command leaves a request in
// app_settings through the site's socket and sends SIGHUP; the site takes the requests, runs each
// import in its own session and leaves the result under the request's id, which the command waits
// for, prints and removes. An import run through the socket instead would share the site's one
// database session, and a rollback of its transaction could undo what the site wrote meanwhile.

const REQUEST = "content-import-request:";
const RESULT = "content-import-result:";

export type ImportRequest = {
  id: string;
  /** The folder, as an absolute path. */
  dir: string;
  options: Pick<ImportOptions, "force" | "prune" | "dryRun" | "actorLabel"> & { publicDir?: string };
};

/** What the site answers: the import's summary, or why it failed. */
export type ImportAnswer = { summary: ImportSummary } | { error: string };

export async function leaveImportRequest(db: Database, request: Omit<ImportRequest, "id">): Promise<string> {
  const id = randomUUID();
  await queryRows(
    db,
    sql`insert into app_settings (key, value) values (${REQUEST + id}, ${JSON.stringify({ ...request, id })})`,
  );
  return id;
}

/** The requests waiting, taken (deleted) so that each is run once. */
export async function takeImportRequests(db: Database): Promise<ImportRequest[]> {
  const rows = await queryRows<{ value: string }>(
    db,
    sql`delete from app_settings where key like ${`${REQUEST}%`} returning value`,
  );
  return rows.map((row) => JSON.parse(row.value) as ImportRequest);
}

export async function leaveImportAnswer(db: Database, id: string, answer: ImportAnswer): Promise<void> {
  await queryRows(
    db,
    sql`insert into app_settings (key, value) values (${RESULT + id}, ${JSON.stringify(answer)})
        on conflict (key) do update set value = excluded.value`,
  );
}

/** The site's answer to a request, taken; undefined while there is none. */
export async function takeImportAnswer(db: Database, id: string): Promise<ImportAnswer | undefined> {
  const [row] = await queryRows<{ value: string }>(
    db,
    sql`delete from app_settings where key = ${RESULT + id} returning value`,
  );
  return row ? (JSON.parse(row.value) as ImportAnswer) : undefined;
}

/** Withdraws a request no site took (the command gave up waiting). */
export async function withdrawImportRequest(db: Database, id: string): Promise<void> {
  await queryRows(db, sql`delete from app_settings where key = ${REQUEST + id}`);
}
