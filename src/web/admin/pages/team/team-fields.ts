import { TEAM } from "#shared/admin/collections/index.ts";
import { fieldLabels } from "#shared/admin/collections/kind.ts";
import type { TeamMemberFieldsView, TeamMemberStatus } from "#shared/admin/pages.ts";

// A team member's fields as the studio's pages label them (their definition's labels,
// src/shared/admin/collections/team.ts) and the ids their controls get.

export const TEAM_FIELD_LABELS: Record<keyof TeamMemberFieldsView, string> = fieldLabels(TEAM.fields);

export const TEAM_FIELD_NAMES = Object.keys(TEAM_FIELD_LABELS) as (keyof TeamMemberFieldsView)[];

export const teamFieldId = (name: keyof TeamMemberFieldsView) => `team-member-${name}`;

export const TEAM_STATUS_LABELS: Record<TeamMemberStatus, string> = {
  shown: "Shown",
  hidden: "Hidden",
  trash: "In the trash",
};
