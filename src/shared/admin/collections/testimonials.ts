import { industries } from "../../content/industries.ts";
import { studyGroups } from "../../content/power-system-studies.ts";
import { industrySlug, serviceSlug, TESTIMONIAL_LIMITS } from "../../content/testimonials.ts";
import type { OrderedKindDefinition } from "./kind.ts";
import { PERMISSION_FIELDS } from "./permission.ts";

// What clients said of the firm, each with the client's permission on record: no draft step, a
// manual order, published or withdrawn (docs/decisions/061-testimonials-and-client-logos.md).

export const TESTIMONIALS = {
  name: "testimonial",
  plural: "testimonials",
  key: "testimonial",
  listKey: "testimonials",
  noun: "testimonial",
  nav: { label: "Testimonials", order: 2.35 },
  lifecycle: "ordered",
  access: { view: "staff", edit: "publisher" },
  fields: {
    quote: {
      label: "Quote",
      control: "textarea",
      limit: TESTIMONIAL_LIMITS.quote,
      hint: "The client's words, as approved.",
    },
    personName: { label: "Person", control: "text", limit: TESTIMONIAL_LIMITS.personName },
    personRole: { label: "Role", control: "text", limit: TESTIMONIAL_LIMITS.personRole },
    organisation: { label: "Organisation", control: "text", limit: TESTIMONIAL_LIMITS.organisation },
    anonymised: {
      label: "Anonymised",
      control: "checkbox",
      hint: "The site shows the description instead of the person, the organisation and the logo.",
    },
    description: {
      label: "Description",
      control: "text",
      limit: TESTIMONIAL_LIMITS.description,
      hint: "For an anonymised testimonial: “Head of protection, a state transmission utility in western India”.",
    },
    logoUrl: { label: "Logo", control: "picture", hint: "The organisation's logo, from the media library. Optional." },
    project: { label: "Project", control: "select", hint: "Its page shows the testimonial. Optional." },
    services: {
      label: "Services",
      control: "choices",
      choices: studyGroups.map((group) => ({ value: serviceSlug(group), label: group })),
    },
    industries: {
      label: "Industries",
      control: "choices",
      choices: industries.map((industry) => ({ value: industrySlug(industry.name), label: industry.name })),
    },
    ...PERMISSION_FIELDS,
  },
  notices: {
    "created-shown": "The testimonial was added and is on the site now.",
    "created-hidden": "The testimonial was added, not published: Publish puts it on the site.",
    "saved-shown": "Saved: the site shows the change now.",
    "saved-hidden": "Saved. The testimonial is not published: Publish puts it on the site.",
    unchanged: "Nothing had changed, so nothing was saved.",
    shown: "Published: the testimonial is on the site now.",
    hidden: "Withdrawn: the testimonial is no longer on any page.",
    trashed: "Moved to the trash, and off the site. Restore brings it back, withdrawn.",
    untrashed: "Restored from the trash, withdrawn, at the end of the list.",
    moved: "Moved. The site shows the new order now.",
    "not-moved": "Nothing moved: the testimonial is already at that end of the list.",
    reordered: "The new order is saved. The site shows it now.",
  },
  pages: {
    add: "Add a testimonial",
    newTitle: "New testimonial",
    description:
      "In this order on the home page, and on the pages of the projects, services and industries each names. Only those whose permission covers this website are shown.",
    empty: "No testimonials yet",
    show: "Publish",
    hide: "Withdraw",
    shown: "Published",
    hidden: "Not published",
    trashQuestion: "Move this testimonial to the trash? It leaves every page; Restore brings it back, withdrawn.",
  },
} as const satisfies OrderedKindDefinition<"testimonial", "testimonials">;
