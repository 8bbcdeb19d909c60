import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { AdminLayout } from "../../layout.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { TeamStatusBadge } from "./team-status-badge.tsx";
import { OrderHint, PlaceCell, RowChanges, TrashList } from "../ordered/ordered-parts.tsx";

// The team in its order (docs/back-office.md, "The team"): each member's photo, name, title and
// whether the site shows them. Those who may change the team move a member with "Move up" and
// "Move down" (plain forms: the keyboard and no script are enough, and the focus comes back to the
// moved member's button), or drag a row by its handle (src/web/admin/team/drag-order.ts posts the
// new order); they show, hide and open each member, and restore one from the trash.

type Props = AdminPagePropsOf<"team">;

export function TeamPage({ viewer, rows, trash, canChange, focus, notice, error }: Props) {
  const last = rows.length;
  const shown = rows.filter((row) => row.status === "shown").length;
  return (
    <AdminLayout viewer={viewer} current="team">
      <PageHeader
        title="Team"
        actions={
          canChange ? (
            <a href={adminHref("teamMemberNew")} className="admin-button">
              Add a member
            </a>
          ) : null
        }
        description="In this order on the About page; the home page shows the first three. Hidden members keep their place."
      />
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <OrderHint
        canChange={canChange}
        cannot="Changing the team needs an admin, or someone an admin has allowed to publish: what changes here is on the site at once."
      >
        Move a member
      </OrderHint>
      <section
        aria-label="Team members"
        tabIndex={0}
        className="admin-card relative overflow-x-auto"
        data-team-count={last}
      >
        {rows.length === 0 ? (
          <p className="text-slate-700">No members yet{canChange ? ": add the first with Add a member." : "."}</p>
        ) : (
          <table className="admin-table admin-table-cards">
            <caption className="sr-only">
              The team, first to last: {shown} shown on the site, {last - shown} hidden
            </caption>
            <thead>
              <tr>
                <th scope="col" className="w-12">
                  Place
                </th>
                <th scope="col">Photo</th>
                <th scope="col">Name</th>
                <th scope="col">Title</th>
                <th scope="col">On the site</th>
                {canChange ? (
                  <>
                    <th scope="col">Order</th>
                    <th scope="col">
                      <span className="sr-only">Show or hide</span>
                    </th>
                  </>
                ) : null}
              </tr>
            </thead>
            <tbody
              data-team-order={canChange ? adminHref("teamOrder") : undefined}
              className="[&_tr[data-dragging]]:bg-brand-50"
            >
              {rows.map((row) => (
                <tr key={row.id} data-member-id={row.id} data-member-name={row.name}>
                  <PlaceCell canChange={canChange} position={row.position} />
                  <td data-label="Photo">
                    <img
                      src={row.thumbnail ?? row.imageUrl}
                      alt=""
                      width={48}
                      height={48}
                      loading="lazy"
                      className="size-12 rounded border border-slate-200 bg-slate-100 object-cover"
                    />
                  </td>
                  <th
                    scope="row"

                    className="min-w-40 align-top font-normal whitespace-normal"
                    data-label="Name"
                  >
                    {canChange ? (
                      <a href={adminHref("teamMember", { id: row.id })} className="admin-link">
                        {row.name}
                      </a>
                    ) : (
                      row.name
                    )}
                  </th>
                  <td className="min-w-40" data-label="Title">
                    {row.title}
                  </td>
                  <td data-label="On the site">
                    <TeamStatusBadge status={row.status} />
                  </td>
                  {canChange ? (
                    <RowChanges
                      row={row}
                      last={last}
                      focus={focus}
                      moveAction={adminHref("teamMemberMove", { id: row.id })}
                      toggle={{
                        action: adminHref(row.status === "shown" ? "teamMemberHide" : "teamMemberShow", { id: row.id }),
                        label: row.status === "shown" ? "Hide" : "Show",
                      }}
                    />
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <TrashList
        id="team-trash-heading"
        description="Not on the site. Restore brings a member back, hidden."
        items={trash.map((member) => ({ ...member, detail: member.title }))}
        canChange={canChange}
        restoreHref={(id) => adminHref("teamMemberUntrash", { id })}
      />
    </AdminLayout>
  );
}
