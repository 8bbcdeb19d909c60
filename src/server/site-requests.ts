import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Database, queryRows } from "./db/client.ts";

// How a command has a running site do work for it, when the site holds the embedded database
// (docs/decisions/005-…): the command leaves a request in app_settings through the site's socket
// and sends SIGHUP; the site takes the requests, does each in its own session and leaves the answer
// under the request's id, which the command waits for, prints and removes.
// - `npm run content:import` and content:sync ("content-import"): an import run through the socket
//   instead would share the site's one database session, and a rollback of its transaction could
//   undo what the site wrote meanwhile.
// - `npm run backup` ("backup"): the site backs up from a copy of its database's files, where a
//   backup through the socket holds the site's one session while it reads every table
//   (docs/decisions/051-backups-that-restore.md).

export type RequestKind = "content-import" | "backup";

const requestKey = (kind: RequestKind, id = "") => `${kind}-request:${id}`;
const answerKey = (kind: RequestKind, id: string) => `${kind}-result:${id}`;

/** Leaves a request for the running site; answers its id. */
export async function leaveRequest<Body extends object>(db: Database, kind: RequestKind, body: Body): Promise<string> {
  const id = randomUUID();
  await queryRows(
    db,
    sql`insert into app_settings (key, value) values (${requestKey(kind, id)}, ${JSON.stringify({ ...body, id })})`,
  );
  return id;
}

/** The requests of a kind waiting, taken (deleted) so that each is done once. */
export async function takeRequests<Body extends object>(
  db: Database,
  kind: RequestKind,
): Promise<(Body & { id: string })[]> {
  const rows = await queryRows<{ value: string }>(
    db,
    sql`delete from app_settings where key like ${`${requestKey(kind)}%`} returning value`,
  );
  return rows.map((row) => JSON.parse(row.value) as Body & { id: string });
}

export async function leaveAnswer(db: Database, kind: RequestKind, id: string, answer: object): Promise<void> {
  await queryRows(
    db,
    sql`insert into app_settings (key, value) values (${answerKey(kind, id)}, ${JSON.stringify(answer)})
        on conflict (key) do update set value = excluded.value`,
  );
}

/** The site's answer to a request, taken; undefined while there is none. */
export async function takeAnswer<Answer>(db: Database, kind: RequestKind, id: string): Promise<Answer | undefined> {
  const [row] = await queryRows<{ value: string }>(
    db,
    sql`delete from app_settings where key = ${answerKey(kind, id)} returning value`,
  );
  return row ? (JSON.parse(row.value) as Answer) : undefined;
}

/** Withdraws a request no site took (the command gave up waiting). */
export async function withdrawRequest(db: Database, kind: RequestKind, id: string): Promise<void> {
  await queryRows(db, sql`delete from app_settings where key = ${requestKey(kind, id)}`);
}

/** Whether the process `pid` is still there (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Leaves a request, has the running site `pid` take it (SIGHUP) and waits, through its socket, for
 * its answer: at most `withinMs`, and no longer than the site lives.
 */
export async function askRunningSite<Answer>(
  db: Database,
  pid: number,
  kind: RequestKind,
  body: object,
  withinMs: number,
): Promise<Answer> {
  const id = await leaveRequest(db, kind, body);
  process.kill(pid, "SIGHUP");
  const deadline = Date.now() + withinMs;
  for (;;) {
    const answer = await takeAnswer<Answer>(db, kind, id).catch((error: unknown) => {
      if (!alive(pid)) throw new Error(`The running site (pid ${pid}) stopped before it answered: see its log.`);
      // A failed query's own message names only the statement: say why it failed.
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new Error(`Waiting for the running site's (pid ${pid}) answer failed: ${cause.split("\n")[0]}`, {
        cause: error,
      });
    });
    if (answer) return answer;
    if (Date.now() > deadline) {
      await withdrawRequest(db, kind, id);
      throw new Error(`The running site (pid ${pid}) did not answer within ${withinMs / 1000} s: see its log.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
