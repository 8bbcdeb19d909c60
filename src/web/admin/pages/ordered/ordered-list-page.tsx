import type { AdminPagePropsOf, DrawnRowView } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { DrawnStatusBadge } from "./drawn-status-badge.tsx";
import { type DrawnKind, drawnKind, drawnRouteNames } from "./drawn-kinds.ts";
import { MoveButtons } from "./move-buttons.tsx";

// The list of an ordered kind drawn from its definition (testimonials, client logos), in its
// order: each item's name, a line of it, its picture and whether the site shows it. Those who may
// change it publish, withdraw and open each item, move it with Move up and Move down (plain forms)
// or drag a row by its handle (src/web/admin/team/drag-order.ts, the team's, reads the same
// attributes), and restore one from the trash.

type Props = AdminPagePropsOf<"ordered-list">;

function ShowOrHide({ kind, row }: { kind: DrawnKind; row: DrawnRowView }) {
  const shown = row.status === "shown";
  const names = drawnRouteNames(kind);
  return (
    <form method="post" action={adminHref(shown ? names.hide : names.show, { id: row.id })}>
      <input type="hidden" name="baseRevisionId" value={row.headRevisionId} />
      <input type="hidden" name="back" value="list" />
      <button type="submit" className="admin-button-secondary px-3">
        {shown ? kind.pages.hide : kind.pages.show}
        <span className="sr-only"> {row.name}</span>
      </button>
    </form>
  );
}

export function OrderedListPage({ viewer, kind: plural, rows, trash, canChange, focus, notice, error }: Props) {
  const kind = drawnKind(plural);
  const names = drawnRouteNames(kind);
  const last = rows.length;
  const shown = rows.filter((row) => row.status === "shown").length;
  const hasPicture = Object.values(kind.fields).some((field) => field.control === "picture");
  return (
    <AdminLayout viewer={viewer} current={names.list}>
      <PageHeader
        title={kind.nav.label}
        actions={
          canChange ? (
            <a href={adminHref(names.new)} className="admin-button">
              {kind.pages.add}
            </a>
          ) : null
        }
        description={kind.pages.description}
      />
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      {canChange ? (
        <p className="mb-3 hidden text-sm text-slate-700" data-team-drag-hint>
          Move one with Move up and Move down, or drag a row by its{" "}
          <span aria-hidden="true" className="font-bold">
            ⠿
          </span>{" "}
          handle.
        </p>
      ) : (
        <p className="mb-3 text-sm text-slate-700">
          Changing this list needs an admin, or someone an admin has allowed to publish: what changes here is on the
          site at once.
        </p>
      )}
      <p role="status" aria-live="polite" className="mb-2 min-h-5 text-sm font-medium" data-team-order-status />
      <section aria-label={kind.nav.label} tabIndex={0} className="admin-card relative overflow-x-auto">
        {rows.length === 0 ? (
          <p className="text-slate-700">
            {kind.pages.empty}
            {canChange ? `: add the first with ${kind.pages.add}.` : "."}
          </p>
        ) : (
          <table className="admin-table admin-table-cards">
            <caption className="sr-only">
              {kind.nav.label}, first to last: {shown} published, {last - shown} not
            </caption>
            <thead>
              <tr>
                <th scope="col" className="w-12">
                  Place
                </th>
                {hasPicture ? <th scope="col">Logo</th> : null}
                <th scope="col">Name</th>
                <th scope="col">On the site</th>
                {canChange ? (
                  <>
                    <th scope="col">Order</th>
                    <th scope="col">
                      <span className="sr-only">
                        {kind.pages.show} or {kind.pages.hide.toLowerCase()}
                      </span>
                    </th>
                  </>
                ) : null}
              </tr>
            </thead>
            <tbody
              data-team-order={canChange ? adminHref(names.order) : undefined}
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
                  {hasPicture ? (
                    <td data-label="Logo">
                      {row.thumbnail ? (
                        <img
                          src={row.thumbnail}
                          alt=""
                          width={48}
                          height={48}
                          loading="lazy"
                          className="size-12 rounded border border-slate-200 bg-white object-contain"
                        />
                      ) : (
                        <span className="text-xs text-slate-600">None</span>
                      )}
                    </td>
                  ) : null}
                  <th scope="row" className="min-w-48 align-top font-normal whitespace-normal" data-label="Name">
                    {canChange ? (
                      <a href={adminHref(names.item, { id: row.id })} className="admin-link">
                        {row.name}
                      </a>
                    ) : (
                      row.name
                    )}
                    {row.detail ? <span className="mt-1 block text-xs text-slate-600">{row.detail}</span> : null}
                  </th>
                  <td data-label="On the site">
                    <DrawnStatusBadge kind={kind} status={row.status} />
                  </td>
                  {canChange ? (
                    <>
                      <td data-label="Order">
                        <MoveButtons
                          row={row}
                          last={last}
                          focus={focus}
                          action={adminHref(names.move, { id: row.id })}
                        />
                      </td>
                      <td>
                        <ShowOrHide kind={kind} row={row} />
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
        <section aria-labelledby="ordered-trash-heading" className="admin-card mt-6">
          <h2 id="ordered-trash-heading" className="text-lg font-semibold text-navy-900">
            In the trash
          </h2>
          <p className="mt-1 text-sm text-slate-600">Not on the site. Restore brings one back, not published.</p>
          <ul className="mt-3 grid gap-2 text-sm">
            {trash.map((item) => (
              <li
                key={item.id}
                className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-2"
              >
                <span>
                  <span className="font-medium">{item.name}</span>
                  <span className="block text-xs text-slate-600">
                    Moved to the trash {formatIndiaDateTime(item.trashedAt)}
                    {item.trashedBy ? ` by ${item.trashedBy}` : ""}
                  </span>
                </span>
                {canChange ? (
                  <form method="post" action={adminHref(names.untrash, { id: item.id })}>
                    <input type="hidden" name="baseRevisionId" value={item.headRevisionId} />
                    <button type="submit" className="admin-button-secondary">
                      Restore<span className="sr-only"> {item.name}</span>
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
