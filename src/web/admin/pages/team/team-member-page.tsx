import type { AdminPagePropsOf, TeamMemberEditorView, TeamMemberFieldsView } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { TEAM_MEMBER_LIMITS } from "#shared/content/documents.ts";
import { AdminLayout } from "../../layout.tsx";
import { pictureChoiceFor } from "#shared/media.ts";
import { Field } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { ConflictPanel } from "../studio/conflict-panel.tsx";
import { ImageField } from "../studio/image-field.tsx";
import { revisionLine } from "../studio/revision-text.ts";
import { TEAM_FIELD_LABELS, TEAM_FIELD_NAMES, teamFieldId } from "./team-fields.ts";
import { TeamStatusBadge } from "./team-status-badge.tsx";
import { FormProblems, ItemActions, TrashedItem } from "../ordered/ordered-parts.tsx";

// One member of the team, or a new one (docs/back-office.md, "The team"): the spec's fields (name,
// title, expertise, photo, email, LinkedIn) in one form that posts, a new member shown or hidden
// from the start, then Show or Hide and Move to trash; a member in the trash can be restored.
// Every save is a revision; a shown member's is on the site at once. A save refused because
// someone saved first shows both texts, field by field, and keeps this person's in the form.

type Props = AdminPagePropsOf<"team-member">;

/** A field's value as a person reads it: a photo by its label in the library. */
function readable(member: TeamMemberEditorView, name: keyof TeamMemberFieldsView, value: string): string {
  if (name !== "imageUrl") return value;
  return pictureChoiceFor(member.photos, value)?.label ?? value;
}

/** Show or Hide, and Move to trash: each a form of its own, based on the revision shown. */
function OnTheSite({ member, id }: { member: TeamMemberEditorView; id: string }) {
  const shown = member.status === "shown";
  return (
    <section aria-labelledby="on-site-heading" className="admin-card mt-4">
      <h2 id="on-site-heading" className="text-lg font-semibold text-navy-900">
        On the site
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {shown
          ? `Shown on the About page${member.position !== null && member.position <= 3 ? " and the home page" : ""}, ${member.position !== null ? `in place ${member.position} of the team` : ""}.`
          : "Hidden: not on the site. Show puts the member on the About page in their place."}
      </p>
      <ItemActions
        shown={shown}
        baseRevisionId={member.head?.id}
        toggle={{
          action: adminHref(shown ? "teamMemberHide" : "teamMemberShow", { id }),
          label: shown ? "Hide" : "Show",
        }}
        trash={{
          action: adminHref("teamMemberTrash", { id }),
          question: "Move this member to the trash? They leave the site; Restore brings them back, hidden.",
        }}
      />
    </section>
  );
}

