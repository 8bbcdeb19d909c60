import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { staff, teamMembers } from "../db/schema.ts";

// An article's author (its document's `author`): a member of the team, by slug, or a member of
// staff who is not on the team, as `staff-<their id>`. The team's members have a photo and a place
// on the About page; a member of staff has a name only, so their byline is their name and nothing
// else. Publishing, the draft's preview and card, the studio's lists and the export all name the
// author through this file (docs/content.md, "Authors").

const STAFF_AUTHOR = /^staff-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The Author value that names this member of staff. */
export const staffAuthor = (staffId: string): string => `staff-${staffId}`;

/** The member of staff's id an Author value names, if it names one. */
export function staffIdOf(author: string): string | undefined {
  return STAFF_AUTHOR.exec(author)?.[1];
}

export type Byline = {
  /** The team member's id; null for a member of staff. */
  teamMemberId: string | null;
  name: string;
  /** The team member's photo; null for a member of staff. */
  imageUrl: string | null;
  /** Whether the team page shows the member (a photo is drawn only then); false for staff. */
  onTeamPage: boolean;
};

/**
 * Whom an Author value names, or undefined when no one (an unknown slug or id). `trashed`: whether a
 * team member in the trash still counts (publishing keeps the byline of a member trashed since).
 */
export async function bylineOf(tx: Tx, author: string, { trashed }: { trashed: boolean }): Promise<Byline | undefined> {
  if (!author) return undefined;
  const staffId = staffIdOf(author);
  if (staffId) {
    const [person] = await tx.select({ name: staff.name }).from(staff).where(eq(staff.id, staffId));
    return person ? { teamMemberId: null, name: person.name, imageUrl: null, onTeamPage: false } : undefined;
  }
  const [member] = await tx
    .select({ id: teamMembers.id, name: teamMembers.name, imageUrl: teamMembers.imageUrl, status: teamMembers.status })
    .from(teamMembers)
    .where(trashed ? eq(teamMembers.slug, author) : and(eq(teamMembers.slug, author), isNull(teamMembers.deletedAt)));
  if (!member) return undefined;
  return {
    teamMemberId: member.id,
    name: member.name ?? author,
    imageUrl: member.imageUrl ?? null,
    onTeamPage: member.status === "published",
  };
}

/** The names of the authors given (team slugs and staff values), for the studio's lists. */
export async function bylineNames(tx: Tx, authors: string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(authors.filter(Boolean))];
  const staffIds = wanted.flatMap((author) => staffIdOf(author) ?? []);
  const slugs = wanted.filter((author) => !staffIdOf(author));
  const [members, people] = await Promise.all([
    slugs.length
      ? tx
          .select({ slug: teamMembers.slug, name: teamMembers.name })
          .from(teamMembers)
          .where(inArray(teamMembers.slug, slugs))
      : [],
    staffIds.length ? tx.select({ id: staff.id, name: staff.name }).from(staff).where(inArray(staff.id, staffIds)) : [],
  ]);
  return new Map([
    ...members.map((row): [string, string] => [row.slug!, row.name ?? row.slug!]),
    ...people.map((row): [string, string] => [staffAuthor(row.id), row.name]),
  ]);
}

/**
 * Members of staff who may be named Author without being on the team: everyone not disabled, by
 * name, except those the team already has under the same name (they are chosen as the member).
 */
export async function staffAuthors(tx: Tx, teamNames: ReadonlySet<string>): Promise<{ slug: string; name: string }[]> {
  const rows = await tx
    .select({ id: staff.id, name: staff.name })
    .from(staff)
    .where(isNull(staff.disabledAt))
    .orderBy(asc(staff.name));
  return rows
    .filter((row) => !teamNames.has(row.name))
    .map((row) => ({ slug: staffAuthor(row.id), name: `${row.name} (staff, not on the team page)` }));
}
