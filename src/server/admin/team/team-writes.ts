import { eq, inArray, isNotNull, sql } from "drizzle-orm";
import { slugFromTitle, type TeamMemberDocument } from "#shared/content/documents.ts";
import type { Database } from "../../db/client.ts";
import { contentRevisions, teamMembers } from "../../db/schema.ts";
import { bumpContentVersion } from "../../content/data-version.ts";
import { publishRevision, unpublishItem } from "../../content/publishing.ts";
import { appendRevision, headRevision, type RevisionSummary } from "../../content/revisions.ts";
import { TEAM_ORDER, type Tx } from "./team-queries.ts";

// Every change the studio makes to the team, each one transaction
// (docs/decisions/043-the-team-order-is-not-a-revision.md):
//
// - add, save, show, hide, move to the trash, restore: the member's row is locked first and the
//   revision the person saw must still be the head (decision 038, section 4), so of two changes
//   made from one revision exactly one wins. A save appends a revision; when the member is shown
//   it becomes the published copy at once.
// - the order: a column of the row, set at once and never by a revision. Every change of it
//   (a move, the order after dragging, a member added or restored) takes the team's order lock
//   and renumbers every member 1, 2, 3… in one transaction: no gaps, no ties, and two people
//   moving at once take turns, each moving the member from where it is when their turn comes.
//
// Lock order, to leave no room for a deadlock: the team's order lock before any member's row.

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type TeamAuthor = { id: string; label: string };

/** A member's fields as the form gives them (the slug is the member's, never the form's). */
export type TeamMemberFields = Omit<TeamMemberDocument, "slug">;

export type TeamRefusal =
  /** The head is no longer the revision the person saw: someone saved meanwhile. */
  | { outcome: "stale"; current: RevisionSummary }
  /** No such member, or (for anything but restoring) it is in the trash. */
  | { outcome: "missing" }
  /** The action does not apply to the member as it is ("shown already"). */
  | { outcome: "refused"; message: string };

/** Holds the team's order until the transaction ends: changes of the order take turns. */
async function lockTeamOrder(tx: Transaction): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('team-order'))`);
}

async function lockMemberRow(tx: Transaction, id: string) {
  const [row] = await tx.select().from(teamMembers).where(eq(teamMembers.id, id)).for("update");
  return row;
}

/**
 * Numbers the members 1, 2, 3…: those of `live` in that order (every member not in the trash),
 * then those in the trash in the team's order. Writes only the rows whose number changes; whether
 * any did.
 */
async function renumber(tx: Transaction, live: string[]): Promise<boolean> {
  const rows = await tx
    .select({ id: teamMembers.id, order: teamMembers.order, deletedAt: teamMembers.deletedAt })
    .from(teamMembers)
    .orderBy(...TEAM_ORDER);
  const liveSet = new Set(live);
  const sequence = [...live, ...rows.filter((row) => !liveSet.has(row.id)).map((row) => row.id)];
  const current = new Map(rows.map((row) => [row.id, row.order]));
  let changed = false;
  for (const [index, id] of sequence.entries()) {
    if (current.get(id) === index + 1) continue;
    await tx
      .update(teamMembers)
      .set({ order: index + 1 })
      .where(eq(teamMembers.id, id));
    changed = true;
  }
  return changed;
}

/** The members not in the trash, in the team's order, their rows locked until the transaction ends. */
async function liveInOrder(tx: Transaction) {
  const rows = await tx
    .select({ id: teamMembers.id, deletedAt: teamMembers.deletedAt })
    .from(teamMembers)
    .orderBy(...TEAM_ORDER)
    .for("update");
  return rows.filter((row) => !row.deletedAt).map((row) => row.id);
}

/** A slug (the member's file name) no member has had: made from the name, then -2, -3… */
async function freeMemberSlug(tx: Transaction, name: string): Promise<string> {
  const base = slugFromTitle(name) || "member";
  const taken = new Set<string>();
  const rows = await tx.select({ slug: teamMembers.slug }).from(teamMembers).where(isNotNull(teamMembers.slug));
  for (const row of rows) taken.add(row.slug!);
  const documents = await tx
    .select({ slug: sql<string | null>`${contentRevisions.document}->>'slug'` })
    .from(contentRevisions)
    .where(isNotNull(contentRevisions.teamMemberId));
  for (const row of documents) if (row.slug) taken.add(row.slug);
  let slug = base;
  for (let n = 2; taken.has(slug); n += 1) slug = `${base}-${n}`;
  return slug;
}

/** "Add member": the row, its first revision and, when shown, its published copy; placed last. */
export async function createMember(
  db: Database,
  input: { fields: TeamMemberFields; shown: boolean; author: TeamAuthor },
): Promise<{ outcome: "created"; id: string; slug: string; revision: RevisionSummary }> {
  return db.transaction(async (tx) => {
    await lockTeamOrder(tx);
    const live = await liveInOrder(tx);
    const slug = await freeMemberSlug(tx, input.fields.name);
    const [row] = await tx
      .insert(teamMembers)
      .values({ slug, status: "draft", order: live.length + 1 })
      .returning({ id: teamMembers.id });
    const id = row!.id;
    const saved = await appendRevision(tx, {
      kind: "team-member",
      itemId: id,
      document: { slug, ...input.fields },
      source: "studio",
      author: input.author,
    });
    if (saved.outcome !== "saved") throw new Error(`the new member's first revision was not saved: ${saved.outcome}`);
    if (input.shown)
      await publishRevision(tx, {
        kind: "team-member",
        itemId: id,
        revisionId: saved.revision.id,
        studioChangeBy: input.author.label,
      });
    if ((await renumber(tx, [...live, id])) && !input.shown) await bumpContentVersion(tx);
    return { outcome: "created", id, slug, revision: saved.revision };
  });
}

