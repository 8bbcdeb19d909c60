import { readdirSync, readFileSync } from "node:fs";
import { foldUnchanged } from "#shared/admin/diff-parts.ts";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type {
  AdminPageName,
  AdminPagePropsOf,
  AdminViewer,
  ArticleEditorView,
  ProjectEditorView,
  MediaItemView,
  HistoryEntryView,
  RevisionView,
} from "#shared/admin/pages.ts";
import { articleFields, projectFields } from "#shared/admin/schemas.ts";
import type { AnalyticsReport } from "#shared/analytics.ts";
import { type ArticleDocument, PROJECT_CATEGORIES, type ProjectDocument } from "#shared/content/documents.ts";
import { htmlValidator } from "../../../test/html-validator.ts";
import { renderAdminPage } from "./entry-server.tsx";
import { TOOLS } from "./studio/markdown-tools.ts";
import { PrivacyPage } from "./pages/privacy/privacy-page.tsx";
import { type AdminScreens, adminScreens } from "./screens.tsx";

// Every screen of the registry rendered through the server entry, with the least each page needs:
// its title, its one h1, and HTML the site's validator accepts. Then the form kit at work: a refused
// form shows each problem at its field and keeps what was typed.

const admin: AdminViewer = {
  id: "a1",
  name: "Meera Shah",
  email: "meera@example.com",
  role: "admin",
  canPublish: false,
};
const staffer: AdminViewer = {
  id: "s1",
  name: "Nisha Rao",
  email: "nisha@example.com",
  role: "staff",
  canPublish: false,
};
const at = "2026-11-23T06:00:00.000Z";

const emptyReport: AnalyticsReport = {
  from: "2026-11-17",
  to: "2026-11-23",
  pendingDays: [],
  visitors: 0,
  pageviews: 0,
  enquiries: 0,
  subscriptions: 0,
  conversionRate: 0,
  daily: [],
  pages: [],
  sources: [],
  campaigns: [],
  funnel: [],
  devices: [],
};

// The content studio's samples: an article, its revisions, and its editor in each state.
const publisher: AdminViewer = { ...staffer, id: "s2", name: "Ravi Patel", canPublish: true };
const articleId = "0b6f1f0e-3a53-4d0c-9a53-0e6c2f7f2a11";
const sampleDocument: ArticleDocument = {
  slug: "grid-code-compliance",
  title: "Grid code compliance for solar plants",
  excerpt: "What a 50 MW plant must show before it connects.",
  category: "Grid Studies",
  imageUrl: "/images/blog/grid-code.svg",
  imageAlt: "A single-line diagram of a solar plant's connection",
  publishedAt: "2026-11-26T09:00:00.000Z",
  author: "meera-shah",
  body: "## Why it matters\n\nThe **grid code** sets the rules.\n\n- Voltage ride-through\n- Reactive power",
};
const revision = (number: number, extra: Partial<RevisionView> = {}): RevisionView => ({
  id: 100 + number,
  number,
  by: number % 2 ? "Meera Shah" : "Nisha Rao",
  at: `2026-11-2${number % 7}T0${number % 10}:00:00.000Z`,
  source: "studio",
  restoredFrom: null,
  published: false,
  ...extra,
});
const sampleEditor: ArticleEditorView = {
  id: articleId,
  status: "draft",
  document: sampleDocument,
  head: revision(3),
  publishedRevision: null,
  publicPath: null,
  publishedAt: null,
  trashedAt: null,
  canPublish: false,
  categories: ["Grid Studies", "Protection"],
  authors: [
    { slug: "meera-shah", name: "Meera Shah" },
    { slug: "ravi-patel", name: "Ravi Patel" },
  ],
  images: [
    { url: "/images/blog/grid-code.svg", label: "Grid code diagram" },
    { url: "/images/blog/relay.svg", label: "Protection relay" },
  ],
  checklist: { blockers: [], warnings: [] },
  shareLinks: [],
  shareRequestKey: "6f1d2c3b-4a5e-4f60-8a71-92b3c4d5e6f7",
  presence: [],
  bodyLimit: 1_048_576,
  unsaved: false,
};
const editorPage = (editor: Partial<ArticleEditorView>, extra: Partial<AdminPagePropsOf<"article-editor">> = {}) =>
  ({
    page: "article-editor",
    viewer: editor.canPublish ? publisher : staffer,
    editor: { ...sampleEditor, ...editor },
    ...extra,
  }) as const satisfies AdminPagePropsOf<"article-editor">;
const publishedEditor: Partial<ArticleEditorView> = {
  status: "published",
  canPublish: true,
  publishedRevision: revision(2, { published: true }),
  publicPath: "/blog/grid-code-compliance",
  publishedAt: "2026-11-20T04:30:00.000Z",
};
/** The editor in each state the issue names. */
const editorSamples = {
  new: editorPage({
    id: null,
    head: null,
    document: { ...sampleDocument, slug: "", title: "", excerpt: "", publishedAt: "", body: "" },
    checklist: { blockers: [], warnings: [] },
  }),
  draft: editorPage({
    checklist: {
      blockers: [{ field: "imageAlt", message: "Describe the cover image (alt text) for those who cannot see it." }],
      warnings: ["/services/unknown is not a page of the site."],
    },
    presence: ["Meera Shah", "you, in another window"],
  }),
  "draft, may publish": editorPage({ canPublish: true }),
  published: editorPage(publishedEditor),
  scheduled: editorPage({
    ...publishedEditor,
    status: "scheduled",
    publicPath: null,
    publishedAt: "2026-12-01T04:30:00.000Z",
  }),
  trashed: editorPage({ status: "trash", canPublish: true, trashedAt: "2026-11-25T10:00:00.000Z" }),
  conflict: editorPage(
    {
      head: revision(4),
      document: { ...sampleDocument, body: "My version of the text." },
      conflict: {
        current: revision(4),
        currentDocument: { ...sampleDocument, title: "Their title", body: "Their version of the text." },
      },
    },
    {
      form: {
        values: {
          ...sampleDocument,
          publishedAt: "2026-11-26T14:30",
          body: "My version of the text.",
          baseRevisionId: "103",
        },
        errors: {},
      },
    },
  ),
  "form errors": editorPage(
    {},
    {
      form: {
        values: {
          ...sampleDocument,
          title: "",
          slug: "Not A Slug",
          publishedAt: "2026-11-26T14:30",
          baseRevisionId: "x",
        },
        errors: {
          title: "Title is required",
          slug: "Slug must be lower-case letters and digits joined by hyphens, like grid-code-compliance",
          baseRevisionId: "The form did not say which revision it was made from: reload the page and try again.",
        },
      },
    },
  ),
  "issued share link": editorPage({
    issuedShareLink: "https://www.example.com/preview/abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ",
    shareLinks: [
      {
        id: "l1",
        createdBy: "Nisha Rao",
        createdAt: "2026-11-26T09:00:00.000Z",
        expiresAt: "2026-12-03T09:00:00.000Z",
        state: "active",
        mayRevoke: true,
      },
      {
        id: "l2",
        createdBy: "Meera Shah",
        createdAt: "2026-11-25T09:00:00.000Z",
        expiresAt: "2026-12-02T09:00:00.000Z",
        state: "active",
        mayRevoke: false,
      },
      {
        id: "l3",
        createdBy: "Nisha Rao",
        createdAt: "2026-11-10T09:00:00.000Z",
        expiresAt: "2026-11-17T09:00:00.000Z",
        state: "expired",
        mayRevoke: true,
      },
    ],
  }),
  "share link no longer shown": editorPage({ shareLinkGone: true }),
  "restored, published": editorPage({
    ...publishedEditor,
    canPublish: true,
    head: revision(5, { source: "restore", restoredFrom: 2 }),
    restoreOffer: { restoredFrom: 2, live: 4 },
  }),
  "restored, never published": editorPage({
    canPublish: true,
    head: revision(5, { source: "restore", restoredFrom: 2 }),
    restoreOffer: { restoredFrom: 2, live: null },
  }),
} satisfies Record<string, AdminPagePropsOf<"article-editor">>;
const TOOL_LABELS = TOOLS.map((tool) => tool.text);
const sampleRevisions = [
  revision(1, { source: "seed" }),
  revision(2, { published: true }),
  revision(3, { source: "autosave" }),
  revision(4, { source: "restore", restoredFrom: 1 }),
];

/** The revisions as History's entries: each with what it changed (decision 058). */
const sampleEntries: HistoryEntryView[] = sampleRevisions.map((one, index) => ({
  ...one,
  changes: ["First version", "Title changed; 120 words added; cover replaced", "Body: 3 words removed", "Slug changed"][
    index
  ]!,
  before: index === 0 ? null : sampleRevisions[index - 1]!.id,
}));