export function TeamMemberPage({ viewer, member, notice, error, form }: Props) {
  const { id } = member;
  const trashed = member.status === "trash";
  const values: TeamMemberFieldsView = { ...member.fields };
  for (const name of TEAM_FIELD_NAMES) if (form?.values[name] !== undefined) values[name] = form.values[name];
  const common = (name: keyof TeamMemberFieldsView) => ({
    id: teamFieldId(name),
    name,
    label: TEAM_FIELD_LABELS[name],
    form,
    defaultValue: values[name],
  });
  const base =
    form?.values.baseRevisionId && /^\d+$/.test(form.values.baseRevisionId)
      ? form.values.baseRevisionId
      : member.head?.id;
  const visibility = form?.values.visibility === "hidden" ? "hidden" : "shown";
  return (
    <AdminLayout viewer={viewer} current="team">
      <p className="text-sm">
        <a href={adminHref("team")} className="admin-link">
          Team
        </a>
      </p>
      <div className="mt-2">
        <PageHeader
          title={id === null ? "New team member" : member.fields.name || "Unnamed member"}
          meta={id === null ? null : <TeamStatusBadge status={member.status} />}
          description={member.head ? revisionLine(member.head) : "Not saved yet."}
        />
      </div>
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <FormProblems errors={form?.errors} fields={TEAM_FIELD_NAMES} />
      {id !== null && trashed ? (
        <TrashedItem
          trashedAt={member.trashedAt}
          restores="brings the member back, hidden, at the end of the team"
          action={adminHref("teamMemberUntrash", { id })}
          baseRevisionId={member.head?.id}
        />
      ) : null}
      {member.conflict ? (
        <ConflictPanel
          place="form"
          current={member.conflict.current}
          names={TEAM_FIELD_NAMES}
          labels={TEAM_FIELD_LABELS}
          mine={values}
          theirs={member.conflict.fields}
          readable={(name, value) => readable(member, name as keyof TeamMemberFieldsView, value)}
          yours={member.conflict.yours}
        />
      ) : null}

      <form
        method="post"
        action={id === null ? adminHref("teamMemberCreate") : adminHref("teamMemberSave", { id })}
        aria-label={id === null ? "New team member" : "Team member"}
        data-team-member-form
      >
        {id !== null && base !== undefined ? <input type="hidden" name="baseRevisionId" value={base} /> : null}
        <fieldset disabled={trashed} className="grid min-w-0 gap-4">
          <legend className="sr-only">The member</legend>
          <section aria-labelledby="member-heading" className="admin-card grid gap-4 sm:grid-cols-2">
            <h2 id="member-heading" className="text-lg font-semibold text-navy-900 sm:col-span-2">
              The member
            </h2>
            <Field {...common("name")} type="text" required maxLength={TEAM_MEMBER_LIMITS.name} autoComplete="off" />
            <Field
              {...common("title")}
              type="text"
              required
              maxLength={TEAM_MEMBER_LIMITS.title}
              autoComplete="off"
              hint="Their role, as the team card shows it under the name."
            />
            <Field
              {...common("expertise")}
              type="text"
              required
              maxLength={TEAM_MEMBER_LIMITS.expertise}
              autoComplete="off"
              className="sm:col-span-2"
              hint="One line: what they are known for."
            />
            <ImageField
              id={teamFieldId("imageUrl")}
              name="imageUrl"
              label={TEAM_FIELD_LABELS.imageUrl}
              form={form}
              value={values.imageUrl}
              images={member.photos}
              noneLabel="Choose a photo"
              purpose="the member's photo"
              shape="square"
              hint={
                id === null
                  ? "A picture of the media library."
                  : `A picture of the media library. The member's file name: ${member.slug ?? ""}.`
              }
            />
            <div className="grid content-start gap-4">
              <Field
                {...common("email")}
                type="email"
                maxLength={TEAM_MEMBER_LIMITS.email}
                autoComplete="off"
                hint="Optional: shown as a mail link."
              />
              <Field
                {...common("linkedinUrl")}
                type="text"
                inputMode="url"
                maxLength={TEAM_MEMBER_LIMITS.linkedinUrl}
                autoComplete="off"
                placeholder="https://www.linkedin.com/in/…"
                hint="Optional: the address of their LinkedIn profile (https:// may be left out)."
              />
            </div>
            {id === null ? (
              <fieldset className="sm:col-span-2">
                <legend className="admin-label">On the site</legend>
                <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
                  <label className="inline-flex items-center gap-2">
                    <input type="radio" name="visibility" value="shown" defaultChecked={visibility === "shown"} />
                    Shown: on the About page at once
                  </label>
                  <label className="inline-flex items-center gap-2">
                    <input type="radio" name="visibility" value="hidden" defaultChecked={visibility === "hidden"} />
                    Hidden until you show them
                  </label>
                </div>
                {form?.errors.visibility ? (
                  <p className="mt-1 text-sm font-medium text-red-700">{form.errors.visibility}</p>
                ) : null}
              </fieldset>
            ) : null}
            {trashed ? null : (
              <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
                <button type="submit" className="admin-button">
                  {id === null ? "Add member" : "Save"}
                </button>
                <p className="text-xs text-slate-600">
                  {id === null
                    ? "A new member goes to the end of the team; move them on the team page."
                    : member.status === "shown"
                      ? "The member is shown: the site shows what you save at once."
                      : "The member is hidden: saving changes nothing on the site."}
                </p>
              </div>
            )}
          </section>
        </fieldset>
      </form>

      {id !== null && !trashed ? <OnTheSite member={member} id={id} /> : null}
    </AdminLayout>
  );
}
