import { aliasedTable, asc, eq } from "drizzle-orm";
import type { PhotoChoiceView, RevisionView, TeamMemberFieldsView, TeamMemberStatus } from "#shared/admin/pages.ts";
import type { TeamMemberDocument } from "#shared/content/documents.ts";
import type { Database, Tx } from "../../db/client.ts";
import { contentRevisions, teamMembers } from "../../db/schema.ts";
import { mediaChoices } from "../../media/media-choices.ts";

// What the team's screens read (docs/decisions/043-the-team-order-is-not-a-revision.md): the
// members in the team's order, one member with their head revision, and the pictures a photo may
// be. Every change is in team-writes.ts.

// The database or a transaction on it, written once in the database layer.
export type { Tx };

/**
 * The team's order: the `order` column (1, 2, 3… once the studio has moved anyone), then the
 * published name and the id, as the public list (listTeamMembers) breaks the ties an import of
 * new members may leave. The list, the moves and the public pages all read it this way.
 */
export const TEAM_ORDER = [asc(teamMembers.order), asc(teamMembers.name), asc(teamMembers.id)] as const;

/** A member's head revision, as the screens need it. */
export type MemberHead = {
  id: number;
  number: number;
  by: string;
  at: Date;
  source: string;
  restoredFromNumber: number | null;
  document: TeamMemberDocument;
};

/** A member's row (what the studio needs of it) and head revision. */
export type MemberRecord = {
  id: string;
  slug: string | null;
  status: string;
  order: number;
  headRevisionId: number | null;
  publishedRevisionId: number | null;
  deletedAt: Date | null;
  deletedByLabel: string | null;
  /** The published copy's name (null until first shown). */
  publishedName: string | null;
  head: MemberHead | null;
};

const restored = aliasedTable(contentRevisions, "restored");

const memberColumns = {
  id: teamMembers.id,
  slug: teamMembers.slug,
  status: teamMembers.status,
  order: teamMembers.order,
  headRevisionId: teamMembers.headRevisionId,
  publishedRevisionId: teamMembers.publishedRevisionId,
  deletedAt: teamMembers.deletedAt,
  deletedByLabel: teamMembers.deletedByLabel,
  publishedName: teamMembers.name,
  headId: contentRevisions.id,
  headNumber: contentRevisions.number,
  headBy: contentRevisions.authorLabel,
  headAt: contentRevisions.createdAt,
  headSource: contentRevisions.source,
  headDocument: contentRevisions.document,
  restoredFromNumber: restored.number,
};

function selectMembers(db: Tx) {
  return db
    .select(memberColumns)
    .from(teamMembers)
    .leftJoin(contentRevisions, eq(contentRevisions.id, teamMembers.headRevisionId))
    .leftJoin(restored, eq(restored.id, contentRevisions.restoredFromId));
}

type MemberRow = Awaited<ReturnType<typeof selectMembers>>[number];

/** A stored document as the studio edits it: the fields it knows, whatever an older revision held besides. */
export function teamMemberDocumentOf(stored: Record<string, unknown>): TeamMemberDocument {
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

function memberRecord(row: MemberRow): MemberRecord {
  const head =
    row.headId !== null && row.headDocument !== null
      ? {
          id: row.headId,
          number: row.headNumber!,
          by: row.headBy!,
          at: row.headAt!,
          source: row.headSource!,
          restoredFromNumber: row.restoredFromNumber,
          document: teamMemberDocumentOf(row.headDocument),
        }
      : null;
  return {
    id: row.id,
    slug: row.slug,
    status: row.status,
    order: row.order,
    headRevisionId: row.headRevisionId,
    publishedRevisionId: row.publishedRevisionId,
    deletedAt: row.deletedAt,
    deletedByLabel: row.deletedByLabel,
    publishedName: row.publishedName,
    head,
  };
}

/** Every member, in the team's order, trashed ones included. */
export async function teamInOrder(db: Tx): Promise<MemberRecord[]> {
  const rows = await selectMembers(db).orderBy(...TEAM_ORDER);
  return rows.map(memberRecord);
}

/** One member (trashed ones too), or undefined. The id must be a UUID already. */
export async function loadMember(db: Tx, id: string): Promise<MemberRecord | undefined> {
  const [row] = await selectMembers(db).where(eq(teamMembers.id, id));
  return row ? memberRecord(row) : undefined;
}

/** Where a member stands for visitors, as the studio says it. */
export function memberStatus(member: Pick<MemberRecord, "status" | "deletedAt">): TeamMemberStatus {
  if (member.deletedAt) return "trash";
  return member.status === "published" ? "shown" : "hidden";
}

/** A member's document as the form's fields. */
export function fieldsOf(document: TeamMemberDocument): TeamMemberFieldsView {
  return {
    name: document.name,
    title: document.title,
    expertise: document.expertise,
    imageUrl: document.imageUrl,
    email: document.email ?? "",
    linkedinUrl: document.linkedinUrl ?? "",
  };
}

/** A member's head revision as the screens show it. */
export function headView(member: MemberRecord): RevisionView | null {
  const head = member.head;
  if (!head) return null;
  return {
    id: head.id,
    number: head.number,
    by: head.by,
    at: head.at.toISOString(),
    source: head.source,
    restoredFrom: head.restoredFromNumber,
    published: member.status === "published" && member.publishedRevisionId === head.id,
  };
}

/** The pictures a photo may be: the media library's (src/server/media/media-choices.ts). */
export async function photoChoices(db: Database): Promise<PhotoChoiceView[]> {
  return (await mediaChoices(db)).map(({ url, label, thumbnail, key }) => ({ url, label, thumbnail, key }));
}
