import type { AdminAccess } from "../access.ts";

// A kind of content the back office edits, declared once (docs/decisions/059-a-kind-of-content-declared-once.md):
// its names, its place in the navigation, who may edit and publish it, its lifecycle and its
// fields. From a definition come its route entries (routes.ts), the names the server wires its
// handlers under and the pages link to, its notices (notices.ts), its audit actions
// (audit-actions.ts) and its fields' labels. What only the server knows (its table, its revision
// columns, its search text) stays on the server, keyed by the kind (src/server/admin/studio/kinds.ts).
//
// Two lifecycles:
// - "studio": drafts and revisions, Publish, Schedule, Unpublish, the trash, a slug and its old
//   addresses, preview and share links, History and Compare (articles, projects; decision 038, 042).
// - "ordered": no draft step (a change is public at once while the item is shown), a manual order,
//   show and hide, the trash (the team; decision 043).

/** How a field is edited. */
export type FieldControl =
  | "text"
  | "textarea"
  | "markdown"
  | "picture"
  | "select"
  | "date"
  | "datetime"
  | "email"
  | "url"
  /** A yes or no, ticked or not. */
  | "checkbox"
  /** Any of `choices`, each a box to tick. */
  | "choices";

/** One of a field's fixed choices ("choices" fields), or of a select's. */
export type FieldChoice = { readonly value: string; readonly label: string };

export type FieldDefinition = {
  /** The editor's label, and how History, Compare and problems name the field. */
  readonly label: string;
  readonly control: FieldControl;
  /** The most characters it takes, where the field has a limit of its own. */
  readonly limit?: number;
  /** The line under the label, where there is one. */
  readonly hint?: string;
  /** A "choices" field's choices, in their order. (A select's come from the server: they are items.) */
  readonly choices?: readonly FieldChoice[];
  /** A group the editor draws the field in, under this heading ("The client's permission"). */
  readonly group?: string;
};

type KindNames<Name extends string, Plural extends string> = {
  /** An item's route name ("article", "teamMember"): the other route names of an item begin with it. */
  readonly name: Name;
  /** The list's route name and path segment ("articles", "team"). */
  readonly plural: Plural;
  /** The kebab-case prefix of its notices, audit actions and page names ("article", "team-member"). */
  readonly key: string;
  /** How sentences name one ("article", "member"). */
  readonly noun: string;
  /** The navigation entry (its label, the list's title) and its place. */
  readonly nav: { readonly label: string; readonly order: number };
  /** The fields in the editor's order. */
  readonly fields: Readonly<Record<string, FieldDefinition>>;
};

/** Drafts and revisions, published by those who may publish (articles, projects). */
export type StudioKindDefinition<Name extends string = string, Plural extends string = string> = KindNames<
  Name,
  Plural
> & {
  readonly lifecycle: "studio";
  /** Anyone on the staff writes and saves drafts; publishing is for those who may publish. */
  readonly access: { readonly edit: "staff"; readonly publish: "publisher" };
  /** The trash: whether the daily purge deletes an item after its days there, and how the pages say so. */
  readonly trash: {
    readonly purged: boolean;
    /** "Moved to the trash. It can be restored for 30 days." */
    readonly notice: string;
    /** "for 30 days": how long the trash keeps one. */
    readonly keeps: string;
    /** "can be restored for 30 days": what Move to trash tells. */
    readonly restorable: string;
  };
};

/** No draft step, a manual order, shown or hidden (the team). */
export type OrderedKindDefinition<Name extends string = string, Plural extends string = string> = KindNames<
  Name,
  Plural
> & {
  readonly lifecycle: "ordered";
  /** Everyone on the staff sees the list; every change is public at once, so it is for those who may publish. */
  readonly access: { readonly view: "staff"; readonly edit: "publisher" };
  /** The kebab-case prefix of the notices and audit actions about the whole list ("team"). */
  readonly listKey: string;
  /** What the back office says after each change: the kind's own words. */
  readonly notices: Readonly<Record<OrderedItemNotice, string>> & Readonly<Record<OrderedListNotice, string>>;
  /**
   * The words of the kind's pages, where they are drawn from the definition (src/web/admin/pages/ordered/).
   * The team has pages of its own and none of these.
   */
  readonly pages?: OrderedPageWords;
};