// Projects in the studio: the same editor with the spec's project fields.
const projectId = "7d1f4c2a-5b6e-4f70-8a91-b2c3d4e5f607";
const sampleProject: ProjectDocument = {
  slug: "kutch-solar-park",
  title: "Kutch solar park grid connection",
  description: "Load flow and short-circuit studies for a 300 MW solar park's 220 kV connection.",
  category: "Renewable Energy",
  imageUrl: "/images/projects/kutch-solar-park-grid-connection.svg",
  year: "2025",
  capacity: "300 MW",
  timeline: null,
};
const sampleProjectEditor: ProjectEditorView = {
  id: projectId,
  status: "draft",
  document: sampleProject,
  head: revision(3),
  publishedRevision: null,
  publicPath: null,
  publishedAt: null,
  trashedAt: null,
  canPublish: false,
  categories: PROJECT_CATEGORIES,
  images: [
    {
      url: "/images/projects/kutch-solar-park-grid-connection.svg",
      label: "Kutch solar park",
      thumbnail: "/media/0123456789abcdef/320.webp",
    },
    { url: "/images/projects/hospital-power-resilience.svg", label: "Hospital power", thumbnail: null },
  ],
  checklist: { blockers: [], warnings: [] },
  shareLinks: [],
  shareRequestKey: "6f1d2c3b-4a5e-4f60-8a71-92b3c4d5e6f7",
  presence: [],
  bodyLimit: 1_048_576,
  unsaved: false,
};
const projectPage = (editor: Partial<ProjectEditorView>, extra: Partial<AdminPagePropsOf<"project-editor">> = {}) =>
  ({
    page: "project-editor",
    viewer: editor.canPublish ? publisher : staffer,
    editor: { ...sampleProjectEditor, ...editor },
    ...extra,
  }) as const satisfies AdminPagePropsOf<"project-editor">;
/** The project editor in each state. */
const projectSamples = {
  new: projectPage({
    id: null,
    head: null,
    document: { ...sampleProject, slug: "", title: "", description: "", year: "", capacity: null },
  }),
  draft: projectPage({
    checklist: { blockers: [{ field: "year", message: "Give the year of the project." }], warnings: [] },
    presence: ["Meera Shah"],
  }),
  "draft, may publish": projectPage({ canPublish: true }),
  published: projectPage({
    status: "published",
    canPublish: true,
    publishedRevision: revision(2, { published: true }),
    publicPath: "/projects/kutch-solar-park",
    publishedAt: "2026-11-20T04:30:00.000Z",
  }),
  scheduled: projectPage({
    status: "scheduled",
    canPublish: true,
    publishedRevision: revision(3, { published: true }),
    publishedAt: "2026-12-01T04:30:00.000Z",
  }),
  trashed: projectPage({ status: "trash", canPublish: true, trashedAt: "2026-11-25T10:00:00.000Z" }),
  conflict: projectPage(
    {
      head: revision(4),
      document: { ...sampleProject, description: "My description." },
      conflict: { current: revision(4), currentDocument: { ...sampleProject, year: "2024", description: "Theirs." } },
    },
    {
      form: {
        values: {
          ...sampleProject,
          timeline: "",
          capacity: "300 MW",
          description: "My description.",
          baseRevisionId: "103",
        },
        errors: {},
      },
    },
  ),
  "form errors": projectPage(
    {},
    {
      form: {
        values: { ...sampleProject, timeline: "", capacity: "300 MW", year: "25", publishedAt: "2026-02-30T10:00" },
        errors: {
          year: "Year must be four digits, like 2024",
          publishedAt: "Publish date must be a date and time, like 2026-11-26T14:30",
        },
      },
    },
  ),
} satisfies Record<string, AdminPagePropsOf<"project-editor">>;
// The media library's samples: a picture with alt text used by two items, one needing alt text.
const samplePicture: MediaItemView = {
  id: "5d1c9f0e-3a53-4d0c-9a53-0e6c2f7f2a22",
  key: "0123456789abcdef",
  fileName: "kutch-switchyard.jpg",
  format: "jpeg",
  width: 4000,
  height: 3000,
  uploadedBytes: 5_218_524,
  storedBytes: 3_811_000,
  alt: "Engineers testing a 220 kV breaker at the Kutch solar park",
  decorative: false,
  thumbnail: "/media/0123456789abcdef/320.webp",
  reference: "/media/0123456789abcdef/original.jpg",
  sourcePath: null,
  createdAt: at,
  createdBy: "Meera Shah",
  usedIn: [
    { kind: "article", title: sampleDocument.title, trashed: false, href: `/admin/articles/${articleId}` },
    { kind: "project", title: "Kutch solar park", trashed: true, href: null },
  ],
};
const pictureNeedingAlt: MediaItemView = {
  ...samplePicture,
  id: "5d1c9f0e-3a53-4d0c-9a53-0e6c2f7f2a23",
  key: "fedcba9876543210",
  fileName: "team-photo.png",
  format: "png",
  width: 300,
  height: 200,
  alt: "",
  thumbnail: "/media/fedcba9876543210/300.webp",
  reference: "/media/fedcba9876543210/original.png",
  usedIn: [],
};

