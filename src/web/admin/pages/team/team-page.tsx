import type { AdminPagePropsOf, TeamRowView } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { TeamStatusBadge } from "./team-status-badge.tsx";
import { MoveButtons } from "../ordered/move-buttons.tsx";

// The team in its order (docs/back-office.md, "The team"): each member's photo, name, title and
// whether the site shows them. Those who may change the team move a member with "Move up" and
// "Move down" (plain forms: the keyboard and no script are enough, and the focus comes back to the
// moved member's button), or drag a row by its handle (src/web/admin/team/drag-order.ts posts the
// new order); they show, hide and open each member, and restore one from the trash.

type Props = AdminPagePropsOf<"team">;

function ShowOrHide({ row }: { row: TeamRowView }) {
  const shown = row.status === "shown";
  return (
    <form method="post" action={adminHref(shown ? "teamMemberHide" : "teamMemberShow", { id: row.id })}>
      <input type="hidden" name="baseRevisionId" value={row.headRevisionId} />
      <input type="hidden" name="back" value="list" />
      <button type="submit" className="admin-button-secondary px-3">
        {shown ? "Hide" : "Show"}
        <span className="sr-only"> {row.name}</span>
      </button>
    </form>
  );
}

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
      {canChange ? (
        <p className="mb-3 hidden text-sm text-slate-700" data-team-drag-hint>
          Move a member with Move up and Move down, or drag a row by its{" "}
          <span aria-hidden="true" className="font-bold">
            ⠿
          </span>{" "}
          handle.
        </p>
      ) : (
        <p className="mb-3 text-sm text-slate-700">
          Changing the team needs an admin, or someone an admin has allowed to publish: what changes here is on the site
          at once.
        </p>
      )}
      <p role="status" aria-live="polite" className="mb-2 min-h-5 text-sm font-medium" data-team-order-status />
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
                  <td className="whitespace-nowrap tabular-nums" data-label="Place">
                    {canChange ? (
                      <span
                        aria-hidden="true"
                        title="Drag to move"
                        className="mr-2 hidden cursor-grab touch-none rounded px-1 text-lg leading-none text-slate-600 select-none hover:bg-slate-100"
                        data-drag-handle
                      >
                        ⠿
                      </span>
                    ) : null}
                    <span data-team-position>{row.position}</span>
                  </td>
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
                    <>
                      <td data-label="Order">
                        <MoveButtons
                          row={row}
                          last={last}
                          focus={focus}
                          action={adminHref("teamMemberMove", { id: row.id })}
                        />
                      </td>
                      <td>
                        <ShowOrHide row={row} />
                      </td>
                    </>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      {trash.length ? (
        <section aria-labelledby="team-trash-heading" className="admin-card mt-6">
          <h2 id="team-trash-heading" className="text-lg font-semibold text-navy-900">
            In the trash
          </h2>
          <p className="mt-1 text-sm text-slate-600">Not on the site. Restore brings a member back, hidden.</p>
          <ul className="mt-3 grid gap-2 text-sm">
            {trash.map((member) => (
              <li
                key={member.id}
                className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-2"
              >
                <span>
                  <span className="font-medium">{member.name}</span>, {member.title}
                  <span className="block text-xs text-slate-600">
                    Moved to the trash {formatIndiaDateTime(member.trashedAt)}
                    {member.trashedBy ? ` by ${member.trashedBy}` : ""}
                  </span>
                </span>
                {canChange ? (
                  <form method="post" action={adminHref("teamMemberUntrash", { id: member.id })}>
                    <input type="hidden" name="baseRevisionId" value={member.headRevisionId} />
                    <button type="submit" className="admin-button-secondary">
                      Restore<span className="sr-only"> {member.name}</span>
                    </button>
                  </form>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </AdminLayout>
  );
}