/** What the pages drawn from an ordered kind's definition say of it. */
export type OrderedPageWords = {
  /** "Add a testimonial". */
  readonly add: string;
  /** "New testimonial": a new item's title. */
  readonly newTitle: string;
  /** The line under the list's title: where the items show. */
  readonly description: string;
  /** What the list says when it is empty. */
  readonly empty: string;
  /** The buttons that put an item on the site and take it off ("Publish", "Withdraw"). */
  readonly show: string;
  readonly hide: string;
  /** The status words: on the site, and not ("Published", "Withdrawn or not yet published"). */
  readonly shown: string;
  readonly hidden: string;
  /** "Move this testimonial to the trash? …": what Move to trash asks. */
  readonly trashQuestion: string;
};

export type KindDefinition = StudioKindDefinition | OrderedKindDefinition;

export type OrderedItemNotice =
  | "created-shown"
  | "created-hidden"
  | "saved-shown"
  | "saved-hidden"
  | "unchanged"
  | "shown"
  | "hidden"
  | "trashed"
  | "untrashed";
export type OrderedListNotice = "moved" | "not-moved" | "reordered";

/** The labels of a kind's fields, by field name. */
export function fieldLabels<Fields extends Readonly<Record<string, FieldDefinition>>>(
  fields: Fields,
): { readonly [Field in keyof Fields]: string } {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.label])) as {
    [Field in keyof Fields]: string;
  };
}

// ---- Route entries. The table's entries of a kind, named and typed as if written by hand, so
// that adminHref("articleSave", { id }) and the handlers' types work as for any route.

type Route = {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly access: AdminAccess;
  readonly json?: boolean;
  readonly bodyLimit?: number;
  readonly sessionLimit?: { readonly bucket: string; readonly perMinute: number; readonly what: string };
  readonly nav?: { readonly label: string; readonly order: number };
  /** A successful answer may have changed what visitors read: the door refreshes the content version (decision 060). */
  readonly publicContent?: boolean;
};

function entry<const Key extends string, const Definition extends Route>(
  key: Key,
  definition: Definition,
): { readonly [Name in Key]: Definition } {
  return { [key]: definition } as { readonly [Name in Key]: Definition };
}

/** What a studio kind's routes share with the rest of the table: the body limit and the autosaves' session limit. */
export type StudioRouteLimits<BodyLimit extends number> = {
  readonly bodyLimit: BodyLimit;
  readonly autosaves: { readonly bucket: string; readonly perMinute: number; readonly what: string };
};

/** The route names every kind has: its list, an item's page (new, create, open, save), the trash. */
function itemRouteNames<const Name extends string, const Plural extends string>(name: Name, plural: Plural) {
  return {
    list: plural,
    new: `${name}New`,
    create: `${name}Create`,
    item: name,
    save: `${name}Save`,
    trash: `${name}Trash`,
    untrash: `${name}Untrash`,
  } as const;
}

/** The route names of a studio kind, by what each does: what the pages link to and the server wires. */
export function studioRouteNames<const Name extends string, const Plural extends string>(
  kind: StudioKindDefinition<Name, Plural>,
) {
  const { name } = kind;
  return {
    ...itemRouteNames(name, kind.plural),
    autosave: `${name}Autosave`,
    presence: `${name}Presence`,
    publish: `${name}Publish`,
    unpublish: `${name}Unpublish`,
    previewLink: `${name}PreviewLink`,
    card: `${name}Card`,
    shareLink: `${name}ShareLink`,
    shareLinkRevoke: `${name}ShareLinkRevoke`,
    history: `${name}History`,
    compare: `${name}Compare`,
    restore: `${name}RevisionRestore`,
  } as const;
}

/**
 * The routes of a studio kind: the list, the editor (new, create, open, save, autosave,
 * presence), publishing (publish or schedule, unpublish, trash, restore from the trash), preview
 * and share links, the draft's card, History, Compare and restoring a revision.
 */