/** The least props of each page (a new page without props here does not compile), its title and its h1. */
const fixtures: { [Name in AdminPageName]: { props: AdminPagePropsOf<Name>; title: string; h1: string } } = {
  "sign-in": { props: { page: "sign-in", next: "/admin", mailConfigured: true }, title: "Sign in", h1: "Sign in" },
  invitation: {
    props: {
      page: "invitation",
      token: "t0k3n",
      invitee: { name: "Ravi Patel", email: "ravi@example.com", role: "staff" },
    },
    title: "Your invitation",
    h1: "Welcome, Ravi Patel",
  },
  "sign-in-link": {
    props: { page: "sign-in-link", token: "t0k3n", member: { name: "Ravi Patel", email: "ravi@example.com" } },
    title: "Sign in with a one-time link",
    h1: "Sign in with a one-time link",
  },
  "link-unusable": {
    props: { page: "link-unusable", kind: "invitation" },
    title: "Link cannot be used",
    h1: "This invitation cannot be used",
  },
  account: {
    props: { page: "account", viewer: admin, passkeys: [], sessions: [] },
    title: "Your account",
    h1: "Your account",
  },
  staff: {
    props: {
      page: "staff",
      viewer: admin,
      staff: [
        {
          id: admin.id,
          name: admin.name,
          email: admin.email,
          role: "admin",
          canPublish: false,
          createdAt: at,
          lastSignInAt: at,
          disabled: false,
          passkeys: 1,
          sessions: 1,
        },
      ],
    },
    title: "Staff",
    h1: "Staff",
  },
  audit: {
    props: {
      page: "audit",
      viewer: admin,
      events: [],
      filter: { action: "", actor: "", from: "", to: "" },
      actions: [],
      actors: [],
      pageNumber: 1,
      more: false,
    },
    title: "Audit log",
    h1: "Audit log",
  },
  inbox: {
    props: {
      page: "inbox",
      viewer: staffer,
      rows: [],
      filter: { status: "", owner: "", service: "", from: "", to: "", q: "" },
      counts: { new: 0, overdue: 0, unassigned: 0 },
      promise: { counted: 0, answered: 0, pending: 0, medianReplyMs: null },
      staff: [],
      pageNumber: 1,
      more: false,
    },
    title: "Enquiries",
    h1: "Enquiries",
  },
  enquiry: {
    props: {
      page: "enquiry",
      viewer: staffer,
      enquiry: {
        id: "e1",
        reference: "SGE-2026-0001",
        firstName: "Asha",
        lastName: "Mehta",
        email: "asha@example.com",
        company: null,
        service: null,
        message: "A study, please.",
        receivedAt: at,
        dueAt: at,
        status: "new",
        ownerId: null,
        owner: null,
        firstReplyAt: null,
        firstReplyBy: null,
        spamReason: null,
        attribution: null,
        noticeVersion: "2026-11-29",
        version: 1,
        reply: { kind: "due", label: "Due in 24 h" },
      },
      notes: [],
      mail: [],
      staff: [],
    },
    title: "Enquiry SGE-2026-0001",
    h1: "Asha Mehta",
  },
  subscribers: {
    props: {
      page: "subscribers",
      viewer: staffer,
      subscribers: [],
      q: "",
      state: "",
      counts: { pending: 0, confirmed: 0, unsubscribed: 0, bouncing: 0 },
      pageNumber: 1,
      more: false,
    },
    title: "Subscribers",
    h1: "Subscribers",
  },
  privacy: {
    props: { page: "privacy", viewer: admin, retention: { spamDays: 30, closedEnquiryDays: 730, analyticsDays: 90 } },
    title: "Privacy",
    h1: "Privacy",
  },
  analytics: {
    props: {
      page: "analytics",
      viewer: staffer,
      period: "7d",
      report: emptyReport,
      searchMisses: [{ weekStart: "2026-11-16", queries: [{ query: "ieee 2800", count: 3 }] }],
      excluded: false,
      enabled: true,
    },
    title: "Analytics",
    h1: "Analytics",
  },
  articles: {
    props: {
      page: "articles",
      viewer: staffer,
      rows: [
        {
          id: articleId,
          title: sampleDocument.title,
          status: "published",
          category: "Grid Studies",
          authorName: "Meera Shah",
          changedAt: at,
          changedBy: "Meera Shah",
          publicPath: "/blog/grid-code-compliance",
          publishedAt: at,
        },
        {
          id: "1c0e7f3a-0d7b-4b7e-8d7e-2f0e9c1d2b33",
          title: "",
          status: "scheduled",
          category: "",
          authorName: null,
          changedAt: at,
          changedBy: "Nisha Rao",
          publicPath: null,
          publishedAt: "2026-12-01T04:30:00.000Z",
        },
      ],
      filter: { q: "", status: "" },
      counts: { draft: 3, scheduled: 1, published: 12, unpublished: 2, trash: 4 },
      pageNumber: 1,
      more: false,
    },
    title: "Articles",
    h1: "Articles",
  },
  "article-editor": { props: editorSamples.draft, title: sampleDocument.title, h1: sampleDocument.title },
  "article-history": {
    props: {
      page: "article-history",
      viewer: staffer,
      item: { id: articleId, title: sampleDocument.title, status: "published" },
      revisions: sampleEntries,
      headId: 104,
      pageNumber: 1,
      more: false,
    },
    title: `History of ${sampleDocument.title}`,
    h1: `History of ${sampleDocument.title}`,
  },
  "article-compare": {
    props: {
      page: "article-compare",
      viewer: staffer,
      item: { id: articleId, title: sampleDocument.title, status: "published" },
      from: sampleRevisions[1]!,
      to: sampleRevisions[3]!,
      revisions: sampleRevisions,
      headId: 104,
      fields: [
        {
          field: "title",
          label: "Title",
          changed: true,
          parts: foldUnchanged([
            { kind: "removed", text: "Grid code compliance" },
            { kind: "added", text: sampleDocument.title },
          ]),
        },
        {
          field: "slug",
          label: "Slug",
          changed: false,
          parts: foldUnchanged([{ kind: "same", text: sampleDocument.slug }]),
        },
        {
          field: "body",
          label: "Body",
          changed: true,
          parts: foldUnchanged([
            { kind: "same", text: "## Why it matters" },
            { kind: "same", text: "" },
            ...Array.from({ length: 12 }, (_, index) => ({
              kind: "same" as const,
              text: `Unchanged line ${index + 1}`,
            })),
            { kind: "removed", text: "The grid code sets rules." },
            { kind: "added", text: "The **grid code** sets the rules." },
            { kind: "same", text: "" },
            { kind: "same", text: "- Voltage ride-through" },
          ]),
        },
      ],
    },
    title: `Compare revisions of ${sampleDocument.title}`,
    h1: `Compare revisions of ${sampleDocument.title}`,
  },
  projects: {
    props: {
      page: "projects",
      viewer: staffer,
      rows: [
        {
          id: projectId,
          title: sampleProject.title,
          status: "published",
          category: "Renewable Energy",
          year: "2025",
          changedAt: at,
          changedBy: "Meera Shah",
          publicPath: "/projects/kutch-solar-park",
          publishedAt: at,
        },
      ],
      filter: { q: "", status: "" },
      counts: { draft: 1, scheduled: 0, published: 8, unpublished: 0, trash: 0 },
      pageNumber: 1,
      more: false,
    },
    title: "Projects",
    h1: "Projects",
  },
  "project-editor": { props: projectSamples.draft, title: sampleProject.title, h1: sampleProject.title },
  "project-history": {
    props: {
      page: "project-history",
      viewer: staffer,
      item: { id: projectId, title: sampleProject.title, status: "published" },
      revisions: sampleEntries,
      headId: 104,
      pageNumber: 2,
      more: true,
    },
    title: `History of ${sampleProject.title}`,
    h1: `History of ${sampleProject.title}`,
  },
  "project-compare": {
    props: {
      page: "project-compare",
      viewer: staffer,
      item: { id: projectId, title: sampleProject.title, status: "published" },
      from: sampleRevisions[1]!,
      to: sampleRevisions[3]!,
      revisions: sampleRevisions,
      headId: 104,
      fields: [
        {
          field: "year",
          label: "Year",
          changed: true,
          parts: foldUnchanged([
            { kind: "removed", text: "2024" },
            { kind: "added", text: "2025" },
          ]),
        },
        {
          field: "description",
          label: "Description",
          changed: false,
          parts: foldUnchanged([{ kind: "same", text: "Studies." }]),
        },
      ],
    },
    title: `Compare revisions of ${sampleProject.title}`,
    h1: `Compare revisions of ${sampleProject.title}`,
  },
  // The team.
  team: {
    props: {
      page: "team",
      viewer: publisher,
      canChange: true,
      rows: [
        {
          id: "6a0c3d9e-1f2b-4c5d-8e7f-9a0b1c2d3e4f",
          name: "Dr. Rajesh Mehta",
          title: "Managing Director & Principal Consultant",
          imageUrl: "/images/team/rajesh-mehta.svg",
          thumbnail: "/images/team/rajesh-mehta.svg",
          status: "shown",
          position: 1,
          headRevisionId: 11,
        },
        {
          id: "7b1d4eaf-2a3c-4d6e-9f80-ab1c2d3e4f50",
          name: "Meera Iyer",
          title: "Senior Engineer, Substation Automation",
          imageUrl: "/images/team/meera-iyer.svg",
          thumbnail: null,
          status: "hidden",
          position: 2,
          headRevisionId: 12,
        },
      ],
      trash: [
        {
          id: "8c2e5fb0-3b4d-4e7f-a091-bc2d3e4f5061",
          name: "Anil Patel",
          title: "Head of Protection & Safety",
          trashedAt: at,
          trashedBy: "Ravi Patel",
          headRevisionId: 13,
        },
      ],
      focus: { id: "6a0c3d9e-1f2b-4c5d-8e7f-9a0b1c2d3e4f", direction: "up" },
    },
    title: "Team",
    h1: "Team",
  },
  "ordered-list": {
    props: {
      page: "ordered-list",
      kind: "testimonials",
      viewer: publisher,
      canChange: true,
      rows: [
        {
          id: "6a0c3d9e-1f2b-4c5d-8e7f-9a0b1c2d3e41",
          name: "Anita Shah, Gujarat Energy Transmission",
          detail: "Their protection study found what three audits missed.",
          thumbnail: null,
          status: "shown",
          position: 1,
          headRevisionId: 21,
        },
      ],
      trash: [],
    },
    title: "Testimonials",
    h1: "Testimonials",
  },
  "ordered-item": {
    props: {
      page: "ordered-item",
      kind: "client-logos",
      viewer: publisher,
      item: {
        id: null,
        name: "",
        status: "hidden",
        fields: {
          organisation: "",
          logoUrl: "",
          permissionBy: "",
          permissionOn: "",
          permissionUses: [],
          permissionReview: "",
        },
        head: null,
        position: null,
        pictures: [],
        options: {},
        blockers: [],
        trashedAt: null,
      },
    },
    title: "New client logo",
    h1: "New client logo",
  },
  "team-member": {
    props: {
      page: "team-member",
      viewer: publisher,
      member: {
        id: "6a0c3d9e-1f2b-4c5d-8e7f-9a0b1c2d3e4f",
        slug: "rajesh-mehta",
        status: "shown",
        fields: {
          name: "Dr. Rajesh Mehta",
          title: "Managing Director & Principal Consultant",
          expertise: "Transmission planning and grid code compliance",
          imageUrl: "/images/team/rajesh-mehta.svg",
          email: "rajesh.mehta@example.com",
          linkedinUrl: "",
        },
        head: revision(3),
        position: 1,
        photos: [
          {
            url: "/images/team/rajesh-mehta.svg",
            label: "Rajesh mehta (team)",
            thumbnail: "/images/team/rajesh-mehta.svg",
          },
        ],
        trashedAt: null,
        conflict: {
          current: revision(4),
          fields: {
            name: "Dr. Rajesh Mehta",
            title: "Managing Director",
            expertise: "Transmission planning and grid code compliance",
            imageUrl: "/images/team/rajesh-mehta.svg",
            email: "rajesh.mehta@example.com",
            linkedinUrl: "https://www.linkedin.com/in/rajesh-mehta",
          },
        },
      },
    },
    title: "Dr. Rajesh Mehta",
    h1: "Dr. Rajesh Mehta",
  },
  // The media library.
  media: {
    props: {
      page: "media",
      viewer: staffer,
      show: "all",
      items: [samplePicture, pictureNeedingAlt],
      total: 2,
      needsAlt: 1,
      canDelete: false,
      pageNumber: 1,
      more: false,
    },
    title: "Media",
    h1: "Media",
  },
  "media-item": {
    props: { page: "media-item", viewer: admin, item: samplePicture, canDelete: true },
    title: "kutch-switchyard.jpg",
    h1: "kutch-switchyard.jpg",
  },
  // Newsletters.
  newsletters: {
    props: {
      page: "newsletters",
      viewer: admin,
      subscribers: 3,
      rows: [
        {
          id: "7b0c3d4e-1f2a-4b5c-8d6e-0f1a2b3c4d5e",
          subject: "Insights for November",
          status: "sent",
          createdAt: "2026-11-20T05:00:00.000Z",
          sentAt: "2026-11-21T05:00:00.000Z",
          counts: { recipients: 3, queued: 1, sent: 2, failed: 0 },
        },
      ],
    },
    title: "Newsletters",
    h1: "Newsletters",
  },
  newsletter: {
    props: {
      page: "newsletter",
      viewer: staffer,
      newsletter: {
        id: "7b0c3d4e-1f2a-4b5c-8d6e-0f1a2b3c4d5e",
        status: "draft",
        version: 2,
        campaign: "2026-11-insights-for-november",
        fields: { subject: "Insights for November", introduction: "Two **new** studies.", articleIds: [articleId] },
        articles: [{ id: articleId, title: sampleDocument.title, publishedAt: "2026-11-10T05:00:00.000Z" }],
        updatedAt: "2026-11-20T05:00:00.000Z",
        updatedBy: "Meera Shah",
        preview: { subject: "Insights for November", text: "Insights for November\n\nTwo new studies." },
        subscribers: 3,
        mailConfigured: true,
        canSend: false,
        sent: null,
      },
    },
    title: "Insights for November",
    h1: "Insights for November",
  },
  "newsletter-send": {
    props: {
      page: "newsletter-send",
      viewer: publisher,
      send: {
        id: "7b0c3d4e-1f2a-4b5c-8d6e-0f1a2b3c4d5e",
        subject: "Insights for November",
        version: 2,
        articles: [sampleDocument.title],
        recipients: 3,
        blocked: null,
      },
    },
    title: "Send to 3 subscribers?",
    h1: "Send to 3 subscribers?",
  },
  error: {
    props: { page: "error", status: 404, title: "Not found", message: "There is no such page." },
    title: "Not found",
    h1: "Not found",
  },
  searchSynonyms: {
    props: {
      page: "searchSynonyms",
      viewer: admin,
      groups: [{ id: "g1", terms: ["LVRT", "low-voltage ride-through"], createdByLabel: "seed", createdAt: at }],
      maxGroups: 200,
    },
    title: "Search synonyms",
    h1: "Search synonyms",
  },
  health: {
    props: {
      page: "health",
      viewer: admin,
      health: {
        checkedAt: at,
        backups: {
          state: "red",
          reasons: ["The last backup's restore drill failed: 3 tables differ."],
          last: {
            trigger: "scheduled",
            requestedBy: "web-1",
            startedAt: "2026-11-22T21:00:00.000Z",
            finishedAt: "2026-11-22T21:02:00.000Z",
            status: "done",
            bytes: 14_200_000,
            error: null,
            drill: { status: "failed", at: "2026-11-22T21:05:00.000Z", detail: "3 tables differ" },
            copy: { status: null, at: null, detail: null },
          },
          running: null,
          lastVerifiedAt: "2026-11-21T21:02:00.000Z",
          offsite: false,
          nextScheduledAt: "2026-11-23T21:00:00.000Z",
        },
        mail: {
          state: "ok",
          reasons: [],
          configured: true,
          oldestWaiting: null,
          waiting: 0,
          failedLastDay: 0,
          retrying: 0,
          lastFailure: null,
          lastSentAt: "2026-11-23T05:00:00.000Z",
        },
        publishing: {
          state: "ok",
          reasons: [],
          late: [],
          scheduled: 1,
          next: { kind: "article", title: sampleDocument.title, at: sampleDocument.publishedAt, href: "/admin/x" },
          clockOffsetMs: 0,
        },
        storage: {
          state: "ok",
          reasons: [],
          databaseBytes: 48_000_000,
          database: "embedded",
          disks: [
            {
              label: "the backups (BACKUP_DIR)",
              path: "/srv/backups",
              missing: false,
              freeBytes: 5e10,
              totalBytes: 1e11,
            },
          ],
        },
      },
    },
    title: "Health",
    h1: "Health",
  },
};

