import type {
  AdminPagePropsOf,
  AdminViewer,
  PageMessages,
  RevisionView,
  StudioCompareData,
} from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { AdminLayout } from "../../layout.tsx";
import { SelectField } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { DiffLines } from "./diff-lines.tsx";
import { ARTICLE_PAGES, PROJECT_PAGES, type StudioPageKind } from "./kinds.ts";
import { revisionLine, revisionSource } from "./revision-text.ts";
import { StatusBadge } from "./status-badge.tsx";

// Two revisions of an item (an article or a project) compared: each field that changed, the long
// text as a line diff (diff-lines.tsx), the fields that did not change named at the end; a GET
// form to choose two others; and "Restore this version" for either that is not the draft.

type Props = StudioCompareData & PageMessages & { kind: StudioPageKind; viewer: AdminViewer };

export const ArticleComparePage = (props: AdminPagePropsOf<"article-compare">) => (
  <ComparePage {...props} kind={ARTICLE_PAGES} />
);

export const ProjectComparePage = (props: AdminPagePropsOf<"project-compare">) => (
  <ComparePage {...props} kind={PROJECT_PAGES} />
);

/** "Compare revisions of …", as the page's title and heading say it. */
export const compareTitle = (kind: StudioPageKind, title: string) =>
  `Compare revisions of ${title || `an untitled ${kind.noun}`}`;

const optionsOf = (revisions: readonly RevisionView[], headId: number) =>
  [...revisions]
    .sort((a, b) => b.number - a.number)
    .map((revision) => ({
      value: String(revision.id),
      label: `Revision ${revision.number}, ${revision.by}${revision.id === headId ? " (the draft)" : ""}${revision.published ? " (published)" : ""}`,
    }));

/**
 * One of the two revisions, and "Restore this version" when it is not the draft already: the
 * History's restore, the same route and guards (based on the head the page showed; refused when
 * someone saved since, or when the item is in the trash).
 */
function Side({
  label,
  revision,
  restore,
}: {
  label: string;
  revision: RevisionView;
  restore?: { kind: StudioPageKind; itemId: string; headId: number };
}) {
  return (
    <div>
      <dt className="text-xs font-semibold text-slate-600 uppercase">{label}</dt>
      <dd className="text-sm">
        {revisionLine(revision)}
        <span className="block text-xs text-slate-600">
          {revisionSource(revision)}
          {revision.published ? ", published" : ""}
        </span>
        {restore && revision.id !== restore.headId ? (
          <form
            method="post"
            action={adminHref(restore.kind.routes.restore, { id: restore.itemId, revisionId: String(revision.id) })}
            className="mt-2"
            data-studio-compare-restore
          >
            <input type="hidden" name="baseRevisionId" value={restore.headId} />
            <button type="submit" className="admin-button-secondary">
              Restore this version<span className="sr-only"> (revision {revision.number})</span>
            </button>
          </form>
        ) : null}
      </dd>
    </div>
  );
}

function ComparePage({ kind, viewer, item, from, to, fields, revisions, headId, notice, error }: Props) {
  const changed = fields.filter((field) => field.changed);
  const unchanged = fields.filter((field) => !field.changed);
  const options = optionsOf(revisions, headId);
  const restore = item.status === "trash" ? undefined : { kind, itemId: item.id, headId };
  return (
    <AdminLayout viewer={viewer} current={kind.routes.list}>
      <p className="text-sm">
        <a href={adminHref(kind.routes.list)} className="admin-link">
          {kind.plural}
        </a>{" "}
        <span aria-hidden="true">›</span>{" "}
        <a href={adminHref(kind.routes.item, { id: item.id })} className="admin-link">
          {item.title || kind.untitled}
        </a>{" "}
        <span aria-hidden="true">›</span>{" "}
        <a href={adminHref(kind.routes.history, { id: item.id })} className="admin-link">
          History
        </a>
      </p>
      <div className="mt-2">
        <PageHeader title={compareTitle(kind, item.title)} meta={<StatusBadge status={item.status} />} />
      </div>
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <dl className="admin-card grid gap-3 sm:grid-cols-2">
        <Side label="From" revision={from} restore={restore} />
        <Side label="To" revision={to} restore={restore} />
      </dl>
      <form
        method="get"
        action={adminHref(kind.routes.compare, { id: item.id })}
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
            {field.tooDifferent ? (
              <p className="mt-2 text-slate-700">
                These two versions of the {field.label.toLowerCase()} are too different to compare line by line. Compare
                revisions nearer each other to see what changed between them.
              </p>
            ) : (
              <DiffLines parts={field.parts} label={`Changes to ${field.label}`} />
            )}
          </section>
        ))
      )}
      {unchanged.length ? (
        <p className="mt-4 text-sm text-slate-700">Unchanged: {unchanged.map((field) => field.label).join(", ")}.</p>
      ) : null}
    </AdminLayout>
  );
}