export function studioKindRoutes<
  const Name extends string,
  const Plural extends string,
  const BodyLimit extends number,
>(kind: StudioKindDefinition<Name, Plural>, limits: StudioRouteLimits<BodyLimit>) {
  const names = studioRouteNames(kind);
  const base = `/admin/${kind.plural}` as const;
  const item = `${base}/:id` as const;
  const api = `/admin/api/${kind.plural}/:id` as const;
  const { bodyLimit } = limits;
  return {
    ...entry(names.list, { method: "GET", path: base, access: "staff", nav: kind.nav }),
    ...entry(names.new, { method: "GET", path: `${base}/new`, access: "staff" }),
    ...entry(names.create, { method: "POST", path: base, access: "staff", bodyLimit }),
    ...entry(names.item, { method: "GET", path: item, access: "staff" }),
    ...entry(names.save, { method: "POST", path: item, access: "staff", bodyLimit }),
    ...entry(names.autosave, {
      method: "POST",
      path: `${api}/autosave`,
      access: "staff",
      json: true,
      bodyLimit,
      sessionLimit: limits.autosaves,
    }),
    ...entry(names.presence, { method: "POST", path: `${api}/presence`, access: "staff", json: true }),
    ...entry(names.publish, {
      method: "POST",
      path: `${item}/publish`,
      access: "publisher",
      bodyLimit,
      publicContent: true,
    }),
    ...entry(names.unpublish, { method: "POST", path: `${item}/unpublish`, access: "publisher", publicContent: true }),
    ...entry(names.trash, { method: "POST", path: `${item}/trash`, access: "publisher", publicContent: true }),
    ...entry(names.untrash, { method: "POST", path: `${item}/untrash`, access: "publisher" }),
    ...entry(names.previewLink, { method: "POST", path: `${item}/preview`, access: "staff" }),
    // The draft's link-preview card, as LinkedIn and WhatsApp will show it once published (a JPEG).
    ...entry(names.card, { method: "GET", path: `${item}/card`, access: "staff" }),
    ...entry(names.shareLink, { method: "POST", path: `${item}/share-links`, access: "staff" }),
    ...entry(names.shareLinkRevoke, {
      method: "POST",
      path: `${item}/share-links/:linkId/revoke`,
      access: "staff",
    }),
    ...entry(names.history, { method: "GET", path: `${item}/history`, access: "staff" }),
    ...entry(names.compare, { method: "GET", path: `${item}/compare`, access: "staff" }),
    ...entry(names.restore, {
      method: "POST",
      path: `${item}/revisions/:revisionId/restore`,
      access: "staff",
    }),
  };
}

/** The route names of a studio kind, by what each does. */
export type StudioRouteNames<Name extends string, Plural extends string> = ReturnType<
  typeof studioRouteNames<Name, Plural>
>;

/** Every route name of a studio kind. */
export type StudioKindRouteName<Kind> =
  Kind extends StudioKindDefinition<infer Name, infer Plural>
    ? StudioRouteNames<Name, Plural>[keyof StudioRouteNames<Name, Plural>]
    : never;

/** The route names of an ordered kind, by what each does. */
export function orderedRouteNames<const Name extends string, const Plural extends string>(
  kind: OrderedKindDefinition<Name, Plural>,
) {
  const { name } = kind;
  return {
    ...itemRouteNames(name, kind.plural),
    show: `${name}Show`,
    hide: `${name}Hide`,
    move: `${name}Move`,
    order: `${kind.plural}Order`,
  } as const;
}

/**
 * The routes of an ordered kind: the list (for everyone on the staff), an item's page (new,
 * create, open, save), show, hide, trash and restore, Move up / Move down, and the order after
 * dragging (JSON).
 */
