import type { AdminPagePropsOf, RevisionView } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { AdminLayout } from "../../layout.tsx";
import { SelectField } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { DiffLines } from "./diff-lines.tsx";
import { revisionLine, revisionSource } from "./revision-text.ts";
import { StatusBadge } from "./status-badge.tsx";

// Two revisions of an article compared: each field that changed, the body as a line diff
// (diff-lines.tsx), the fields that did not change named at the end; and a GET form to choose
// two others.

type Props = AdminPagePropsOf<"article-compare">;

const optionsOf = (revisions: readonly RevisionView[], headId: number) =>
  [...revisions]
    .sort((a, b) => b.number - a.number)
    .map((revision) => ({
      value: String(revision.id),
      label: `Revision ${revision.number}, ${revision.by}${revision.id === headId ? " (the draft)" : ""}${revision.published ? " (published)" : ""}`,
    }));

function Side({ label, revision }: { label: string; revision: RevisionView }) {
  return (
    <div>
      <dt className="text-xs font-semibold text-slate-600 uppercase">{label}</dt>
      <dd className="text-sm">
        {revisionLine(revision)}
        <span className="block text-xs text-slate-600">
          {revisionSource(revision)}
          {revision.published ? ", published" : ""}
        </span>
      </dd>
    </div>
  );
}

export function ArticleComparePage({ viewer, article, from, to, fields, revisions, headId, notice, error }: Props) {
  const changed = fields.filter((field) => field.changed);
  const unchanged = fields.filter((field) => !field.changed);
  const options = optionsOf(revisions, headId);
  return (
    <AdminLayout viewer={viewer} current="articles">
      <p className="text-sm">
        <a href={adminHref("articles")} className="admin-link">
          Articles
        </a>{" "}
        <span aria-hidden="true">›</span>{" "}
        <a href={adminHref("article", { id: article.id })} className="admin-link">
          {article.title || "Untitled article"}
        </a>{" "}
        <span aria-hidden="true">›</span>{" "}
        <a href={adminHref("articleHistory", { id: article.id })} className="admin-link">
          History
        </a>
      </p>
      <div className="mt-2">
        <PageHeader
          title={`Compare revisions of ${article.title || "an untitled article"}`}
          meta={<StatusBadge status={article.status} />}
        />
      </div>
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <dl className="admin-card grid gap-3 sm:grid-cols-2">
        <Side label="From" revision={from} />
        <Side label="To" revision={to} />
      </dl>
      <form
        method="get"
        action={adminHref("articleCompare", { id: article.id })}
        aria-label="Choose two revisions"
        className="admin-card mt-4 grid gap-4 sm:grid-cols-3 sm:items-end"
      >
        <SelectField id="compare-from" name="from" label="From" defaultValue={String(from.id)} options={options} />
        <SelectField id="compare-to" name="to" label="To" defaultValue={String(to.id)} options={options} />
        <div>
          <button type="submit" className="admin-button">
            Compare
          </button>
        </div>
      </form>

      {changed.length === 0 ? (
        <p className="admin-card mt-4 text-slate-700">These revisions are the same in every field.</p>
      ) : (
        changed.map((field) => (
          <section key={field.field} aria-labelledby={`diff-${field.field}`} className="admin-card mt-4">
            <h2 id={`diff-${field.field}`} className="text-lg font-semibold text-navy-900">
              {field.label}
            </h2>
            <DiffLines lines={field.lines} label={`Changes to ${field.label}`} />
          </section>
        ))
      )}
      {unchanged.length ? (
        <p className="mt-4 text-sm text-slate-700">Unchanged: {unchanged.map((field) => field.label).join(", ")}.</p>
      ) : null}
    </AdminLayout>
  );
}
