import type { FastifyReply, FastifyRequest } from "fastify";
import { type FormState, formValues } from "#shared/admin/forms.ts";
import type { AdminRouteName } from "#shared/admin/routes.ts";
import { isUuid } from "#shared/schemas/identifiers.ts";
import type { RevisionSummary } from "../content/revisions.ts";
import type { AdminContext, AdminHandlers } from "./context.ts";
import { savedFirstMessage } from "./saved-first.ts";
import { indiaTimeLabel } from "./studio/studio-time.ts";

// What the routes of every kind of content share (the studio's, src/server/admin/studio/item-routes.ts,
// and the ordered kinds', src/server/admin/ordered/ordered-routes.ts): their wiring under the
// definition's route names, the item a path names, who is saving, what a save refused because
// someone saved first says, and a refused form's state.

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
  if (!isViewers(context, request, current)) return savedFirstMessage(current, context.now());
  const at = indiaTimeLabel(current.at, context.now());
  return `You saved a newer version at ${at} (revision ${current.number}), in another window or from an older page, so this change was not saved.`;
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

/**
 * A kind's handlers under its route names: `names` (the definition's, by what each route does:
 * studioRouteNames, orderedRouteNames) and `handlers` (the kind's path's, by the same keys). The
 * compiler refuses a route of the kind without its handler.
 */
export function wireHandlers<const Names extends Readonly<Record<string, string>>>(
  names: Names,
  // Each handler takes its own route's request; the door gives each the request of its route.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  handlers: { readonly [Role in keyof Names]: (request: any, reply: FastifyReply) => unknown },
): AdminHandlers<Extract<Names[keyof Names], AdminRouteName>> {
  return Object.fromEntries(
    Object.entries(names).map(([role, name]) => [name, handlers[role as keyof Names]]),
  ) as unknown as AdminHandlers<Extract<Names[keyof Names], AdminRouteName>>;
}

/**
 * The item a path names, or undefined after answering 404: a malformed id is no item (no query
 * is made), and one in the trash is found only where `trashed` allows it.
 */
export async function findOr404<Item>(
  context: AdminContext,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
  kind: {
    load: (id: string) => Promise<Item | undefined>;
    /** The item is in the trash. */
    inTrash: (item: Item) => boolean;
    words: { missing: string; inTheTrash: string };
  },
  trashed: "allowed" | "refused",
): Promise<Item | undefined> {
  const id = request.params.id;
  const item = isUuid(id) ? await kind.load(id.toLowerCase()) : undefined;
  if (!item) {
    await context.problem(request, reply, 404, "Not Found", kind.words.missing);
    return undefined;
  }
  if (kind.inTrash(item) && trashed === "refused") {
    await context.problem(request, reply, 404, "Not Found", kind.words.inTheTrash);
    return undefined;
  }
  return item;
}
