import { TESTIMONIAL_LIMITS } from "../../content/testimonials.ts";
import type { OrderedKindDefinition } from "./kind.ts";
import { PERMISSION_FIELDS } from "./permission.ts";

// Clients' logos, in a row on the home page, each with the client's permission on record: no
// draft step, a manual order, published or withdrawn (docs/decisions/061-testimonials-and-client-logos.md).

export const CLIENT_LOGOS = {
  name: "clientLogo",
  plural: "client-logos",
  key: "client-logo",
  listKey: "client-logos",
  noun: "logo",
  nav: { label: "Client logos", order: 2.4 },
  lifecycle: "ordered",
  access: { view: "staff", edit: "publisher" },
  fields: {
    organisation: {
      label: "Organisation",
      control: "text",
      limit: TESTIMONIAL_LIMITS.organisation,
      hint: "Also the logo's alternative text on the site.",
    },
    logoUrl: { label: "Logo", control: "picture", hint: "From the media library. The site shows it in greyscale." },
    ...PERMISSION_FIELDS,
  },
  notices: {
    "created-shown": "The logo was added and is on the home page now.",
    "created-hidden": "The logo was added, not published: Publish puts it on the home page.",
    "saved-shown": "Saved: the site shows the change now.",
    "saved-hidden": "Saved. The logo is not published: Publish puts it on the home page.",
    unchanged: "Nothing had changed, so nothing was saved.",
    shown: "Published: the logo is on the home page now.",
    hidden: "Withdrawn: the logo is no longer on the site.",
    trashed: "Moved to the trash, and off the site. Restore brings it back, withdrawn.",
    untrashed: "Restored from the trash, withdrawn, at the end of the row.",
    moved: "Moved. The home page shows the new order now.",
    "not-moved": "Nothing moved: the logo is already at that end of the row.",
    reordered: "The new order is saved. The home page shows it now.",
  },
  pages: {
    add: "Add a logo",
    newTitle: "New client logo",
    description:
      "In this order in the row of logos on the home page. Only those whose permission covers this website are shown; with none published, the row is not shown.",
    empty: "No client logos yet",
    show: "Publish",
    hide: "Withdraw",
    shown: "Published",
    hidden: "Not published",
    trashQuestion: "Move this logo to the trash? It leaves the home page; Restore brings it back, withdrawn.",
  },
} as const satisfies OrderedKindDefinition<"clientLogo", "client-logos">;