export function orderedKindRoutes<const Name extends string, const Plural extends string>(
  kind: OrderedKindDefinition<Name, Plural>,
) {
  const names = orderedRouteNames(kind);
  const base = `/admin/${kind.plural}` as const;
  const item = `${base}/:id` as const;
  return {
    ...entry(names.list, { method: "GET", path: base, access: "staff", nav: kind.nav }),
    ...entry(names.new, { method: "GET", path: `${base}/new`, access: "publisher" }),
    ...entry(names.create, { method: "POST", path: base, access: "publisher", publicContent: true }),
    ...entry(names.item, { method: "GET", path: item, access: "publisher" }),
    ...entry(names.save, { method: "POST", path: item, access: "publisher", publicContent: true }),
    ...entry(names.show, { method: "POST", path: `${item}/show`, access: "publisher", publicContent: true }),
    ...entry(names.hide, { method: "POST", path: `${item}/hide`, access: "publisher", publicContent: true }),
    ...entry(names.trash, { method: "POST", path: `${item}/trash`, access: "publisher", publicContent: true }),
    ...entry(names.untrash, { method: "POST", path: `${item}/untrash`, access: "publisher", publicContent: true }),
    ...entry(names.move, { method: "POST", path: `${item}/move`, access: "publisher", publicContent: true }),
    ...entry(names.order, {
      method: "POST",
      path: `/admin/api/${kind.plural}/order`,
      access: "publisher",
      json: true,
      publicContent: true,
    }),
  };
}

/** The routes of an ordered kind, as orderedKindRoutes makes them. */
type OrderedRoutesOf<Kind> =
  Kind extends OrderedKindDefinition<infer Name, infer Plural>
    ? ReturnType<typeof orderedKindRoutes<Name, Plural>>
    : never;

/** A union of objects as one object with all their keys. */
type Merged<Union> = (Union extends unknown ? (merged: Union) => void : never) extends (merged: infer All) => void
  ? All
  : never;

/** The routes of every ordered kind of a list (src/shared/admin/collections/index.ts): a new kind's come with it. */
export function orderedKindsRoutes<const Kinds extends readonly OrderedKindDefinition[]>(kinds: Kinds) {
  return Object.assign({}, ...kinds.map((kind) => orderedKindRoutes(kind))) as Merged<OrderedRoutesOf<Kinds[number]>>;
}

// ---- Notices and audit actions, named after the kind's key.

const STUDIO_NOTICES = ["created", "published", "scheduled", "unpublished", "trashed", "untrashed"] as const;
export type StudioNotice = (typeof STUDIO_NOTICES)[number];

/** A studio kind's notices: "article-created": "The article was created as a draft.", … */
export function studioKindNotices<const Key extends string>(kind: StudioKindDefinition & { readonly key: Key }) {
  const { noun } = kind;
  const texts: Record<StudioNotice, string> = {
    created: `The ${noun} was created as a draft.`,
    published: `Published: the ${noun} is on the site.`,
    scheduled: `Scheduled: the ${noun} goes public at its publish date.`,
    unpublished: `Unpublished: the ${noun} is no longer on the site.`,
    trashed: kind.trash.notice,
    untrashed: "Restored from the trash, as a draft.",
  };
  return Object.fromEntries(STUDIO_NOTICES.map((notice) => [`${kind.key}-${notice}`, texts[notice]])) as {
    readonly [Notice in StudioNotice as `${Key}-${Notice}`]: string;
  };
}

/** A studio kind's notice keys, by what each says. */
export function studioNoticeKeys<const Key extends string>(key: Key) {
  return Object.fromEntries(STUDIO_NOTICES.map((notice) => [notice, `${key}-${notice}`])) as {
    readonly [Notice in StudioNotice]: `${Key}-${Notice}`;
  };
}

/** The states each studio notice is true of (notices.ts shows one only while it holds). */
export function studioNoticeStates<const Key extends string>(key: Key) {
  return {
    [`${key}-published`]: ["published"],
    [`${key}-scheduled`]: ["scheduled"],
    [`${key}-unpublished`]: ["unpublished"],
    [`${key}-trashed`]: ["trash"],
    [`${key}-untrashed`]: ["draft", "scheduled", "unpublished"],
  } as unknown as { readonly [Notice in Exclude<StudioNotice, "created"> as `${Key}-${Notice}`]: readonly string[] };
}