/** The member's row for a change based on `base`, or why not. */
async function memberForChange(tx: Transaction, id: string, base: number, trashed: "refused" | "required") {
  const row = await lockMemberRow(tx, id);
  if (!row || row.headRevisionId === null) return { refusal: { outcome: "missing" } as const };
  if (trashed === "refused" && row.deletedAt) return { refusal: { outcome: "missing" } as const };
  if (trashed === "required" && !row.deletedAt)
    return { refusal: { outcome: "refused", message: "This member is not in the trash." } as const };
  if (row.headRevisionId !== base) {
    const current = await headRevision(tx, "team-member", id);
    return { refusal: current ? ({ outcome: "stale", current } as const) : ({ outcome: "missing" } as const) };
  }
  return { row };
}

/**
 * "Save": a new head revision made from `base`, unless the fields are the head's already. A shown
 * member's new revision is published in the same transaction: the site shows it at once.
 */
export async function saveMember(
  db: Database,
  input: { id: string; base: number; fields: TeamMemberFields; author: TeamAuthor },
): Promise<{ outcome: "saved" | "unchanged"; revision: RevisionSummary; shown: boolean } | TeamRefusal> {
  return db.transaction(async (tx) => {
    const found = await memberForChange(tx, input.id, input.base, "refused");
    if (found.refusal) return found.refusal;
    const { row } = found;
    const head = (await headRevision(tx, "team-member", input.id))!;
    const [stored] = await tx
      .select({ slug: sql<string | null>`${contentRevisions.document}->>'slug'` })
      .from(contentRevisions)
      .where(eq(contentRevisions.id, head.id));
    const slug = row.slug ?? stored?.slug ?? "";
    const saved = await appendRevision(tx, {
      kind: "team-member",
      itemId: input.id,
      baseRevisionId: input.base,
      document: { slug, ...input.fields },
      source: "studio",
      author: input.author,
    });
    if (saved.outcome === "stale" || saved.outcome === "missing") return saved;
    const shown = row.status === "published";
    if (shown && row.publishedRevisionId !== saved.revision.id)
      await publishRevision(tx, {
        kind: "team-member",
        itemId: input.id,
        revisionId: saved.revision.id,
        studioChangeBy: input.author.label,
      });
    return { outcome: saved.outcome, revision: saved.revision, shown };
  });
}

export type MemberAction = "show" | "hide" | "trash" | "untrash";

/**
 * Show (its head becomes the published copy), Hide (off the site, its copy kept, and its place),
 * Move to trash (off the site and out of the order, restorable) and Restore (hidden, placed
 * last). The page's revision must still be the head.
 */
