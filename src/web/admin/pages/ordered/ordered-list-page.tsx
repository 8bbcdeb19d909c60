import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { orderedRouteNames } from "#shared/admin/collections/kind.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { AdminLayout } from "../../layout.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { DrawnStatusBadge } from "./drawn-status-badge.tsx";
import { drawnKind } from "./drawn-kinds.ts";
import { OrderHint, PlaceCell, RowChanges, TrashList } from "./ordered-parts.tsx";

// The list of an ordered kind drawn from its definition (testimonials, client logos), in its
// order: each item's name, a line of it, its picture and whether the site shows it. Those who may
// change it publish, withdraw and open each item, move it with Move up and Move down (plain forms)
// or drag a row by its handle (src/web/admin/team/drag-order.ts, the team's, reads the same
// attributes), and restore one from the trash.

type Props = AdminPagePropsOf<"ordered-list">;

export function OrderedListPage({ viewer, kind: plural, rows, trash, canChange, focus, notice, error }: Props) {
  const kind = drawnKind(plural);
  const names = orderedRouteNames(kind);
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
      <OrderHint
        canChange={canChange}
        cannot="Changing this list needs an admin, or someone an admin has allowed to publish: what changes here is on the site at once."
      >
        Move one
      </OrderHint>
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
                  <PlaceCell canChange={canChange} position={row.position} />
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
                    <RowChanges
                      row={row}
                      last={last}
                      focus={focus}
                      moveAction={adminHref(names.move, { id: row.id })}
                      toggle={{
                        action: adminHref(row.status === "shown" ? names.hide : names.show, { id: row.id }),
                        label: row.status === "shown" ? kind.pages.hide : kind.pages.show,
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
        id="ordered-trash-heading"
        description="Not on the site. Restore brings one back, not published."
        items={trash}
        canChange={canChange}
        restoreHref={(id) => adminHref(names.untrash, { id })}
      />
    </AdminLayout>
  );
}