/** The page as the server sends it (src/server/render/admin-renderer.ts), minus the assets. */
const documentOf = (title: string, body: string) =>
  `<!doctype html><html lang="en-IN"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

async function problems(html: string): Promise<string[]> {
  const report = await htmlValidator.validateString(html, "admin-page.html");
  return report.results.flatMap((entry) =>
    entry.messages.map((message) => `${message.ruleId}: ${message.message} (${message.selector})`),
  );
}

const h1s = (html: string) => [...html.matchAll(/<h1[^>]*>(.*?)<\/h1>/g)].map((match) => match[1]);

/** The opening tag of the element with this id. */
function element(html: string, id: string): string {
  const tag = new RegExp(`<[a-z]+ [^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0];
  if (!tag) throw new Error(`no element with id ${id}`);
  return tag;
}
const attribute = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
/** The forms of a page, each as its method and action (React writes attributes in an order of its own). */
const forms = (html: string) =>
  [...html.matchAll(/<form [^>]*>/g)].map(
    (match) => `${attribute(match[0], "method")} ${attribute(match[0], "action")}`,
  );

describe("the back office's screens", () => {
  it("has a screen for every page of the contract, and a fixture here for each", () => {
    expect(Object.keys(adminScreens).sort()).toEqual(Object.keys(fixtures).sort());
  });

  it.each(Object.keys(fixtures) as AdminPageName[])(
    "renders %s with its title, one h1 and valid HTML",
    async (name) => {
      const { props, title, h1 } = fixtures[name];
      const rendered = renderAdminPage(props);
      expect(rendered.title).toBe(title);
      expect(h1s(rendered.bodyHtml)).toEqual([h1]);
      expect(await problems(documentOf(rendered.title, rendered.bodyHtml))).toEqual([]);
    },
  );

  it("the registry's type refuses a missing page and a screen with another page's props", () => {
    const { staff: _staff, ...withoutStaff } = adminScreens;
    // @ts-expect-error: the staff page has no screen.
    const incomplete: AdminScreens = withoutStaff;
    // @ts-expect-error: the privacy page's component cannot render the staff page's props.
    const mismatched: AdminScreens = { ...adminScreens, staff: { title: () => "Staff", Page: PrivacyPage } };
    expect([incomplete, mismatched]).toHaveLength(2);
  });
});

describe("a refused form", () => {
  const staffPage = fixtures.staff.props;

  it("shows each problem at its field, tied to it, and keeps what was typed (escaped)", async () => {
    const { bodyHtml, title } = renderAdminPage({
      ...staffPage,
      formName: "invite",
      form: { values: { name: "Ravi <b>", email: "x" }, errors: { email: "Enter a valid email address" } },
    });
    const email = element(bodyHtml, "invite-email");
    expect(attribute(email, "aria-invalid")).toBe("true");
    expect(attribute(email, "value")).toBe("x");
    // The problem is said right after the field, and the field names it as its description.
    const problem = /<p id="([^"]+)"[^>]*>Enter a valid email address<\/p>/.exec(bodyHtml);
    expect(problem).not.toBeNull();
    expect(attribute(email, "aria-describedby")!.split(" ")).toContain(problem![1]);
    expect(bodyHtml.indexOf(email)).toBeLessThan(problem!.index);
    expect(problem!.index).toBeLessThan(bodyHtml.indexOf('id="invite-role"'));

    const name = element(bodyHtml, "invite-name");
    expect(attribute(name, "value")).toBe("Ravi &lt;b&gt;");
    expect(attribute(name, "aria-invalid")).toBeUndefined();
    expect(attribute(name, "aria-describedby")).toBeUndefined();
    expect(bodyHtml).not.toContain("Ravi <b>");
    expect(await problems(documentOf(title, bodyHtml))).toEqual([]);
  });

  it("belongs to the form it names: the invite form's problem is not shown at a member's role form", () => {
    const other = {
      ...staffPage.staff[0]!,
      id: "s2",
      name: "Nisha Rao",
      email: "nisha@example.com",
      role: "staff" as const,
    };
    const third = { ...other, id: "s3", name: "Kiran Das", email: "kiran@example.com" };
    const page = { ...staffPage, staff: [...staffPage.staff, other, third] };

    const role = renderAdminPage({
      ...page,
      formName: "role",
      form: { values: { id: "s3", role: "owner" }, errors: { role: "Choose a role: admin or staff." } },
    }).bodyHtml;
    expect(attribute(element(role, "role-s3"), "aria-invalid")).toBe("true");
    expect(attribute(element(role, "role-s2"), "aria-invalid")).toBeUndefined();
    expect(role).not.toContain('id="role-a1"');
    expect(attribute(element(role, "invite-role"), "aria-invalid")).toBeUndefined();
    expect(role.match(/Choose a role: admin or staff\./g)).toHaveLength(1);

    const invite = renderAdminPage({
      ...page,
      formName: "invite",
      form: { values: { role: "owner" }, errors: { role: "Choose a role: admin or staff." } },
    }).bodyHtml;
    expect(attribute(element(invite, "invite-role"), "aria-invalid")).toBe("true");
    expect(attribute(element(invite, "role-s2"), "aria-invalid")).toBeUndefined();
    expect(attribute(element(invite, "role-s3"), "aria-invalid")).toBeUndefined();
  });
});