export async function actOnMember(
  db: Database,
  input: { id: string; base: number; action: MemberAction; author: TeamAuthor; now: Date },
): Promise<{ outcome: "done"; head: RevisionSummary; wasShown: boolean } | TeamRefusal> {
  return db.transaction(async (tx) => {
    // The trash and back change the order (the member leaves it, or comes back last): the order's
    // lock first, as every change of it.
    if (input.action === "trash" || input.action === "untrash") await lockTeamOrder(tx);
    const found = await memberForChange(tx, input.id, input.base, input.action === "untrash" ? "required" : "refused");
    if (found.refusal) return found.refusal;
    const { row } = found;
    const head = (await headRevision(tx, "team-member", input.id))!;
    const wasShown = row.status === "published" && !row.deletedAt;
    const changed = { studioChangedAt: sql`now()`, studioChangedByLabel: input.author.label };
    if (input.action === "show") {
      if (wasShown && row.publishedRevisionId === head.id)
        return { outcome: "refused", message: "This member is shown on the site already." };
      await publishRevision(tx, {
        kind: "team-member",
        itemId: input.id,
        revisionId: head.id,
        studioChangeBy: input.author.label,
      });
    } else if (input.action === "hide") {
      if (!wasShown) return { outcome: "refused", message: "This member is hidden already." };
      await unpublishItem(tx, "team-member", input.id, input.author.label);
    } else if (input.action === "trash") {
      await tx
        .update(teamMembers)
        .set({ deletedAt: input.now, deletedByLabel: input.author.label, ...changed })
        .where(eq(teamMembers.id, input.id));
      // The others close up behind it.
      if ((await renumber(tx, await liveInOrder(tx))) || wasShown) await bumpContentVersion(tx);
    } else {
      // Back hidden: a member shown before the trash keeps its published copy, to show again.
      const status = row.status === "published" ? "unpublished" : row.status;
      await tx
        .update(teamMembers)
        .set({ deletedAt: null, deletedByLabel: null, status, ...changed })
        .where(eq(teamMembers.id, input.id));
      const live = (await liveInOrder(tx)).filter((id) => id !== input.id);
      if (await renumber(tx, [...live, input.id])) await bumpContentVersion(tx);
    }
    return { outcome: "done", head, wasShown };
  });
}

/**
 * Move up / Move down: the member changes places with the one before or after it, as the order
 * is when this transaction's turn comes. Hidden members have places too (they keep theirs while
 * hidden). "unmoved" when the member is at that end already.
 */
export async function moveMember(
  db: Database,
  input: { id: string; direction: "up" | "down" },
): Promise<{ outcome: "moved" | "unmoved"; from: number; to: number } | { outcome: "missing" }> {
  return db.transaction(async (tx) => {
    await lockTeamOrder(tx);
    const live = await liveInOrder(tx);
    const from = live.indexOf(input.id);
    if (from < 0) return { outcome: "missing" };
    const to = input.direction === "up" ? from - 1 : from + 1;
    if (to < 0 || to >= live.length) {
      // Nothing moves; the numbers are made whole all the same (an import may have left ties).
      if (await renumber(tx, live)) await bumpContentVersion(tx);
      return { outcome: "unmoved", from: from + 1, to: from + 1 };
    }
    [live[from], live[to]] = [live[to]!, live[from]!];
    await renumber(tx, live);
    await bumpContentVersion(tx);
    return { outcome: "moved", from: from + 1, to: to + 1 };
  });
}

/**
 * The order after dragging: every member not in the trash, first to last. Refused ("changed")
 * when the members posted are not exactly those of the team now (one was added, trashed or
 * restored since the page was opened); nothing is written then.
 */
export async function reorderTeam(
  db: Database,
  input: { ids: string[] },
): Promise<{ outcome: "reordered"; before: string[]; after: string[] } | { outcome: "changed" }> {
  return db.transaction(async (tx) => {
    await lockTeamOrder(tx);
    const live = await liveInOrder(tx);
    const posted = input.ids.map((id) => id.toLowerCase());
    const same = posted.length === live.length && posted.every((id) => live.includes(id));
    if (!same) return { outcome: "changed" };
    if (await renumber(tx, posted)) await bumpContentVersion(tx);
    return { outcome: "reordered", before: live, after: posted };
  });
}

/** The names of members by id (their head's, else their published one's), for the audit trail. */
export async function memberNames(db: Tx, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({
      id: teamMembers.id,
      published: teamMembers.name,
      head: sql<string | null>`${contentRevisions.document}->>'name'`,
    })
    .from(teamMembers)
    .leftJoin(contentRevisions, eq(contentRevisions.id, teamMembers.headRevisionId))
    .where(inArray(teamMembers.id, ids));
  return new Map(rows.map((row) => [row.id, row.head ?? row.published ?? row.id]));
}
