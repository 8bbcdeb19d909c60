import type {
  AdminPagePropsOf,
  AdminViewer,
  HistoryEntryView,
  PageMessages,
  StudioHistoryData,
} from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { REVISIONS_PER_PAGE } from "#shared/admin/schemas.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { DataTable } from "../../ui/data-table.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { Pager } from "../../ui/pager.tsx";
import { ARTICLE_PAGES, PROJECT_PAGES, type StudioPageKind } from "./kinds.ts";
import { entrySource } from "./revision-text.ts";
import { StatusBadge } from "./status-badge.tsx";

// An item's revisions (an article's or a project's), newest first: who, when, how, what changed
// from the revision before, which one the public reads; a run of autosaves by one person is one
// entry, its revisions listed under it (docs/decisions/058-history-says-what-changed.md). Two
// chosen to compare (a GET form, so a comparison has an address), and "Restore this version" on
// every revision but the newest, which makes a new revision with its text (nothing is ever
// overwritten).

type Props = StudioHistoryData & PageMessages & { kind: StudioPageKind; viewer: AdminViewer };

export const ArticleHistoryPage = (props: AdminPagePropsOf<"article-history">) => (
  <HistoryPage {...props} kind={ARTICLE_PAGES} />
);

export const ProjectHistoryPage = (props: AdminPagePropsOf<"project-history">) => (
  <HistoryPage {...props} kind={PROJECT_PAGES} />
);

/** "History of …", as the page's title and heading say it. */
export const historyTitle = (kind: StudioPageKind, title: string) =>
  `History of ${title || `an untitled ${kind.noun}`}`;

function HistoryPage({ kind, viewer, item, revisions, headId, pageNumber, more, notice, error }: Props) {
  const newestFirst = [...revisions].sort((a, b) => b.number - a.number);
  const [newest, previous] = newestFirst;
  const restorable = item.status !== "trash";
  const choice = (revision: HistoryEntryView, side: "from" | "to", checked: boolean) => (
    <label className="inline-flex min-h-10 min-w-10 items-center justify-center">
      <input type="radio" name={side} value={revision.id} defaultChecked={checked} form="compare-form" />
      <span className="sr-only">
        Compare {side} revision {revision.number}
      </span>
    </label>
  );
  return (
    <AdminLayout viewer={viewer} current={kind.routes.list}>
      <p className="text-sm">
        <a href={adminHref(kind.routes.list)} className="admin-link">
          {kind.plural}
        </a>{" "}
        <span aria-hidden="true">›</span>{" "}
        <a href={adminHref(kind.routes.item, { id: item.id })} className="admin-link">
          {item.title || kind.untitled}
        </a>
      </p>
      <div className="mt-2">
        <PageHeader
          title={historyTitle(kind, item.title)}
          meta={<StatusBadge status={item.status} />}
          description={`Every saved version, newest first, ${REVISIONS_PER_PAGE} entries to a page; a run of autosaves by one person is one entry. Restoring one makes it the newest draft; nothing is deleted.`}
        />
      </div>
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <form
        id="compare-form"
        method="get"
        action={adminHref(kind.routes.compare, { id: item.id })}
        aria-label="Compare two revisions"
        className="admin-card flex flex-wrap items-center gap-3"
      >
        <p className="text-sm text-slate-700">Choose a revision in the From column and one in the To column.</p>
        <button type="submit" className="admin-button" disabled={revisions.length < 2}>
          Compare
        </button>
      </form>
      <DataTable
        label="Revisions"
        caption={`Revisions of the ${kind.noun}, newest first`}
        className="admin-card mt-4"
        rows={newestFirst}
        rowKey={(revision) => revision.id}
        empty={<p className="text-slate-700">No revisions yet.</p>}
        columns={[
          {
            header: "From",
            className: "w-12 text-center",
            cell: (revision) => choice(revision, "from", revision === (previous ?? newest)),
          },
          {
            header: "To",
            className: "w-12 text-center",
            cell: (revision) => choice(revision, "to", revision === newest),
          },
          {
            header: "Revision",
            rowHeader: true,
            className: "align-top font-normal whitespace-nowrap",
            cell: (revision) => (
              <>
                <span className="font-semibold">{revision.number}</span>
                {revision.id === headId ? <span className="ml-2 text-xs text-slate-600">(the draft)</span> : null}
              </>
            ),
          },
          { header: "Who", cell: (revision) => revision.by },
          { header: "When", className: "whitespace-nowrap", cell: (revision) => formatIndiaDateTime(revision.at) },
          { header: "How", cell: (revision) => entrySource(revision) },
          {
            header: "What changed",
            className: "min-w-48",
            cell: (revision) => <Changes kind={kind} itemId={item.id} entry={revision} />,
          },
          {
            header: "Public",
            cell: (revision) =>
              revision.published ? (
                <span className="font-semibold text-green-900">
                  <span aria-hidden="true">● </span>Published
                </span>
              ) : (
                ""
              ),
          },
          {
            header: <span className="sr-only">Actions</span>,
            cell: (revision) =>
              revision.id === headId || !restorable ? null : (
                <form
                  method="post"
                  action={adminHref(kind.routes.restore, { id: item.id, revisionId: String(revision.id) })}
                >
                  <input type="hidden" name="baseRevisionId" value={headId} />
                  <button type="submit" className="admin-button-secondary whitespace-nowrap">
                    Restore this version<span className="sr-only"> (revision {revision.number})</span>
                  </button>
                </form>
              ),
          },
        ]}
      />
      <Pager
        pageHref={(page) => adminHref(kind.routes.history, { id: item.id }, { page: page > 1 ? page : undefined })}
        pageNumber={pageNumber}
        more={more}
        label="Pages of the history"
        previous="Newer revisions"
        next="Older revisions"
      />
    </AdminLayout>
  );
}