describe("the staff page", () => {
  it("offers every other member a role change that posts to their own address", () => {
    const other = { ...fixtures.staff.props.staff[0]!, id: "s 2/x", name: "Nisha Rao", role: "staff" as const };
    const html = renderAdminPage({ ...fixtures.staff.props, staff: [...fixtures.staff.props.staff, other] }).bodyHtml;
    expect(forms(html).filter((form) => form.endsWith("/role"))).toEqual(["post /admin/staff/s%202%2Fx/role"]);
    expect(html).toContain('<input type="hidden" name="id" value="s 2/x"/>');
    expect(html).toContain("Change role");
    expect(html).toContain("it does not change their role.");
  });
});

describe("the account page", () => {
  it("says how each session began with the right article: a passkey, an invitation, a one-time link", () => {
    const at = "2026-11-29T04:30:00.000Z";
    const session = (method: string, current = false) => ({
      current,
      device: "Chrome on Linux",
      method,
      createdAt: at,
      lastSeenAt: at,
    });
    const html = renderAdminPage({
      ...fixtures.account.props,
      sessions: [session("passkey", true), session("invitation"), session("sign-in-link")],
    }).bodyHtml.replace(/<!-- -->/g, "");
    expect(html).toMatch(/with a passkey;/);
    expect(html).toMatch(/with an invitation;/);
    expect(html).toMatch(/with a one-time link;/);
    expect(html).not.toContain("a invitation");
  });
});

describe("an enquiry's page", () => {
  it("says which version of the privacy notice its form showed, or that it was sent before versions", () => {
    const { props } = fixtures.enquiry;
    expect(renderAdminPage(props).bodyHtml).toContain("Privacy notice shown</dt><dd>Version 2026-11-29</dd>");
    const older = { ...props, enquiry: { ...props.enquiry, noticeVersion: null } };
    expect(renderAdminPage(older).bodyHtml).toContain("Before versions (not recorded)");
  });
});

