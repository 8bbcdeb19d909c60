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
    description: { label: "Description", control: "textarea", limit: PROJECT_LIMITS.description },
    category: { label: "Category", control: "select" },
    year: { label: "Year", control: "text" },
    capacity: { label: "Capacity", control: "text", limit: PROJECT_LIMITS.capacity },
    timeline: { label: "Timeline", control: "text", limit: PROJECT_LIMITS.timeline },
    imageUrl: { label: "Image", control: "picture" },
  },
} as const satisfies StudioKindDefinition<"project", "projects">;
