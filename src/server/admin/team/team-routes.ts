import { asc, isNotNull, sql } from "drizzle-orm";
import { TEAM } from "#shared/admin/collections/index.ts";
import type { TeamMemberFieldsView } from "#shared/admin/pages.ts";
import {
  teamListQuery,
  teamMemberActionForm,
  teamMemberCreateForm,
  teamMemberSaveForm,
  teamMoveForm,
  teamOrderForm,
} from "#shared/admin/schemas.ts";
import { pictureChoiceFor } from "#shared/media.ts";
import { slugFromTitle, type TeamMemberDocument } from "#shared/content/documents.ts";
import { contentRevisions, teamMembers } from "../../db/schema.ts";
import { type OrderedKindSpec, teamMemberRevisions } from "../ordered/ordered-kind.ts";
import type { OrderedRouteKind } from "../ordered/ordered-routes.ts";

// The team in the back office (docs/decisions/043-the-team-order-is-not-a-revision.md): an
// ordered kind (src/server/admin/ordered/: the list in the team's order, a member's page, show,
// hide, the trash, Move up / Move down and dragging), declared in src/shared/admin/collections/team.ts.
// What is the team's own: a member's slug (their file name, what articles name as their author),
// the document's fields, and the pages.

/** A stored document as the studio edits it: the fields it knows, whatever an older revision held besides. */
function teamMemberDocumentOf(stored: Record<string, unknown>): TeamMemberDocument {
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const optional = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
  return {
    slug: text(stored.slug),
    name: text(stored.name),
    title: text(stored.title),
    expertise: text(stored.expertise),
    imageUrl: text(stored.imageUrl),
    email: optional(stored.email),
    linkedinUrl: optional(stored.linkedinUrl),
  };
}

/**
 * The team's order: the `order` column (1, 2, 3… once the studio has moved anyone), then the
 * published name and the id, as the public list (listTeamMembers) breaks the ties an import of
 * new members may leave. The list, the moves and the public pages all read it this way.
 */
const TEAM_ORDER = [asc(teamMembers.order), asc(teamMembers.name), asc(teamMembers.id)] as const;

const TEAM_SPEC: OrderedKindSpec<TeamMemberDocument> = {
  definition: TEAM,
  revisions: teamMemberRevisions,
  table: teamMembers,
  order: TEAM_ORDER,
  documentOf: teamMemberDocumentOf,
  nameOf: (document) => document.name,
  // A slug (the member's file name) no member has had: made from the name, then -2, -3…
  async newDocument(tx, document) {
    const base = slugFromTitle(document.name) || "member";
    const taken = new Set<string>();
    const rows = await tx.select({ slug: teamMembers.slug }).from(teamMembers).where(isNotNull(teamMembers.slug));
    for (const row of rows) taken.add(row.slug!);
    const documents = await tx
      .select({ slug: sql<string | null>`${contentRevisions.document}->>'slug'` })
      .from(contentRevisions)
      .where(isNotNull(contentRevisions.teamMemberId));
    for (const row of documents) if (row.slug) taken.add(row.slug);
    let slug = base;
    for (let n = 2; taken.has(slug); n += 1) slug = `${base}-${n}`;
    return { document: { ...document, slug }, slug };
  },
  savedDocument: (stored, document) => ({ ...document, slug: typeof stored.slug === "string" ? stored.slug : "" }),
  words: {
    missing: "There is no such member of the team.",
    inTheTrash: "This member is in the trash: restore them from the team page first.",
    shownAlready: "This member is shown on the site already.",
    hiddenAlready: "This member is hidden already.",
    list: "The team",
    orderChanged:
      "The team changed since this page was opened (a member was added, moved to the trash or restored), so the order was not saved. Reload the page and try again.",
  },
};

export const TEAM_ROUTES: OrderedRouteKind<TeamMemberDocument, TeamMemberFieldsView> = {
  spec: TEAM_SPEC,
  forms: {
    create: teamMemberCreateForm,
    save: teamMemberSaveForm,
    action: teamMemberActionForm,
    move: teamMoveForm,
    order: teamOrderForm,
    list: teamListQuery,
  },
  empty: { name: "", title: "", expertise: "", imageUrl: "", email: "", linkedinUrl: "" },
  fieldsOf: (document) => ({
    name: document.name,
    title: document.title,
    expertise: document.expertise,
    imageUrl: document.imageUrl,
    email: document.email ?? "",
    linkedinUrl: document.linkedinUrl ?? "",
  }),
  // An empty email or LinkedIn is none; the slug is the member's, set when they are added.
  documentOf: (fields) => ({
    slug: "",
    name: fields.name,
    title: fields.title,
    expertise: fields.expertise,
    imageUrl: fields.imageUrl,
    email: fields.email || null,
    linkedinUrl: fields.linkedinUrl || null,
  }),
  pages: {
    list: ({ viewer, live, trash, pictures, canChange, focus }) => ({
      page: "team",
      viewer,
      rows: live.map((member, index) => {
        const document = member.head.document;
        return {
          id: member.id,
          name: document.name,
          title: document.title,
          imageUrl: document.imageUrl,
          thumbnail: pictureChoiceFor(pictures, document.imageUrl)?.thumbnail ?? document.imageUrl,
          status: member.status === "published" ? "shown" : "hidden",
          position: index + 1,
          headRevisionId: member.head.id,
        };
      }),
      trash: trash.map((member) => ({
        id: member.id,
        name: member.head.document.name,
        title: member.head.document.title,
        trashedAt: member.deletedAt!.toISOString(),
        trashedBy: member.deletedByLabel,
        headRevisionId: member.head.id,
      })),
      canChange,
      ...(focus ? { focus } : {}),
    }),
    editor: (viewer, { pictures, options: _options, blockers: _blockers, ...member }, messages) => ({
      page: "team-member",
      viewer,
      member: { ...member, photos: pictures },
      ...messages,
    }),
  },
};
