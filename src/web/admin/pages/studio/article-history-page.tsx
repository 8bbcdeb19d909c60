import type { AdminPagePropsOf, RevisionView } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { DataTable } from "../../ui/data-table.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { revisionSource } from "./revision-text.ts";
import { StatusBadge } from "./status-badge.tsx";

// An article's revisions, newest first: who, when, how, which one the public reads; two chosen to
// compare (a GET form, so a comparison has an address), and "Restore this version" on every
// revision but the newest, which makes a new revision with its text (nothing is ever overwritten).

type Props = AdminPagePropsOf<"article-history">;

export function ArticleHistoryPage({ viewer, article, revisions, headId, notice, error }: Props) {
  const newestFirst = [...revisions].sort((a, b) => b.number - a.number);
  const [newest, previous] = newestFirst;
  const restorable = article.status !== "trash";
  const choice = (revision: RevisionView, side: "from" | "to", checked: boolean) => (
    <label className="inline-flex min-h-10 min-w-10 items-center justify-center">
      <input type="radio" name={side} value={revision.id} defaultChecked={checked} form="compare-form" />
      <span className="sr-only">
        Compare {side} revision {revision.number}
      </span>
    </label>
  );
  return (
    <AdminLayout viewer={viewer} current="articles">
      <p className="text-sm">
        <a href={adminHref("articles")} className="admin-link">
          Articles
        </a>{" "}
        <span aria-hidden="true">›</span>{" "}
        <a href={adminHref("article", { id: article.id })} className="admin-link">
          {article.title || "Untitled article"}
        </a>
      </p>
      <div className="mt-2">
        <PageHeader
          title={`History of ${article.title || "an untitled article"}`}
          meta={<StatusBadge status={article.status} />}
          description="Every saved version, newest first. Restoring one makes it the newest draft; nothing is deleted."
        />
      </div>
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <form
        id="compare-form"
        method="get"
        action={adminHref("articleCompare", { id: article.id })}
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
        caption="Revisions of the article, newest first"
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
          { header: "How", cell: (revision) => revisionSource(revision) },
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
                  action={adminHref("articleRevisionRestore", { id: article.id, revisionId: String(revision.id) })}
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
    </AdminLayout>
  );
}
