import { sql } from "drizzle-orm";
import type { Tx } from "./item-queries.ts";
import type { StudioKindSpec } from "./kinds.ts";
import { PRESENCE_WINDOW_MS } from "./presence.ts";

// One autosave per item and author a minute (docs/decisions/048-autosave-limits-and-folding.md):
// an autosave made within a minute of the head, when the head is that author's own autosave that
// nothing refers to, replaces the head instead of following it (appendRevision's replacesHeadId).
// A form save, a publish or a restore always makes a revision of its own.

/** How long an autosave revision takes the autosaves after it in, from its first. */
export const AUTOSAVE_FOLD_SECONDS = 60;

/**
 * The head an autosave may replace, or undefined when it must follow it. Called in the save's
 * transaction with the item's row locked and the base checked to be the head. The head must be:
 *
 * - an autosave by the same member of staff, made less than AUTOSAVE_FOLD_SECONDS ago (by the
 *   database's clock, which dated it);
 * - not the published (or scheduled) revision;
 * - no other revision's base or restore source;
 * - named by no event of the item's audit trail (a preview or share link made, an unpublish: "at
 *   revision 12" must stay what it was);
 * - the base of no other open editor: while another session has the item open (presence), its
 *   page is based on the head, and its conflict and "See what they changed" name that revision.
 */
export async function foldableHead(
  tx: Tx,
  spec: StudioKindSpec,
  input: {
    itemId: string;
    headRevisionId: number;
    publishedRevisionId: number | null;
    authorId: string;
    sessionIdHash: string;
    now: Date;
  },
): Promise<number | undefined> {
  const itemColumn = spec.kind === "article" ? sql.raw("article_id") : sql.raw("project_id");
  const seenSince = new Date(input.now.getTime() - PRESENCE_WINDOW_MS).toISOString();
  const found = (await tx.execute(
    sql`select r.id from content_revisions r
        where r.id = ${input.headRevisionId}
          and r.${itemColumn} = ${input.itemId}
          and r.source = 'autosave'
          and r.author_id = ${input.authorId}
          and r.created_at > now() - ${AUTOSAVE_FOLD_SECONDS}::int * interval '1 second'
          and r.id is distinct from ${input.publishedRevisionId}::bigint
          and not exists (
            select 1 from content_revisions x
            where x.${itemColumn} = ${input.itemId} and r.id in (x.base_revision_id, x.restored_from_id)
          )
          and not exists (
            select 1 from audit_events e
            where e.target_type = ${spec.kind} and e.target_id = ${input.itemId}
              and (e.details->>'revision' in (r.id::text, r.number::text) or e.details->>'restoredFrom' = r.number::text)
          )
          and not exists (
            select 1 from content_presence p
            where p.${itemColumn} = ${input.itemId}
              and p.session_id_hash <> ${input.sessionIdHash}
              and p.seen_at >= ${seenSince}::timestamptz
          )`,
  )) as unknown as { rows: { id: string | number }[] };
  const [row] = found.rows;
  return row ? Number(row.id) : undefined;
}
