import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { SYNONYM_FIELD_MAX } from "#shared/admin/schemas.ts";
import { MAX_TERMS_PER_GROUP } from "#shared/search.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { DataTable } from "../../ui/data-table.tsx";
import { Field } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

type Props = AdminPagePropsOf<"searchSynonyms">;

/** The site search's synonym groups: the list, each with Remove, and a form to add one (decision 054). */
export function SearchSynonymsPage({ viewer, groups, maxGroups, notice, error, form }: Props) {
  return (
    <AdminLayout viewer={viewer} current="searchSynonyms">
      <PageHeader
        title="Search synonyms"
        description="Words and phrases that mean the same to the site search: a visitor who searches for one finds pages that use any of them."
      />
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>

      <section aria-labelledby="add-heading" className="admin-card">
        <h2 id="add-heading" className="text-lg font-semibold text-navy-900">
          Add a group
        </h2>
        <form method="post" action={adminHref("searchSynonymAdd")} className="mt-3 grid gap-4">
          <Field
            id="synonym-terms"
            name="terms"
            label="Synonyms"
            hint={`Two to ${MAX_TERMS_PER_GROUP} words or phrases, separated by commas or one a line: LVRT, low-voltage ride-through. Hyphens, spaces and capitals do not matter.`}
            rows={3}
            required
            maxLength={SYNONYM_FIELD_MAX}
            form={form}
          />
          <div>
            <button type="submit" className="admin-button-primary">
              Add synonyms
            </button>
          </div>
        </form>
      </section>

      <section aria-labelledby="groups-heading" className="admin-card mt-6">
        <h2 id="groups-heading" className="text-lg font-semibold text-navy-900">
          {`Groups (${groups.length} of at most ${maxGroups})`}
        </h2>
        {groups.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">No synonyms yet: searches match the words as typed.</p>
        ) : (
          <DataTable
            label="Synonym groups"
            caption="Synonym groups, who added each and when"
            className="mt-3"
            rows={groups}
            rowKey={(group) => group.id}
            columns={[
              {
                header: "Synonyms",
                rowHeader: true,
                className: "font-normal break-words whitespace-normal",
                cell: (group) => group.terms.join(", "),
              },
              {
                header: "Added",
                cell: (group) => `${formatIndiaDateTime(group.createdAt)} by ${group.createdByLabel}`,
              },
              {
                header: "Actions",
                cell: (group) => (
                  <form
                    method="post"
                    action={adminHref("searchSynonymRemove", { id: group.id })}
                    data-confirm={`Remove the synonyms ${group.terms.join(", ")}?`}
                  >
                    <button type="submit" className="admin-button-secondary">
                      Remove<span className="sr-only"> {group.terms.join(", ")}</span>
                    </button>
                  </form>
                ),
              },
            ]}
          />
        )}
      </section>
    </AdminLayout>
  );
}
