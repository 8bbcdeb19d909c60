import { PROJECT_LIMITS } from "../../content/documents.ts";
import type { StudioKindDefinition } from "./kind.ts";

// Projects: the portfolio, through the same studio as articles (docs/decisions/042-projects-in-the-studio.md).

export const PROJECTS = {
  name: "project",
  plural: "projects",
  key: "project",
  noun: "project",
  nav: { label: "Projects", order: 2.2 },
  lifecycle: "studio",
  access: { edit: "staff", publish: "publisher" },
  trash: {
    purged: false,
    notice: "Moved to the trash. It stays there until restored.",
    keeps: "until it is restored",
    restorable: "can be restored from there at any time",
  },
  // The editor's order, labelled as the specification names them.
  fields: {
    title: { label: "Title", control: "text", limit: PROJECT_LIMITS.title },
    slug: { label: "Slug", control: "text", limit: PROJECT_LIMITS.slug },
    description: {
      label: "Description",
      control: "textarea",
      limit: PROJECT_LIMITS.description,
      hint: `What was done and what it achieved: the project's page shows it whole, its card the beginning. At most ${PROJECT_LIMITS.description.toLocaleString("en-IN")} characters.`,
    },
    category: { label: "Category", control: "select" },
    year: { label: "Year", control: "text", limit: 4, hint: "Four digits, like 2024." },
    capacity: {
      label: "Capacity",
      control: "text",
      limit: PROJECT_LIMITS.capacity,
      hint: "Optional, like 50 MW or 6 MVAr filter bank.",
    },
    timeline: { label: "Timeline", control: "text", limit: PROJECT_LIMITS.timeline, hint: "Optional, like 9 months." },
    imageUrl: {
      label: "Image",
      control: "picture",
      hint: "A picture of the media library: the project's page and its card show it.",
    },
  },
} as const satisfies StudioKindDefinition<"project", "projects">;
