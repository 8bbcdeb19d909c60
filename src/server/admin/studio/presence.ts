import { and, asc, eq, gte, lt, ne } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { contentPresence, staff } from "../../db/schema.ts";
import type { StudioKindSpec } from "./kinds.ts";

// Who has an article or a project open (decision 038, section 2): the editor beats every 15 s
// while visible; a row not beaten for 45 s is ignored, and deleted by the next beat on that item.
// Presence warns; the revision check (section 4) is what prevents a loss.

export const PRESENCE_WINDOW_MS = 45_000;

/** What the list of others calls your own other session. */
export const YOURSELF_ELSEWHERE = "you, in another window";

type Viewer = { sessionIdHash: string; staffId: string };

/** The others seen on this item within the window: their names, yourself in another window included. */
export async function othersPresent(
  db: Database,
  spec: StudioKindSpec,
  itemId: string,
  viewer: Viewer,
  now: Date,
): Promise<string[]> {
  const rows = await db
    .select({ staffId: contentPresence.staffId, name: staff.name })
    .from(contentPresence)
    .innerJoin(staff, eq(staff.id, contentPresence.staffId))
    .where(
      and(
        eq(spec.presenceItem, itemId),
        ne(contentPresence.sessionIdHash, viewer.sessionIdHash),
        gte(contentPresence.seenAt, new Date(now.getTime() - PRESENCE_WINDOW_MS)),
      ),
    )
    .orderBy(asc(contentPresence.startedAt));
  const names = rows.map((row) => (row.staffId === viewer.staffId ? YOURSELF_ELSEWHERE : row.name));
  return [...new Set(names)];
}

/** A beat: this session is on the item now; rows past the window are deleted. Returns the others. */
export async function beat(
  db: Database,
  spec: StudioKindSpec,
  itemId: string,
  viewer: Viewer,
  now: Date,
): Promise<string[]> {
  const item = spec.kind === "article" ? { articleId: itemId } : { projectId: itemId };
  await db
    .insert(contentPresence)
    .values({ ...item, sessionIdHash: viewer.sessionIdHash, staffId: viewer.staffId, startedAt: now, seenAt: now })
    .onConflictDoUpdate({ target: [spec.presenceItem, contentPresence.sessionIdHash], set: { seenAt: now } });
  await db
    .delete(contentPresence)
    .where(
      and(eq(spec.presenceItem, itemId), lt(contentPresence.seenAt, new Date(now.getTime() - PRESENCE_WINDOW_MS))),
    );
  return othersPresent(db, spec, itemId, viewer, now);
}

/** The session left the item (the editor closed): its row goes at once. */
export async function leave(db: Database, spec: StudioKindSpec, itemId: string, viewer: Viewer): Promise<void> {
  await db
    .delete(contentPresence)
    .where(and(eq(spec.presenceItem, itemId), eq(contentPresence.sessionIdHash, viewer.sessionIdHash)));
}