/** An ordered kind's notices, in its own words: "team-member-shown", …, "team-moved". */
export function orderedKindNotices<const Key extends string, const ListKey extends string>(
  kind: OrderedKindDefinition & { readonly key: Key; readonly listKey: ListKey },
) {
  const item: OrderedItemNotice[] = [
    "created-shown",
    "created-hidden",
    "saved-shown",
    "saved-hidden",
    "unchanged",
    "shown",
    "hidden",
    "trashed",
    "untrashed",
  ];
  const list: OrderedListNotice[] = ["moved", "not-moved", "reordered"];
  return Object.fromEntries([
    ...item.map((notice) => [`${kind.key}-${notice}`, kind.notices[notice]]),
    ...list.map((notice) => [`${kind.listKey}-${notice}`, kind.notices[notice]]),
  ]) as { readonly [Notice in OrderedItemNotice as `${Key}-${Notice}`]: string } & {
    readonly [Notice in OrderedListNotice as `${ListKey}-${Notice}`]: string;
  };
}

/** The notices of every ordered kind of a list. */
export function orderedKindsNotices<const Kinds extends readonly OrderedKindDefinition[]>(kinds: Kinds) {
  return Object.assign({}, ...kinds.map((kind) => orderedKindNotices(kind))) as Merged<
    Kinds[number] extends infer Kind
      ? Kind extends OrderedKindDefinition & {
          readonly key: infer Key extends string;
          readonly listKey: infer ListKey extends string;
        }
        ? ReturnType<typeof orderedKindNotices<Key, ListKey>>
        : never
      : never
  >;
}

const STUDIO_AUDIT = [
  "published",
  "scheduled",
  "unpublished",
  "slug-changed",
  "trashed",
  "untrashed",
  "revision-restored",
  "link-created",
  "link-revoked",
] as const;
export type StudioAudit = (typeof STUDIO_AUDIT)[number];

/** A studio kind's audit actions ("article-published", …; "article-purged" where the trash is purged). */
export function studioAuditActions<const Key extends string>(kind: StudioKindDefinition & { readonly key: Key }) {
  const actions = STUDIO_AUDIT.map((action) => `${kind.key}-${action}`);
  if (kind.trash.purged) actions.splice(actions.indexOf(`${kind.key}-untrashed`) + 1, 0, `${kind.key}-purged`);
  return actions as readonly (`${Key}-${StudioAudit}` | `${Key}-purged`)[];
}

/** A studio kind's audit action names, by what each records. */
export function studioAuditNames<const Key extends string>(key: Key) {
  return Object.fromEntries(STUDIO_AUDIT.map((action) => [action, `${key}-${action}`])) as {
    readonly [Action in StudioAudit]: `${Key}-${Action}`;
  };
}

const ORDERED_AUDIT = ["created", "changed", "shown", "hidden", "trashed", "untrashed"] as const;
export type OrderedAudit = (typeof ORDERED_AUDIT)[number];

/** An ordered kind's audit actions ("team-member-shown", …, "team-order-changed"). */
export function orderedAuditActions<const Key extends string, const ListKey extends string>(
  kind: OrderedKindDefinition & { readonly key: Key; readonly listKey: ListKey },
) {
  return [...ORDERED_AUDIT.map((action) => `${kind.key}-${action}`), `${kind.listKey}-order-changed`] as readonly (
    `${Key}-${OrderedAudit}` | `${ListKey}-order-changed`
  )[];
}

/** The audit actions of every ordered kind of a list. */
export function orderedKindsAuditActions<const Kinds extends readonly OrderedKindDefinition[]>(kinds: Kinds) {
  return kinds.flatMap((kind) => orderedAuditActions(kind)) as unknown as readonly (Kinds[number] extends infer Kind
    ? Kind extends OrderedKindDefinition & {
        readonly key: infer Key extends string;
        readonly listKey: infer ListKey extends string;
      }
      ? `${Key}-${OrderedAudit}` | `${ListKey}-order-changed`
      : never
    : never)[];
}
