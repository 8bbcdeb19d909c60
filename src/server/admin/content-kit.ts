import type { FastifyRequest } from "fastify";
import { type FormState, formValues } from "#shared/admin/forms.ts";
import type { RevisionSummary } from "../content/revisions.ts";
import type { AdminContext } from "./context.ts";
import { indiaTimeLabel } from "./studio/studio-time.ts";

// What the routes of every kind of content share (the studio's, src/server/admin/studio/item-routes.ts,
// and the ordered kinds', src/server/admin/ordered/ordered-routes.ts): who is saving, what a save
// refused because someone saved first says, and a refused form's state.

/** Who a change is by: the person signed in, their name as revisions and the trash show it. */
export function authorOf(context: AdminContext, request: FastifyRequest) {
  const session = context.sessionOf(request);
  return { id: session.staff.id, label: session.staff.name.slice(0, 200) };
}

/** The revision was saved by the person making this request. */
export const isViewers = (context: AdminContext, request: FastifyRequest, revision: RevisionSummary) =>
  revision.byId !== null && revision.byId === context.sessionOf(request).staff.id;

/**
 * What a refusal because someone saved first says. The person's own newer revision (from another
 * window, or a page of theirs sent again) is not told as someone else's change.
 */
export function staleSaveMessage(context: AdminContext, request: FastifyRequest, current: RevisionSummary): string {
  const at = indiaTimeLabel(current.at, context.now());
  return isViewers(context, request, current)
    ? `You saved a newer version at ${at} (revision ${current.number}), in another window or from an older page, so this change was not saved.`
    : `Changed by ${current.by} at ${at} (revision ${current.number}), so your change was not saved.`;
}

/** A form state with each problem at its field, the values as posted (the base moved to `base`). */
export function problemsForm(
  body: unknown,
  problems: readonly { field: string; message: string }[],
  base?: number,
): FormState {
  const values = formValues(body);
  if (base !== undefined) values.baseRevisionId = String(base);
  const errors: Record<string, string> = {};
  for (const problem of problems) errors[problem.field] ??= problem.message;
  return { values, errors };
}
