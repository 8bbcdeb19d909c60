import { asc, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { adminHref } from "#shared/admin/routes.ts";
import type { TeamMember } from "#shared/api-types.ts";
import type { AdminTestApp, StaffWithSession } from "../../../../test/admin-fixtures.ts";
import { auditEvents, contentRevisions, teamMembers } from "../../db/schema.ts";
import { mediaChoices } from "../../media/media-choices.ts";
import { postForm } from "../studio/studio-test-kit.ts";

// What the team's tests share: a member's fields, adding one through the studio, and reading what
// the database, the audit trail and the public pages then hold. The pages' props are read as the
// studio's tests read them (studio-test-kit.ts, recordingEntry and propsOf).

/** A picture of the library a photo may be: a team photo when there is one. */
export async function aPhoto(t: AdminTestApp, other = false): Promise<string> {
  const choices = await mediaChoices(t.database.db);
  const team = choices.filter((choice) => /team/.test(choice.url));
  const pool = team.length >= 2 ? team : choices;
  const photo = pool[other ? 1 : 0];
  if (!photo) throw new Error("the media library has no picture to choose");
  return photo.url;
}

/** A member's form fields, complete, with overrides. */
export function memberFields(photo: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    name: "Kiran Desai",
    title: "Senior Engineer, Protection",
    expertise: "Relay coordination and arc flash studies",
    imageUrl: photo,
    email: "kiran.desai@example.com",
    linkedinUrl: "https://www.linkedin.com/in/kiran-desai",
    ...overrides,
  };
}

/** "Add member": the new member's id (the answer must be the 303 to their page). */
export async function addMember(
  t: AdminTestApp,
  person: StaffWithSession,
  fields: Record<string, string>,
  visibility: "shown" | "hidden" = "shown",
): Promise<string> {
  const response = await postForm(t, adminHref("teamMemberCreate"), person, { ...fields, visibility });
  if (response.statusCode !== 303) throw new Error(`add: ${response.statusCode} ${response.body.slice(0, 500)}`);
  return /\/admin\/team\/([0-9a-f-]{36})\?notice=team-member-created-(?:shown|hidden)$/.exec(
    String(response.headers.location),
  )![1]!;
}

export async function memberRow(t: AdminTestApp, id: string) {
  const [row] = await t.database.db.select().from(teamMembers).where(eq(teamMembers.id, id));
  return row!;
}

export async function revisionsOf(t: AdminTestApp, id: string) {
  return t.database.db
    .select()
    .from(contentRevisions)
    .where(eq(contentRevisions.teamMemberId, id))
    .orderBy(asc(contentRevisions.id));
}

export async function auditOf(t: AdminTestApp, id: string) {
  return (
    await t.database.db.select().from(auditEvents).where(eq(auditEvents.targetId, id)).orderBy(asc(auditEvents.id))
  ).map((event) => ({ action: event.action, actor: event.actorLabel, details: event.details }));
}

/** Every member's row, in the table's order column: what "no gaps, no ties" is about. */
export async function orders(t: AdminTestApp) {
  return t.database.db
    .select({ id: teamMembers.id, order: teamMembers.order, deletedAt: teamMembers.deletedAt })
    .from(teamMembers)
    .orderBy(asc(teamMembers.order));
}

/** The public team, as the API answers it. */
export async function publicTeam(t: { app: AdminTestApp["app"] }): Promise<string[]> {
  const response = await t.app.inject({ method: "GET", url: "/api/team-members" });
  return response.json<TeamMember[]>().map((member) => member.name);
}

/** The names of the team cards a page shows, in order (the section headed by `team-heading`). */
export function teamCards(response: LightMyRequestResponse): string[] {
  const start = response.body.indexOf('id="team-heading"');
  if (start < 0) return [];
  const section = response.body.slice(start, response.body.indexOf("</section>", start));
  return [...section.matchAll(/<h3[^>]*>([^<]*)<\/h3>/g)].map((match) => match[1]!.replaceAll("&amp;", "&"));
}

/** The team cards of the home page and the About page, as a visitor gets them from an instance. */
export async function pageTeams(app: AdminTestApp["app"]): Promise<{ home: string[]; about: string[] }> {
  const [home, about] = await Promise.all([
    app.inject({ method: "GET", url: "/" }),
    app.inject({ method: "GET", url: "/about" }),
  ]);
  return { home: teamCards(home), about: teamCards(about) };
}
