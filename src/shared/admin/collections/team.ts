import { TEAM_MEMBER_LIMITS } from "../../content/documents.ts";
import type { OrderedKindDefinition } from "./kind.ts";

// The team: no draft step, a manual order, shown or hidden (docs/decisions/043-the-team-order-is-not-a-revision.md).

export const TEAM = {
  name: "teamMember",
  plural: "team",
  key: "team-member",
  listKey: "team",
  noun: "member",
  nav: { label: "Team", order: 2.3 },
  lifecycle: "ordered",
  access: { view: "staff", edit: "publisher" },
  fields: {
    name: { label: "Name", control: "text", limit: TEAM_MEMBER_LIMITS.name },
    title: { label: "Title", control: "text", limit: TEAM_MEMBER_LIMITS.title },
    expertise: { label: "Expertise", control: "text", limit: TEAM_MEMBER_LIMITS.expertise },
    imageUrl: { label: "Photo", control: "picture" },
    email: { label: "Email", control: "email", limit: TEAM_MEMBER_LIMITS.email },
    linkedinUrl: { label: "LinkedIn", control: "url", limit: TEAM_MEMBER_LIMITS.linkedinUrl },
  },
  notices: {
    "created-shown": "The member was added and is on the site now.",
    "created-hidden": "The member was added, hidden: Show puts them on the site.",
    "saved-shown": "Saved: the site shows the change now.",
    "saved-hidden": "Saved. The member is hidden: Show puts them on the site.",
    unchanged: "Nothing had changed, so nothing was saved.",
    shown: "Shown: the member is on the site now.",
    hidden: "Hidden: the member is no longer on the site.",
    trashed: "Moved to the trash, and off the site. Restore brings the member back, hidden.",
    untrashed: "Restored from the trash, hidden, at the end of the team.",
    moved: "Moved. The site shows the new order now.",
    "not-moved": "Nothing moved: the member is already at that end of the team.",
    reordered: "The new order is saved. The site shows it now.",
  },
} as const satisfies OrderedKindDefinition<"teamMember", "team">;
