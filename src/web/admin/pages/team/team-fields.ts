import type { TeamMemberFieldsView, TeamMemberStatus } from "#shared/admin/pages.ts";

// A team member's fields as the studio's pages label them (the spec's team member: name, title,
// expertise, photo, email, LinkedIn) and the ids their controls get.

export const TEAM_FIELD_LABELS: Record<keyof TeamMemberFieldsView, string> = {
  name: "Name",
  title: "Title",
  expertise: "Expertise",
  imageUrl: "Photo",
  email: "Email",
  linkedinUrl: "LinkedIn",
};

export const TEAM_FIELD_NAMES = Object.keys(TEAM_FIELD_LABELS) as (keyof TeamMemberFieldsView)[];

export const teamFieldId = (name: keyof TeamMemberFieldsView) => `team-member-${name}`;

export const TEAM_STATUS_LABELS: Record<TeamMemberStatus, string> = {
  shown: "Shown",
  hidden: "Hidden",
  trash: "In the trash",
};