/** What an entry changed, a link to see it, and a run's revisions, each with its own comparison. */
function Changes({ kind, itemId, entry }: { kind: StudioPageKind; itemId: string; entry: HistoryEntryView }) {
  const compare = (from: number, to: number) => adminHref(kind.routes.compare, { id: itemId }, { from, to });
  const members = entry.folded?.revisions ?? [];
  return (
    <div data-studio-changes>
      <span>{entry.changes}</span>
      {entry.before !== null ? (
        <>
          {" "}
          <a href={compare(entry.before, entry.id)} className="admin-link whitespace-nowrap">
            See the changes<span className="sr-only"> of revision {entry.number}</span>
          </a>
        </>
      ) : null}
      {entry.folded ? (
        <details className="mt-1" data-studio-run>
          <summary className="cursor-pointer text-sm text-slate-700">
            Show the {entry.folded.count.toLocaleString("en-IN")} autosaves
            <span className="sr-only"> of revision {entry.number}</span>
          </summary>
          <ul className="mt-1 grid gap-1 text-sm">
            {members.map((member, index) => {
              const before = members[index + 1]?.id ?? (index === entry.folded!.count - 1 ? entry.before : null);
              return (
                <li key={member.id}>
                  Revision {member.number}, {formatIndiaDateTime(member.at)}
                  {before !== null ? (
                    <>
                      {": "}
                      <a href={compare(before, member.id)} className="admin-link">
                        compare with the one before<span className="sr-only"> (revision {member.number})</span>
                      </a>
                    </>
                  ) : null}
                </li>
              );
            })}
          </ul>
          {entry.folded.count > members.length ? (
            <p className="mt-1 text-xs text-slate-600">
              And {(entry.folded.count - members.length).toLocaleString("en-IN")} older ones: “See the changes” shows
              the whole run’s.
            </p>
          ) : null}
        </details>
      ) : null}
    </div>
  );
}
