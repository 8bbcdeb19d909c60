import { sql } from "drizzle-orm";
import type { HistoryEntryView } from "#shared/admin/pages.ts";
import { combineChanges, describeChanges, type RevisionChanges } from "#shared/content/revision-changes.ts";
import type { Database } from "../../db/client.ts";
import { itemRevisionsWithout, type ItemRow, revisionView } from "./item-queries.ts";
import type { StudioKindSpec } from "./kinds.ts";

// An item's History, one entry per save, with what each changed (decision 058). A run of
// autosaves by one person, with nobody else's revision, no form save and no publish between, is
// one entry ("Autosaved 11 times, 10:02–10:12") whose revision is the run's newest: the revisions
// themselves all stay, listed under the entry and reachable by Compare. The runs are found by the
// database (a window over the item's revisions, by number), and a page is a page of entries, so a
// run is never split by a page's end and a page's work is bounded by its entries, not by how
// many revisions there are.

/** Revisions of a run listed under its entry; Compare reaches the rest. */
export const RUN_MEMBERS_LISTED = 20;

type RunRow = {
  run: number | string;
  count: number | string;
  last_id: number | string;
  before_id: number | string | null;
  first_number: number;
  first_at: Date | string;
  member_ids: (number | string)[];
  member_numbers: number[];
  /** Milliseconds since 1970 (an array of times comes back as text on one driver). */
  member_ats: (number | string)[];
  changes: (RevisionChanges | null)[] | null;
};

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * One page of an item's history, newest first: `limit` entries after `offset` entries. More: an
 * older page exists.
 */
export async function historyPage<Doc>(
  db: Database,
  spec: StudioKindSpec<Doc>,
  item: Pick<ItemRow, "id" | "status" | "publishedRevisionId">,
  page: { limit: number; offset: number },
): Promise<{ entries: HistoryEntryView[]; more: boolean }> {
  const itemColumn = spec.kind === "article" ? sql.raw("article_id") : sql.raw("project_id");
  // A revision starts an entry unless it is an autosave following an autosave by the same
  // person, and the one it follows is not the published revision (which keeps its own entry).
  const found = (await db.execute(sql`
    with ordered as (
      select r.id, r.number, r.created_at, r.changes,
        lag(r.id) over w as before_id,
        case when r.source = 'autosave'
          and lag(r.source) over w = 'autosave'
          and lag(r.author_id) over w = r.author_id
          and lag(r.id) over w is distinct from ${item.publishedRevisionId}::bigint
        then 0 else 1 end as starts
      from content_revisions r
      where r.${itemColumn} = ${item.id}
      window w as (order by r.number)
    ), runs as (
      select *, sum(starts) over (order by number rows unbounded preceding) as run from ordered
    )
    select run,
      count(*)::int as count,
      (array_agg(id order by number desc))[1] as last_id,
      (array_agg(before_id order by number))[1] as before_id,
      min(number) as first_number,
      min(created_at) as first_at,
      (array_agg(id order by number desc))[1:${RUN_MEMBERS_LISTED}] as member_ids,
      (array_agg(number order by number desc))[1:${RUN_MEMBERS_LISTED}] as member_numbers,
      (array_agg(extract(epoch from created_at)::float8 * 1000 order by number desc))[1:${RUN_MEMBERS_LISTED}] as member_ats,
      jsonb_agg(changes order by number) as changes
    from runs
    group by run
    order by run desc
    limit ${page.limit + 1} offset ${page.offset}
  `)) as unknown as { rows: RunRow[] };
  const runs = found.rows.slice(0, page.limit);
  const lasts = await itemRevisionsWithout(
    db,
    spec,
    item.id,
    runs.map((run) => Number(run.last_id)),
  );
  const entries = runs.flatMap((run): HistoryEntryView[] => {
    const last = lasts.find((revision) => revision.id === Number(run.last_id));
    if (!last) return [];
    const count = Number(run.count);
    const list = (run.changes ?? []).filter((changes): changes is RevisionChanges => changes !== null);
    const combined = combineChanges(list);
    // The first revision changed nothing; one saved before changes were kept says so.
    const first = run.first_number === 1 && count === 1;
    const changes = first
      ? "First version"
      : combined && list.length === (run.changes ?? []).length
        ? describeChanges(spec.kind, spec.fields, spec.labels, combined)
        : combined
          ? `${describeChanges(spec.kind, spec.fields, spec.labels, combined)} (earlier changes not recorded)`
          : "Changes not recorded (saved before History kept them)";
    return [
      {
        ...revisionView(last, item),
        changes,
        before: run.before_id === null ? null : Number(run.before_id),
        ...(count > 1
          ? {
              folded: {
                count,
                firstAt: iso(run.first_at),
                revisions: run.member_ids.map((id, index) => ({
                  id: Number(id),
                  number: Number(run.member_numbers[index]),
                  at: new Date(Number(run.member_ats[index])).toISOString(),
                })),
              },
            }
          : {}),
      },
    ];
  });
  return { entries, more: found.rows.length > page.limit };
}
