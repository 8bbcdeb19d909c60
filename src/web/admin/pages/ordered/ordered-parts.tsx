import type { ReactNode } from "react";
import { formatIndiaDateTime } from "../../format.ts";
import { MoveButtons } from "./move-buttons.tsx";

// The parts every ordered kind's pages share (the team's, and those drawn from a definition): the
// hint and the live region of the order, a row's place with its drag handle, the list's trash, an
// item's "In the trash" box, and a refused form's problems that belong to no field.

/** The line that tells how to move a row (shown once dragging works), and the order's live region. */
export function OrderHint({
  canChange,
  children,
  cannot,
}: {
  canChange: boolean;
  children: ReactNode;
  cannot: ReactNode;
}) {
  return (
    <>
      {canChange ? (
        <p className="mb-3 hidden text-sm text-slate-700" data-team-drag-hint>
          {children} with Move up and Move down, or drag a row by its{" "}
          <span aria-hidden="true" className="font-bold">
            ⠿
          </span>{" "}
          handle.
        </p>
      ) : (
        <p className="mb-3 text-sm text-slate-700">{cannot}</p>
      )}
      <p role="status" aria-live="polite" className="mb-2 min-h-5 text-sm font-medium" data-team-order-status />
    </>
  );
}

/** A row's place in the list, with the handle that drags it (src/web/admin/team/drag-order.ts shows it). */
export function PlaceCell({ canChange, position }: { canChange: boolean; position: number }) {
  return (
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
      <span data-team-position>{position}</span>
    </td>
  );
}

/** The list's trash: each item, when and by whom it went there, and Restore for those who may. */
export function TrashList({
  id,
  description,
  items,
  canChange,
  restoreHref,
}: {
  id: string;
  description: string;
  items: {
    id: string;
    name: string;
    detail?: string;
    trashedAt: string;
    trashedBy: string | null;
    headRevisionId: number;
  }[];
  canChange: boolean;
  restoreHref: (id: string) => string;
}) {
  if (!items.length) return null;
  return (
    <section aria-labelledby={id} className="admin-card mt-6">
      <h2 id={id} className="text-lg font-semibold text-navy-900">
        In the trash
      </h2>
      <p className="mt-1 text-sm text-slate-600">{description}</p>
      <ul className="mt-3 grid gap-2 text-sm">
        {items.map((item) => (
          <li
            key={item.id}
            className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-2"
          >
            <span>
              <span className="font-medium">{item.name}</span>
              {item.detail ? `, ${item.detail}` : ""}
              <span className="block text-xs text-slate-600">
                Moved to the trash {formatIndiaDateTime(item.trashedAt)}
                {item.trashedBy ? ` by ${item.trashedBy}` : ""}
              </span>
            </span>
            {canChange ? (
              <form method="post" action={restoreHref(item.id)}>
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
  );
}

/** An item's page while it is in the trash: since when, what Restore does, and Restore. */
export function TrashedItem({
  trashedAt,
  restores,
  action,
  baseRevisionId,
}: {
  trashedAt: string | null;
  /** "brings the member back, hidden, at the end of the team". */
  restores: string;
  action: string;
  baseRevisionId: number | undefined;
}) {
  return (
    <section aria-labelledby="trash-heading" className="admin-card mb-4 border-red-300 bg-red-50">
      <h2 id="trash-heading" className="text-lg font-semibold text-red-900">
        In the trash
      </h2>
      <p className="mt-1 text-sm text-red-900">
        Moved to the trash{trashedAt ? ` ${formatIndiaDateTime(trashedAt)}` : ""}: not on the site, and not to be
        changed until restored. Restore {restores}.
      </p>
      <form method="post" action={action} className="mt-3">
        {baseRevisionId !== undefined ? <input type="hidden" name="baseRevisionId" value={baseRevisionId} /> : null}
        <button type="submit" className="admin-button">
          Restore
        </button>
      </form>
    </section>
  );
}

/** A refused form's problems that name no field of it (the revision it was made from, say). */
export function FormProblems({
  errors,
  fields,
}: {
  errors: Partial<Record<string, string>> | undefined;
  fields: readonly string[];
}) {
  const problems = Object.entries(errors ?? {}).filter(([field, message]) => message && !fields.includes(field));
  if (!problems.length) return null;
  return (
    <div role="alert" className="mb-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
      {problems.map(([field, message]) => (
        <p key={field}>{message}</p>
      ))}
    </div>
  );
}

/** The revision a change is based on, where the item has one. */
function Base({ id }: { id: number | undefined }) {
  return id !== undefined ? <input type="hidden" name="baseRevisionId" value={id} /> : null;
}

/** A row's cells for those who may change the list: Move up / Move down, and Show or Hide (by the kind's words). */
export function RowChanges({
  row,
  last,
  focus,
  moveAction,
  toggle,
}: {
  row: { id: string; name: string; position: number; headRevisionId: number };
  last: number;
  focus: { id: string; direction: "up" | "down" } | undefined;
  moveAction: string;
  /** The form that shows or hides the item, and its button's word. */
  toggle: { action: string; label: string };
}) {
  return (
    <>
      <td data-label="Order">
        <MoveButtons row={row} last={last} focus={focus} action={moveAction} />
      </td>
      <td>
        <form method="post" action={toggle.action}>
          <input type="hidden" name="baseRevisionId" value={row.headRevisionId} />
          <input type="hidden" name="back" value="list" />
          <button type="submit" className="admin-button-secondary px-3">
            {toggle.label}
            <span className="sr-only"> {row.name}</span>
          </button>
        </form>
      </td>
    </>
  );
}

/** An item's Show or Hide (by the kind's words) and Move to trash, each a form based on the revision shown. */
export function ItemActions({
  shown,
  baseRevisionId,
  toggle,
  trash,
}: {
  shown: boolean;
  baseRevisionId: number | undefined;
  toggle: { action: string; label: string };
  trash: { action: string; question: string };
}) {
  return (
    <div className="mt-3 flex flex-wrap gap-2">
      <form method="post" action={toggle.action}>
        <Base id={baseRevisionId} />
        <button type="submit" className={shown ? "admin-button-secondary" : "admin-button"}>
          {toggle.label}
        </button>
      </form>
      <form method="post" action={trash.action} data-confirm={trash.question}>
        <Base id={baseRevisionId} />
        <button type="submit" className="admin-button-danger">
          Move to trash
        </button>
      </form>
    </div>
  );
}