describe("the privacy page", () => {
  const privacy = fixtures.privacy.props;

  it("looks an address up by POST, so it is never in a URL, and offers the erasure only with a preview", () => {
    const blank = renderAdminPage(privacy).bodyHtml;
    expect(forms(blank)).toEqual(["post /admin/sign-out", "post /admin/privacy/preview"]);
    expect(blank).toContain("deleted 90 days after");

    const email = "asha+x@example.com";
    const preview = renderAdminPage({
      ...privacy,
      email,
      preview: { enquiries: 2, notes: 1, mail: 3, subscriptions: 1, newsletterMail: 2 },
    }).bodyHtml;
    expect(preview).toContain("Enquiries: 2");
    expect(preview).toContain("Newsletter mail: 2");
    expect(forms(preview)).toEqual([
      "post /admin/sign-out",
      "post /admin/privacy/preview",
      "post /admin/privacy/erase",
    ]);
    expect(preview).toContain(`<input type="hidden" name="confirm" value="${email}"/>`);
    expect([...preview.matchAll(/href="([^"]*)"/g)].map((match) => match[1]).join(" ")).not.toContain("asha");
  });
});

describe("the navigation", () => {
  it("shows each person the screens their role may use, and marks the current one", () => {
    const forStaff = renderAdminPage(fixtures.inbox.props).bodyHtml;
    const nav = (html: string) => /<nav aria-label="Back office".*?<\/nav>/.exec(html)![0];
    expect([...nav(forStaff).matchAll(/>([^<>]+)<\/a>/g)].map((match) => match[1])).toEqual([
      "Enquiries",
      "Articles",
      "Projects",
      "Team",
      "Testimonials",
      "Client logos",
      "Media",
      "Subscribers",
      "Newsletters",
      "Analytics",
    ]);
    expect(nav(forStaff)).toContain('<a href="/admin" aria-current="page"');
    const forAdmin = renderAdminPage({ ...fixtures.inbox.props, viewer: admin }).bodyHtml;
    expect([...nav(forAdmin).matchAll(/>([^<>]+)<\/a>/g)].map((match) => match[1])).toEqual([
      "Enquiries",
      "Articles",
      "Projects",
      "Team",
      "Testimonials",
      "Client logos",
      "Media",
      "Subscribers",
      "Newsletters",
      "Analytics",
      "Staff",
      "Audit log",
      "Privacy",
      "Search synonyms",
      "Health",
    ]);
  });
});

describe("the pager", () => {
  it("keeps the list's filter in its links", () => {
    const html = renderAdminPage({
      ...fixtures.inbox.props,
      filter: { ...fixtures.inbox.props.filter, status: "new", q: "solar plant" },
      pageNumber: 2,
      more: true,
    }).bodyHtml;
    expect(html).toContain('<a href="/admin?status=new&amp;q=solar+plant" class="admin-button-secondary">Newer</a>');
    expect(html).toContain(
      '<a href="/admin?status=new&amp;q=solar+plant&amp;page=3" class="admin-button-secondary">Older</a>',
    );
  });
});

describe("the back office's own files", () => {
  it("write no back-office path by hand: every link and action comes from the route table", () => {
    const folder = fileURLToPath(new URL(".", import.meta.url));
    const files = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter(
      (file) => /\.tsx?$/.test(file) && !file.endsWith(".test.tsx"),
    );
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((file) => {
      const source = readFileSync(path.join(folder, file), "utf8");
      return /["'`]\/admin/.test(source) || /\badminPaths\b|\badminNav\b/.test(source);
    });
    expect(offenders).toEqual([]);
  });
});

describe("the content studio's pages", () => {
  const html = (props: Parameters<typeof renderAdminPage>[0]) => renderAdminPage(props).bodyHtml;
  /** The names of the controls inside the article's form (hidden ones too), in order. */
  const fieldNames = (page: string) => {
    const form = /<(?:form|div) [^>]*id="article-form"[^>]*>([\s\S]*?)<\/fieldset>/.exec(page)![1]!;
    return [...form.matchAll(/<(?:input|textarea|select) [^>]*>/g)]
      .map((match) => attribute(match[0], "name"))
      .filter((name): name is string => name !== undefined);
  };
  /** Submit buttons of a page: their text, formaction and name=value. */
  const buttons = (page: string) =>
    [...page.matchAll(/<button ([^>]*)>([\s\S]*?)<\/button>/g)].map((match) => ({
      text: match[2]!.replace(/<[^>]+>/g, "").trim(),
      formAction: attribute(match[1]!, "formAction"),
      value: attribute(match[1]!, "name") ? `${attribute(match[1]!, "name")}=${attribute(match[1]!, "value")}` : "",
    }));
  const buttonTexts = (page: string) =>
    buttons(page)
      .map((button) => button.text)
      .filter((text) => !TOOL_LABELS.includes(text.replace("&lt;", "<").replace("&gt;", ">")));
  const labelOf = (page: string, id: string) =>
    new RegExp(`<label [^>]*for="${id}"[^>]*>([^<]*)</label>`).exec(page)?.[1];

  it.each(Object.entries(editorSamples))("renders the editor (%s) with one h1 and valid HTML", async (_, props) => {
    const rendered = renderAdminPage(props);
    expect(h1s(rendered.bodyHtml)).toHaveLength(1);
    expect(await problems(documentOf(rendered.title, rendered.bodyHtml))).toEqual([]);
  });

  it("the editor's form has exactly the fields of articleFields and the base revision, labelled as the issue says", () => {
    const page = html(editorSamples.draft);
    const names = fieldNames(page);
    expect([...names].sort()).toEqual([...Object.keys(articleFields), "baseRevisionId"].sort());
    expect(forms(page)).toContain(`post /admin/articles/${articleId}`);
    expect(element(page, "article-form")).toContain('data-studio-editor="article"');
    const labels = Object.keys(articleFields).map((name) => labelOf(page, `article-${name}`));
    expect(labels).toEqual([
      "Title",
      "Slug",
      "Excerpt",
      "Category",
      "Author",
      "Cover image",
      "Alt text",
      "Publish date",
      "Body",
    ]);
    // The publish date in India time, in a datetime-local field that says so.
    const date = element(page, "article-publishedAt");
    expect(attribute(date, "type")).toBe("datetime-local");
    expect(attribute(date, "value")).toBe("2026-11-26T14:30");
    expect(page).toContain("India time (IST)");
    // Category suggests the categories in use; Author offers the team and none; the cover its pictures.
    expect(attribute(element(page, "article-category"), "list")).toBe("article-categories");
    expect(page).toContain('<option value="Protection"></option>');
    expect(page).toMatch(/<option value="" selected="">None<\/option>|<option value="">None<\/option>/);
    expect(page).toContain('<option value="meera-shah" selected="">Meera Shah</option>');
    expect(page).toContain('src="/images/blog/grid-code.svg"');
    // The body is a Markdown textarea with its (script-shown) toolbar and preview styled as the article page.
    expect(element(page, "article-body")).toMatch(/^<textarea /);
    expect(page).toContain('role="toolbar" aria-label="Formatting" aria-controls="article-body"');
    expect(page).toContain('aria-keyshortcuts="Control+B Meta+B"');
    expect(page).toContain('class="article-body studio-preview"');
  });

  it("a new article posts to create, has no base, and offers no publishing until it exists", () => {
    const page = html(editorSamples.new);
    expect(fieldNames(page).sort()).toEqual(Object.keys(articleFields).sort());
    expect(forms(page)).toEqual(["post /admin/sign-out", "post /admin/articles"]);
    // "Choose picture" and the toolbar (its table tools, Picture and the Markdown view's toggle)
    // are shown by the script.
    expect(buttonTexts(page)).toEqual([
      "Sign out",
      "Choose picture",
      "Write",
      "Preview",
      "Add row",
      "Remove row",
      "Add column",
      "Remove column",
      "Remove table",
      "Picture",
      "Markdown",
      "Save draft",
    ]);
    expect(h1s(page)).toEqual(["New article"]);
  });

  it("offers publishing to those who may: Publish now, Schedule, Unpublish and Move to trash", () => {
    const staffPage = html(editorSamples.draft);
    expect(buttonTexts(staffPage)).not.toContain("Publish");
    expect(buttonTexts(staffPage)).not.toContain("Move to trash");
    expect(staffPage).toContain("Publishing needs an admin");

    const draft = buttons(html(editorSamples["draft, may publish"]));
    const publish = `/admin/articles/${articleId}/publish`;
    expect(draft).toContainEqual({ text: "Publish", formAction: publish, value: "when=now" });
    expect(draft).toContainEqual({ text: "Schedule", formAction: publish, value: "when=scheduled" });
    expect(draft.map((button) => button.text)).not.toContain("Unpublish");
    expect(draft.map((button) => button.text)).toContain("Move to trash");

    const published = html(editorSamples.published);
    expect(buttonTexts(published)).toContain("Unpublish");
    // A public article's change is published, never scheduled (part 1).
    expect(buttonTexts(published)).not.toContain("Schedule");
    expect(published).toContain(
      '<a href="/blog/grid-code-compliance" class="admin-link">/blog/grid-code-compliance</a>',
    );
    expect(published).toContain("Visitors read revision 2");
    // The small forms that change the article carry the revision shown, and ask before they go.
    for (const action of ["unpublish", "trash"]) {
      const form = new RegExp(
        `<form [^>]*action="/admin/articles/${articleId}/${action}"[^>]*>([\\s\\S]*?)</form>`,
      ).exec(published)!;
      expect(form[0]).toContain("data-confirm=");
      expect(form[1]).toContain('name="baseRevisionId" value="103"');
    }

    const scheduled = html(editorSamples.scheduled);
    expect(scheduled).toContain("Goes public 1 Dec 2026, 10:00 IST");
    expect(buttonTexts(scheduled)).toEqual(expect.arrayContaining(["Publish", "Schedule", "Unpublish"]));
  });

  it("Preview and Share preview post to their routes; Preview opens a new tab", () => {
    const page = html(editorSamples.draft);
    expect(forms(page)).toEqual(
      expect.arrayContaining([
        `post /admin/articles/${articleId}/preview`,
        `post /admin/articles/${articleId}/share-links`,
      ]),
    );
    expect(/<form [^>]*action="[^"]*\/preview"[^>]*>/.exec(page)![0]).toContain('target="_blank"');
    expect(page).toContain(`<a href="/admin/articles/${articleId}/history" class="admin-button-secondary">History</a>`);
  });

  it("shows an issued share link once, selectable, and Revoke only on the active links one may revoke", () => {
    const page = html(editorSamples["issued share link"]);
    const link = element(page, "issued-share-link");
    expect(attribute(link, "value")).toMatch(/^https:\/\/www\.example\.com\/preview\//);
    expect(link).toContain("readOnly");
    expect(link).toContain("data-select-on-focus");
    expect(forms(page).filter((form) => form.endsWith("/revoke"))).toEqual([
      `post /admin/articles/${articleId}/share-links/l1/revoke`,
    ]);
    expect(page).toContain("Expired</span>: made by Nisha Rao");
    expect(html(editorSamples.draft)).not.toContain("issued-share-link");
  });

  it("shows the share link where the button is (#share-link), with a Copy button the script reveals and a live region", () => {
    const page = html(editorSamples["issued share link"]);
    const section = /<section [^>]*data-studio-share[^>]*>([\s\S]*?)<\/section>/.exec(page)![1]!;
    // Right after the buttons, before the hints and the list.
    expect(section.indexOf('id="share-link"')).toBeGreaterThan(section.indexOf(">Share preview</button>"));
    expect(section.indexOf('id="share-link"')).toBeLessThan(section.indexOf('id="preview-hint"'));
    const copy = /<button [^>]*data-studio-copy="issued-share-link"[^>]*>Copy<\/button>/.exec(section)?.[0] ?? "";
    expect(copy).toContain('type="button"');
    expect(attribute(copy, "class")).toContain("hidden");
    expect(section).toMatch(/<p [^>]*aria-live="polite"[^>]*data-studio-copy-status/);
    expect(section).toContain("Shown here for 10 minutes, in this browser only");
    // The form carries its key, so sending it twice makes one link.
    expect(section).toContain('<input type="hidden" name="requestKey" value="6f1d2c3b-4a5e-4f60-8a71-92b3c4d5e6f7"/>');
    const gone = html(editorSamples["share link no longer shown"]);
    expect(gone).toContain("That share link is no longer shown here");
    expect(element(gone, "share-link")).toContain('tabindex="-1"');
    expect(gone).not.toContain("issued-share-link");
  });

  it("after a restore, says what visitors read and offers Publish there; for a draft, says the restored text is the draft", () => {
    const published = html(editorSamples["restored, published"]);
    const offer = /<div [^>]*data-studio-restore-offer[^>]*>([\s\S]*?)<\/div>/.exec(published)![1]!;
    expect(offer).toContain(
      "Restored revision 2 as the draft. The live page still shows revision 4: press Publish to make this version live.",
    );
    const button = /<button [^>]*>Publish<\/button>/.exec(offer)![0];
    expect(attribute(button, "form")).toBe("article-form");
    expect(attribute(button, "formAction")).toBe(`/admin/articles/${articleId}/publish`);
    expect(attribute(button, "value")).toBe("now");
    const draft = html(editorSamples["restored, never published"]);
    const said = /<div [^>]*data-studio-restore-offer[^>]*>([\s\S]*?)<\/div>/.exec(draft)![1]!;
    expect(said).toContain(
      "Restored revision 2 as the draft. The article is not on the site: the restored text is the draft, and stays a draft until it is published.",
    );
    expect(said).not.toContain("<button");
    expect(html(editorSamples.draft)).not.toContain("data-studio-restore-offer");
  });

  it("says who else is editing", () => {
    const page = html(editorSamples.draft);
    expect(page).toContain("Meera Shah is editing this. You have it open in another window too.");
  });

  it("shows the publish checklist's blockers at their fields, and the warnings", () => {
    const page = html(editorSamples.draft);
    expect(page).toContain(
      '<a href="#article-imageAlt" class="underline underline-offset-2">Describe the cover image (alt text) for those who cannot see it.</a>',
    );
    expect(page).toContain("/services/unknown is not a page of the site.");
    expect(html(editorSamples["draft, may publish"])).toContain("Nothing is missing.");
  });

  it("shows a refused form's problems at their fields, keeps what was typed, and names the whole-form problem", async () => {
    const rendered = renderAdminPage(editorSamples["form errors"]);
    const page = rendered.bodyHtml;
    const title = element(page, "article-title");
    expect(attribute(title, "aria-invalid")).toBe("true");
    expect(attribute(title, "aria-describedby")).toBe("article-title-error");
    expect(page).toContain(
      '<p id="article-title-error" class="mt-1 text-sm font-medium text-red-700">Title is required</p>',
    );
    const slug = element(page, "article-slug");
    expect(attribute(slug, "value")).toBe("Not A Slug");
    expect(attribute(slug, "aria-describedby")!.split(" ")).toEqual(["article-slug-error", "article-slug-hint"]);
    expect(attribute(element(page, "article-excerpt"), "aria-invalid")).toBeUndefined();
    // Every problem is listed at the top too, the first focused: a field's as a link to it, the
    // whole form's as text.
    const summary = page.slice(
      page.indexOf("data-studio-problems"),
      page.indexOf("</ul>", page.indexOf("data-studio-problems")),
    );
    expect(page.indexOf("data-studio-problems")).toBeLessThan(page.indexOf('id="article-title"'));
    expect(summary).toContain("Not saved. Put these right, then save again:");
    expect(summary).toMatch(/<a href="#article-title" class="[^"]*" autofocus="">Title is required<\/a>/);
    expect(summary).toMatch(/<span>The form did not say which revision it was made from/);
    expect(summary.match(/autofocus/g)).toHaveLength(1);
    expect(await problems(documentOf(rendered.title, page))).toEqual([]);
  });

  it("after a refused stale save, says who changed it and when, with both texts readable", () => {
    const page = html(editorSamples.conflict);
    expect(page).toContain("Changed by Nisha Rao at 24 Nov 2026, 09:30 IST");
    // Their text beside this person's, which the editor keeps.
    expect(page).toMatch(/data-conflict-mine="body">My version of the text\.</);
    expect(page).toMatch(/data-conflict-theirs="body">Their version of the text\.</);
    expect(page).toMatch(/data-conflict-theirs="title">Their title</);
    expect(page).not.toContain('data-conflict-mine="slug"');
    expect(page).toMatch(/<textarea [^>]*id="article-body"[^>]*>My version of the text\.<\/textarea>/);
    // The next save is based on their revision; what they changed since this person's base is one link away.
    expect(fieldNames(page)).toContain("baseRevisionId");
    expect(page).toContain('name="baseRevisionId" value="104"');
    expect(page).toContain(`href="/admin/articles/${articleId}/compare?from=103&amp;to=104"`);
  });

  it("a trashed article cannot be edited, says since when, and offers Restore to a publisher only", () => {
    const page = html(editorSamples.trashed);
    expect(page).toContain("In the trash since 25 Nov 2026, 15:30 IST");
    expect(page).toMatch(/<fieldset disabled=""/);
    expect(element(page, "article-form")).not.toContain("data-studio-editor");
    expect(buttonTexts(page)).not.toContain("Save draft");
    expect(forms(page)).toContain(`post /admin/articles/${articleId}/untrash`);
    const forStaff = html(editorPage({ status: "trash", canPublish: false, trashedAt: at }));
    expect(forms(forStaff)).not.toContain(`post /admin/articles/${articleId}/untrash`);
    expect(forStaff).toContain("Ask an admin, or someone who can publish, to restore it.");
  });

  it("lists articles with a status filter that counts, New article, and each public address", () => {
    const page = html(fixtures.articles.props);
    expect(page).toContain('<a href="/admin/articles/new" class="admin-button">New article</a>');
    expect(forms(page)).toContain("get /admin/articles");
    const options = [
      .../<select [^>]*id="articles-status"[^>]*>([\s\S]*?)<\/select>/.exec(page)![1]!.matchAll(/>([^<]+)</g),
    ].map((match) => match[1]);
    expect(options).toEqual([
      "All (18)",
      "Draft (3)",
      "Scheduled (1)",
      "Published (12)",
      "Unpublished (2)",
      "In the trash (4)",
    ]);
    expect(page).toContain(`<a href="/admin/articles/${articleId}" class="admin-link">${sampleDocument.title}</a>`);
    expect(page).toContain('<a href="/blog/grid-code-compliance" class="admin-link">/blog/grid-code-compliance</a>');
    expect(page).toContain("Untitled");
    expect(page).toContain("Goes public 1 Dec 2026, 10:00 IST");
  });

  it("history: newest first, compare two by GET, Restore this version on all but the head, based on the head", () => {
    const page = html(fixtures["article-history"].props);
    const numbers = [...page.matchAll(/<th scope="row"[^>]*><span class="font-semibold">(\d+)<\/span>/g)].map(
      (match) => match[1],
    );
    expect(numbers).toEqual(["4", "3", "2", "1"]);
    expect(forms(page)).toContain(`get /admin/articles/${articleId}/compare`);
    const radios = [...page.matchAll(/<input type="radio"[^>]*>/g)].map((match) => match[0]);
    expect(radios).toHaveLength(8);
    expect(radios.every((radio) => attribute(radio, "form") === "compare-form")).toBe(true);
    expect(
      radios
        .filter((radio) => radio.includes("checked"))
        .map((radio) => `${attribute(radio, "name")}=${attribute(radio, "value")}`)
        .sort(),
    ).toEqual(["from=103", "to=104"]);
    expect(forms(page).filter((form) => form.endsWith("/restore"))).toEqual(
      [103, 102, 101].map((id) => `post /admin/articles/${articleId}/revisions/${id}/restore`),
    );
    expect(page.match(/name="baseRevisionId" value="104"/g)).toHaveLength(3);
    expect(page).toContain("Restored from revision 1");
    expect(page).toContain("Published");
  });

  it("history: a run of autosaves is one entry, saying when and what changed, its revisions listed with their comparisons", async () => {
    const run: HistoryEntryView = {
      ...revision(7, { source: "autosave", at: "2026-11-26T04:42:00.000Z" }),
      changes: "Title changed; 120 words added; cover replaced",
      before: 104,
      folded: {
        count: 3,
        firstAt: "2026-11-26T04:32:00.000Z",
        revisions: [
          { id: 107, number: 7, at: "2026-11-26T04:42:00.000Z" },
          { id: 106, number: 6, at: "2026-11-26T04:37:00.000Z" },
          { id: 105, number: 5, at: "2026-11-26T04:32:00.000Z" },
        ],
      },
    };
    const page = html({ ...fixtures["article-history"].props, revisions: [run, ...sampleEntries], headId: 107 });
    expect(page).toContain('<th scope="col">What changed</th>');
    expect(page).toContain("Autosaved 3 times, 10:02–10:12 IST");
    expect(page).toContain("Title changed; 120 words added; cover replaced");
    expect(page).toContain("Show the 3 autosaves");
    const compare = (from: number, to: number) =>
      `href="/admin/articles/${articleId}/compare?from=${from}&amp;to=${to}"`;
    // The entry's changes, and each revision of the run with the one before it.
    for (const [from, to] of [
      [104, 107],
      [106, 107],
      [105, 106],
      [104, 105],
    ])
      expect(page).toContain(compare(from!, to!));
    expect(page).toContain("Body: 3 words removed");
    expect(page).toContain("First version");
    // Within one minute, one time.
    const quick = html({
      ...fixtures["article-history"].props,
      revisions: [{ ...run, folded: { ...run.folded!, firstAt: "2026-11-26T04:42:00.000Z" } }],
      headId: 107,
    });
    expect(quick).toContain("Autosaved 3 times, 10:12 IST");
    expect(await problems(documentOf("History", page))).toEqual([]);
  });

  it("compare: Restore this version for the revision that is not the draft, based on the head; none in the trash", () => {
    const page = html(fixtures["article-compare"].props);
    expect(forms(page).filter((form) => form.endsWith("/restore"))).toEqual([
      `post /admin/articles/${articleId}/revisions/102/restore`,
    ]);
    expect(page).toMatch(
      /data-studio-compare-restore[^>]*><input type="hidden" name="baseRevisionId" value="104"\/><button type="submit" class="admin-button-secondary">Restore this version<span class="sr-only"> \(revision 2\)<\/span>/,
    );
    const trashed = html({
      ...fixtures["article-compare"].props,
      item: { ...fixtures["article-compare"].props.item, status: "trash" },
    });
    expect(trashed).not.toContain("Restore this version");
  });

  it("compare: changed fields, lines marked + and − in <ins> and <del>, unchanged lines folded", () => {
    const page = html(fixtures["article-compare"].props);
    expect(page).toContain(
      '<ins><span aria-hidden="true" class="studio-diff-mark">+</span><span class="sr-only">Added: </span>',
    );
    expect(page).toContain(
      '<del><span aria-hidden="true" class="studio-diff-mark">−</span><span class="sr-only">Removed: </span>',
    );
    // The 14 unchanged lines before the change: all but the 2 next to it folded.
    expect(page).toContain("<summary>12 unchanged lines</summary>");
    expect(page).toMatch(/<\/details><ol class="studio-diff-lines"><li class="studio-diff-same">.*?Unchanged line 11/);
    expect(page).toContain("Unchanged: Slug.");
    expect(page).not.toMatch(/<h2 [^>]*>Slug<\/h2>/);
    expect(forms(page)).toContain(`get /admin/articles/${articleId}/compare`);
  });
});

describe("projects in the studio's pages", () => {
  const html = (props: Parameters<typeof renderAdminPage>[0]) => renderAdminPage(props).bodyHtml;
  /** The names of the controls inside the project's form (hidden ones too). */
  const fieldNames = (page: string) => {
    const form = /<(?:form|div) [^>]*id="project-form"[^>]*>([\s\S]*?)<\/fieldset>/.exec(page)![1]!;
    return [...form.matchAll(/<(?:input|textarea|select) [^>]*>/g)]
      .map((match) => attribute(match[0], "name"))
      .filter((name): name is string => name !== undefined);
  };
  const buttonTexts = (page: string) =>
    [...page.matchAll(/<button [^>]*>([\s\S]*?)<\/button>/g)].map((match) => match[1]!.replace(/<[^>]+>/g, "").trim());
  const labelOf = (page: string, id: string) =>
    new RegExp(`<label [^>]*for="${id}"[^>]*>([^<]*)</label>`).exec(page)?.[1];

  it.each(Object.entries(projectSamples))(
    "renders the project editor (%s) with one h1 and valid HTML",
    async (_, props) => {
      const rendered = renderAdminPage(props);
      expect(h1s(rendered.bodyHtml)).toHaveLength(1);
      expect(await problems(documentOf(rendered.title, rendered.bodyHtml))).toEqual([]);
    },
  );

  it("the form has exactly the fields of projectFields, the Publish date and the base revision, labelled as the spec names them", () => {
    const page = html(projectSamples.draft);
    expect([...fieldNames(page)].sort()).toEqual(
      [...Object.keys(projectFields), "publishedAt", "baseRevisionId"].sort(),
    );
    expect(forms(page)).toContain(`post /admin/projects/${projectId}`);
    expect(element(page, "project-form")).toContain('data-studio-editor="project"');
    expect(element(page, "project-form")).toContain(`data-item-id="${projectId}"`);
    expect(Object.keys(projectFields).map((name) => labelOf(page, `project-${name}`))).toEqual([
      "Title",
      "Slug",
      "Description",
      "Category",
      "Image",
      "Year",
      "Capacity",
      "Timeline",
    ]);
    // The category is one of the spec's, and says which badge it makes.
    const category = /<select [^>]*id="project-category"[^>]*>([\s\S]*?)<\/select>/.exec(page)![1]!;
    expect([...category.matchAll(/<option value="([^"]*)"/g)].map((match) => match[1])).toEqual([
      "",
      ...PROJECT_CATEGORIES,
    ]);
    expect(page).toContain("green for Renewable Energy, blue for every other category");
    // The description is plain text: no Markdown toolbar or preview.
    expect(element(page, "project-description")).toMatch(/^<textarea /);
    expect(page).not.toContain('role="toolbar"');
    // Autosave has its place to speak.
    expect(page).toContain("data-studio-save-status");
  });

  it("chooses the image from the library's pictures, showing a small copy of each where there is one", () => {
    const page = html(projectSamples.draft);
    expect(page).toContain(
      '<option value="/images/projects/kutch-solar-park-grid-connection.svg" data-thumbnail="/media/0123456789abcdef/320.webp" selected="">Kutch solar park</option>',
    );
    expect(page).toContain('<option value="/images/projects/hospital-power-resilience.svg">Hospital power</option>');
    expect(attribute(/<img [^>]*data-studio-cover[^>]*>/.exec(page)![0], "src")).toBe(
      "/media/0123456789abcdef/320.webp",
    );
  });

  it("a new project posts to create, has no base, and offers no publishing until it exists", () => {
    const page = html(projectSamples.new);
    expect(forms(page)).toEqual(["post /admin/sign-out", "post /admin/projects"]);
    expect(fieldNames(page)).not.toContain("baseRevisionId");
    // "Choose picture" is shown by the script (the picture chooser).
    expect(buttonTexts(page)).toEqual(["Sign out", "Choose picture", "Save draft"]);
    expect(h1s(page)).toEqual(["New project"]);
  });

  it("offers publishing to those who may, on the project's own routes; a scheduled project's time in the date field", () => {
    expect(buttonTexts(html(projectSamples.draft))).not.toContain("Publish");
    const draft = html(projectSamples["draft, may publish"]);
    expect(buttonTexts(draft)).toEqual(expect.arrayContaining(["Publish", "Schedule", "Move to trash"]));
    expect(draft).toContain(`formAction="/admin/projects/${projectId}/publish"`);
    expect(forms(draft)).toEqual(
      expect.arrayContaining([
        `post /admin/projects/${projectId}/preview`,
        `post /admin/projects/${projectId}/share-links`,
        `post /admin/projects/${projectId}/trash`,
      ]),
    );
    const published = html(projectSamples.published);
    expect(buttonTexts(published)).toContain("Unpublish");
    expect(buttonTexts(published)).not.toContain("Schedule");
    expect(published).toContain(
      '<a href="/projects/kutch-solar-park" class="admin-link">/projects/kutch-solar-park</a>',
    );
    expect(published).toContain(
      `<a href="/admin/projects/${projectId}/history" class="admin-button-secondary">History</a>`,
    );
    const scheduled = html(projectSamples.scheduled);
    expect(scheduled).toContain("Goes public 1 Dec 2026, 10:00 IST");
    expect(attribute(element(scheduled, "project-publishedAt"), "value")).toBe("2026-12-01T10:00");
    expect(attribute(element(draft, "project-publishedAt"), "value")).toBe("");
  });

  it("shows a refused form's problems at their fields, the Publish date's too, keeping what was typed", () => {
    const page = html(projectSamples["form errors"]);
    expect(attribute(element(page, "project-year"), "aria-invalid")).toBe("true");
    expect(attribute(element(page, "project-year"), "value")).toBe("25");
    expect(page).toContain(
      '<p id="project-year-error" class="mt-1 text-sm font-medium text-red-700">Year must be four digits, like 2024</p>',
    );
    expect(attribute(element(page, "project-publishedAt"), "aria-invalid")).toBe("true");
    expect(attribute(element(page, "project-publishedAt"), "value")).toBe("2026-02-30T10:00");
    // Both are listed at the top, each a link to its field; neither is a problem of the whole form.
    const summary = page.slice(
      page.indexOf("data-studio-problems"),
      page.indexOf("</ul>", page.indexOf("data-studio-problems")),
    );
    expect(summary).toContain('<a href="#project-year"');
    expect(summary).toContain('<a href="#project-publishedAt"');
    expect(summary).not.toContain("<span>");
  });

  it("after a refused stale save, shows their text beside this person's, field by field", () => {
    const page = html(projectSamples.conflict);
    expect(page).toMatch(/data-conflict-mine="description">My description\.</);
    expect(page).toMatch(/data-conflict-theirs="description">Theirs\.</);
    expect(page).toMatch(/data-conflict-theirs="year">2024</);
    expect(page).not.toContain('data-conflict-mine="title"');
    expect(page).toContain(`href="/admin/projects/${projectId}/compare?from=103&amp;to=104"`);
  });

  it("a trashed project cannot be edited and offers Restore to a publisher", () => {
    const page = html(projectSamples.trashed);
    expect(page).toMatch(/<fieldset disabled=""/);
    expect(element(page, "project-form")).not.toContain("data-studio-editor");
    expect(forms(page)).toContain(`post /admin/projects/${projectId}/untrash`);
  });

  it("lists projects with New project, the status filter, the year and each public address", () => {
    const page = html(fixtures.projects.props);
    expect(page).toContain('<a href="/admin/projects/new" class="admin-button">New project</a>');
    expect(forms(page)).toContain("get /admin/projects");
    expect(page).toContain('<th scope="col">Year</th>');
    expect(page).toContain(`<a href="/admin/projects/${projectId}" class="admin-link">${sampleProject.title}</a>`);
    expect(page).toContain('<a href="/projects/kutch-solar-park" class="admin-link">/projects/kutch-solar-park</a>');
    expect(page).toContain('aria-current="page"');
  });

  it("history and compare name the project's own routes", () => {
    const history = html(fixtures["project-history"].props);
    expect(forms(history)).toContain(`get /admin/projects/${projectId}/compare`);
    expect(forms(history).filter((form) => form.endsWith("/restore"))).toEqual(
      [103, 102, 101].map((id) => `post /admin/projects/${projectId}/revisions/${id}/restore`),
    );
    expect(history).toContain("Revisions of the project, newest first");
    const compare = html(fixtures["project-compare"].props);
    expect(compare).toContain("Unchanged: Description.");
    expect(compare).toContain(`<a href="/admin/projects/${projectId}/history" class="admin-link">History</a>`);
  });
});

describe("the staff page's Can publish", () => {
  it("offers staff members a form that turns it the other way; admins always can", () => {
    const staffPage = fixtures.staff.props;
    const member = (id: string, canPublish: boolean) => ({
      ...staffPage.staff[0]!,
      id,
      name: `Member ${id}`,
      role: "staff" as const,
      canPublish,
    });
    const page = renderAdminPage({
      ...staffPage,
      staff: [...staffPage.staff, member("s2", false), member("s3", true)],
    }).bodyHtml;
    expect(page).toContain('<th scope="col">Can publish</th>');
    expect(forms(page).filter((form) => form.endsWith("/can-publish"))).toEqual([
      "post /admin/staff/s2/can-publish",
      "post /admin/staff/s3/can-publish",
    ]);
    expect(page).toMatch(/data-can-publish="false">No<\/span><input type="hidden" name="canPublish" value="true"\/>/);
    expect(page).toMatch(/data-can-publish="true">Yes<\/span><input type="hidden" name="canPublish" value="false"\/>/);
    expect(page).toContain("Allow publishing");
    expect(page).toContain("Stop publishing");
    expect(page).toContain("Yes (admins always can)");
  });
});
