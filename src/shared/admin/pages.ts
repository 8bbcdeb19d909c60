import type { DiffPart } from "./diff-parts.ts";
// The contract between the server's back-office routes (src/server/admin/) and the back office's
// server-rendering entry (src/web/admin/entry-server.tsx): which page to render, with what.
// Dates travel as ISO strings; everything a page shows is in its props.

import type { AnalyticsPeriodKey, AnalyticsReport } from "../analytics.ts";
import type { ArticleDocument, ArticleStatus, ChecklistItem, ProjectDocument } from "../content/documents.ts";
import type { SubscriberState } from "./subscriber-states.ts";
import type { FormState } from "./forms.ts";
import type { MediaFormat } from "../media.ts";
import type { HealthState } from "./health.ts";
import type { DrawnKindPlural } from "./collections/index.ts";

export type StaffRole = "admin" | "staff";

/** The signed-in member of staff, shown in the header on every page behind the sign-in. */
export type AdminViewer = { id: string; name: string; email: string; role: StaffRole; canPublish: boolean };

export type PasskeySummary = { id: string; label: string; createdAt: string; lastUsedAt: string | null };
export type SessionSummary = {
  current: boolean;
  device: string;
  method: string;
  createdAt: string;
  lastSeenAt: string;
};

export type StaffSummary = {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  /** May publish without being an admin ("Can publish"). */
  canPublish: boolean;
  createdAt: string;
  lastSignInAt: string | null;
  disabled: boolean;
  passkeys: number;
  sessions: number;
};

export type AuditEventView = {
  id: number;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  clientAddress: string | null;
  details: string | null;
};

/** A one-time link made on the Staff page: shown once, since only its hash is kept. */
export type IssuedLink = { kind: "invitation" | "sign-in"; email: string; url: string; mailed: boolean };

/** Where an enquiry stands against the reply promise (src/shared/inbox.ts computes it). */
export type ReplyStateView = { kind: "due" | "overdue" | "replied" | "none"; label: string };

export type InboxFilter = { status: string; owner: string; service: string; from: string; to: string; q: string };

export type InboxRowView = {
  id: string;
  reference: string;
  name: string;
  email: string;
  company: string | null;
  service: string | null;
  receivedAt: string;
  status: string;
  owner: string | null;
  reply: ReplyStateView;
  spamReason: string | null;
  /** Where the sender came from (analytics): "via google, landed on /blog/…", or null. */
  attribution: string | null;
};

export type PromiseFigures = {
  /** Enquiries of the last 30 days whose outcome is known (replied, or past due). */
  counted: number;
  /** Of those, answered within the promise. */
  answered: number;
  /** Enquiries of the last 30 days not replied to and not yet due: not counted until one or the other. */
  pending: number;
  /** Median time to the first reply over the last 30 days, in milliseconds; null with no replies. */
  medianReplyMs: number | null;
};

export type EnquiryView = {
  id: string;
  reference: string;
  firstName: string;
  lastName: string;
  email: string;
  company: string | null;
  service: string | null;
  message: string;
  receivedAt: string;
  dueAt: string;
  status: string;
  ownerId: string | null;
  owner: string | null;
  firstReplyAt: string | null;
  firstReplyBy: string | null;
  spamReason: string | null;
  /** Where the sender came from (analytics): "via google, landed on /blog/…", or null. */
  attribution: string | null;
  /** The version of the privacy notice the form showed; null for an enquiry from before versions. */
  noticeVersion: string | null;
  version: number;
  reply: ReplyStateView;
};

export type NoteView = { id: string; author: string; at: string; body: string };
export type MailView = {
  kind: string;
  status: string;
  attempts: number;
  nextAttemptAt: string;
  sentAt: string | null;
  lastError: string | null;
};
/** A subscriber as /admin/subscribers shows it: the state, when it changed, and the proof of consent. */
export type SubscriberView = {
  id: string;
  email: string;
  createdAt: string;
  state: SubscriberState;
  stateChangedAt: string;
  /** When the address was confirmed, from which page, and the words shown there (null until then). */
  confirmedAt: string | null;
  consentPage: string | null;
  consentText: string | null;
  /** The version of the privacy notice the box showed; null for a subscription from before versions. */
  noticeVersion: string | null;
  /** Why a bouncing address bounced (the mail server's answer). */
  bounceReason: string | null;
};
export type ErasureCounts = {
  enquiries: number;
  notes: number;
  /** Enquiry and staff mail; the newsletter's is `newsletterMail`. */
  mail: number;
  subscriptions: number;
  /** The confirmation mail and each newsletter's mail to the address's subscription. */
  newsletterMail: number;
};

// The content studio (docs/decisions/038-the-database-holds-the-content.md).

/** A revision as screens name it: "Revision 13 by Meera Shah, 26 Nov 2026, 14:32". */
export type RevisionView = {
  id: number;
  number: number;
  by: string;
  at: string;
  /** "studio", "autosave", "restore", "import" or "seed". */
  source: string;
  /** The revision it restored, by number. */
  restoredFrom: number | null;
  /** This revision is what the public reads (or will, when scheduled). */
  published: boolean;
};

/** A row of a studio list: an article or a project, as its head revision says. */
export type StudioRowView = {
  id: string;
  /** The head revision's title. */
  title: string;
  status: ArticleStatus;
  category: string;
  changedAt: string;
  changedBy: string;
  /** Its public address when it is public now, else null. */
  publicPath: string | null;
  /** When it goes public (scheduled) or went (published), else null. */
  publishedAt: string | null;
};

export type ArticleRowView = StudioRowView & {
  /** The team member named as author, or null. */
  authorName: string | null;
};

export type ProjectRowView = StudioRowView & { year: string };

export type ArticleFilter = { q: string; status: string };

/** A share link of an article, as its list on the editor shows it (the token is shown once, when made). */
export type ShareLinkView = {
  id: string;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  /** "active", "expired" or "revoked". */
  state: "active" | "expired" | "revoked";
  /** The viewer made it, so may revoke it (admins may revoke any). */
  mayRevoke: boolean;
};

/** A picture an editor may choose, with a small copy to show in the chooser (null: none). */
export type StudioImageChoice = {
  url: string;
  /** The picture's name for people: its alt text, or its file name in words when decorative. */
  label: string;
  thumbnail?: string | null;
  /** Its key in the library, by which a value naming it in another form is recognised (pictureChoiceFor). */
  key?: string;
};

/** What the editor of any studio item shows besides its document and its kind's own fields. */
export type StudioEditorCommon = {
  /** null for a new item. */
  id: string | null;
  status: ArticleStatus;
  /** The head revision, which a save must be based on; null for a new item. */
  head: RevisionView | null;
  /** The revision the public reads, when published. */
  publishedRevision: RevisionView | null;
  /** The item's public address while it is public now, else null. */
  publicPath: string | null;
  /** When it is (or will be) public, ISO; null before the first publish (or, for a project, with no time). */
  publishedAt: string | null;
  trashedAt: string | null;
  /** The viewer may publish, schedule, unpublish and trash (admin, or "Can publish"). */
  canPublish: boolean;
  /** The site's pictures, for the cover or image field. */
  images: StudioImageChoice[];
  shareLinks: ShareLinkView[];
  /** A share link just made: its address, shown to the person who made it, in the browser that asked, for a few minutes. */
  issuedShareLink?: string;
  /** The page was asked for with a share link's id whose address is no longer shown here. */
  shareLinkGone?: boolean;
  /** A new key for the Share preview form: the same form sent twice makes one link. */
  shareRequestKey: string;
  /**
   * After a revision was restored (decision 058): the revision restored, and the one the public
   * reads (or will, when scheduled) when that is another; `status` says which it is.
   */
  restoreOffer?: { restoredFrom: number; live: number | null };
  /** Others with the item open now ("Meera Shah"; "you, in another window"). */
  presence: string[];
  /** Largest request the studio accepts, in bytes: the editor refuses to send more and says so. */
  bodyLimit: number;
  /**
   * The form holds text the server refused and did not save (someone saved first, or a field's
   * problem): the editor treats it as unsaved from the start.
   */
  unsaved: boolean;
  /**
   * What the problems listed at the top of the page stopped: a save (the default), a publish of
   * text saved as a draft first, or a publish whose text could not be saved either.
   */
  refused?: "save" | "publish" | "publish-unsaved";
};

/** The editor of one article (or of a new one: `id` null). */
export type ArticleEditorView = StudioEditorCommon & {
  /** The document being edited: the head revision's, or what a refused save sent (then `form` has it too). */
  document: ArticleDocument;
  /** Categories in use, for the Category field's suggestions. */
  categories: string[];
  /** The team, for the Author field. */
  authors: { slug: string; name: string }[];
  /** What blocks publishing the document shown, and links to site pages that do not exist. */
  checklist: { blockers: ChecklistItem[]; warnings: string[] };
  /**
   * A save that was refused because someone saved first: who and when, and the text they saved,
   * shown beside the text this person sent (kept in the editor).
   */
  /** `yours`: the newer revision is this person's own (another window of theirs). */
  conflict?: { current: RevisionView; currentDocument: ArticleDocument; yours?: boolean };
};

/** The editor of one project (or of a new one: `id` null). */
export type ProjectEditorView = StudioEditorCommon & {
  /** The document being edited: the head revision's, or what a refused save sent. */
  document: ProjectDocument;
  /** The categories a project may have (PROJECT_CATEGORIES). */
  categories: readonly string[];
  /** What blocks publishing the document shown, and what is worth a second look. */
  checklist: { blockers: ChecklistItem<keyof ProjectDocument>[]; warnings: string[] };
  /** A save refused because someone saved first: their revision and text. */
  /** `yours`: the newer revision is this person's own (another window of theirs). */
  conflict?: { current: RevisionView; currentDocument: ProjectDocument; yours?: boolean };
};

/** An article or a project, as its history and comparison pages name it. */
export type StudioItemSummary = { id: string; title: string; status: ArticleStatus };

/** The history of an item: every revision, and which is the head. */
/**
 * An entry of an item's History (decision 058): a revision, or a run of autosaves by one person
 * shown as its newest, with what it changed from the revision before it.
 */
export type HistoryEntryView = RevisionView & {
  /** "Title changed; 120 words added; cover replaced", "First version". */
  changes: string;
  /** The revision before the entry (before the run's first), to compare with; null for the first. */
  before: number | null;
  /** A run of autosaves: how many, since when, and its revisions, newest first (the first RUN_MEMBERS_LISTED). */
  folded?: { count: number; firstAt: string; revisions: { id: number; number: number; at: string }[] };
};

export type StudioHistoryData = {
  item: StudioItemSummary;
  /** A page of entries, newest first (REVISIONS_PER_PAGE). */
  revisions: HistoryEntryView[];
  headId: number;
  pageNumber: number;
  /** Whether older revisions are on the next page. */
  more: boolean;
};

/** Two revisions of an item compared. */
export type StudioCompareData = {
  item: StudioItemSummary;
  from: RevisionView;
  to: RevisionView;
  fields: FieldDiffView[];
  /** Both revisions' ids, for choosing others. */
  revisions: RevisionView[];
  headId: number;
};

/** One line of a comparison of two texts. */
export type { DiffLineView } from "./diff-parts.ts";

/**
 * A field of the document compared: its label, and its lines (the body's folded, bounded:
 * diff-parts.ts), or its two values.
 */
export type FieldDiffView = {
  field: string;
  label: string;
  changed: boolean;
  parts: DiffPart[];
  /** The texts differ too much to compare line by line within the comparison's bound: no parts. */
  tooDifferent?: true;
};

/** Answer of autosave (JSON): saved, or refused because someone else saved first. */
export type AutosaveAnswer =
  | { saved: true; revision: RevisionView; unchanged: boolean }
  | {
      error: "Conflict";
      message: string;
      current: { revisionId: number; number: number; by: string; at: string };
      compareHref: string;
      /** The newer revision is the asker's own (another window of theirs). */
      yours: boolean;
    };

/** Answer of the presence beat (JSON). */
export type PresenceAnswer = { others: string[] };

/** Answer of the live preview (JSON): the body as the article page renders it. */
export type MarkdownPreviewAnswer = { html: string; words: number; readingMinutes: number };

// The team in the studio (src/server/admin/team/; docs/decisions/043-the-team-order-is-not-a-revision.md).

/** Where a member stands for visitors: shown (on the site), hidden (not on it), or in the trash. */
export type TeamMemberStatus = "shown" | "hidden" | "trash";

/** A picture an editor may choose (a member's photo), as the chooser shows it. */
export type PhotoChoiceView = { url: string; label: string; thumbnail: string | null; key?: string };

/** A member of the team list, in the team's order. */
export type TeamRowView = {
  id: string;
  /** The head revision's name, title and photo: what the member page edits. */
  name: string;
  title: string;
  imageUrl: string;
  /** A small picture of the photo; null when the library has none. */
  thumbnail: string | null;
  status: "shown" | "hidden";
  /** 1, 2, 3…: the member's place in the team, the About page's order (hidden members keep theirs). */
  position: number;
  /** The revision Show and Hide act on. */
  headRevisionId: number;
};

/** A member in the trash. */
export type TeamTrashRowView = {
  id: string;
  name: string;
  title: string;
  trashedAt: string;
  trashedBy: string | null;
  headRevisionId: number;
};

/** A member's fields as the form holds them, each as text ("" for no email or LinkedIn). */
export type TeamMemberFieldsView = {
  name: string;
  title: string;
  expertise: string;
  imageUrl: string;
  email: string;
  linkedinUrl: string;
};

/** The page of one member (or of a new one: `id` null). */
export type TeamMemberEditorView = {
  id: string | null;
  /** The member's file name in content/team (what articles name as their author); null until saved. */
  slug: string | null;
  status: TeamMemberStatus;
  /** The head revision's fields, or what a refused save sent (then `form` has it too). */
  fields: TeamMemberFieldsView;
  /** The head revision, which a save must be based on; null for a new member. */
  head: RevisionView | null;
  /** The member's place in the team; null for a new member and one in the trash. */
  position: number | null;
  /** The pictures of the media library, for the Photo field. */
  photos: PhotoChoiceView[];
  trashedAt: string | null;
  /** A save refused because someone saved first: who and when, and the fields they saved. */
  conflict?: { current: RevisionView; fields: TeamMemberFieldsView; yours?: boolean };
};
// The ordered kinds whose pages are drawn from their definition (testimonials, client logos:
// src/web/admin/pages/ordered/; src/shared/admin/collections/).

/** An item of the list, in its order. */
export type DrawnRowView = {
  id: string;
  /** How the list names it: the person and organisation, the description, the organisation. */
  name: string;
  /** A line under the name (a testimonial's quote, shortened); "" for none. */
  detail: string;
  /** A small picture of its picture field (a logo), or null. */
  thumbnail: string | null;
  status: "shown" | "hidden";
  position: number;
  headRevisionId: number;
};

/** An item in the trash. */
export type DrawnTrashRowView = {
  id: string;
  name: string;
  trashedAt: string;
  trashedBy: string | null;
  headRevisionId: number;
};

/** The fields of an item as its form holds them: text, or the ticked choices. */
export type DrawnFieldsView = Record<string, string | string[]>;

/** One item's page (or a new one's: `id` null). */
export type DrawnItemView = {
  id: string | null;
  /** How the page names it (its title): as the list does. */
  name: string;
  status: TeamMemberStatus;
  fields: DrawnFieldsView;
  head: RevisionView | null;
  position: number | null;
  /** The media library's pictures, for the picture fields. */
  pictures: PhotoChoiceView[];
  /** A select field's choices, by field (a testimonial's project: the projects). */
  options: Record<string, { value: string; label: string }[]>;
  /** What stops the head from being published, in words; empty when nothing does. */
  blockers: string[];
  trashedAt: string | null;
  conflict?: { current: RevisionView; fields: DrawnFieldsView; yours?: boolean };
};

// The media library (docs/decisions/040-the-media-library.md).

/** An item that names a picture: where it is used. `href` is its editor, where the back office has one. */
export type MediaUseView = {
  kind: "article" | "project" | "team-member" | "testimonial" | "client-logo";
  title: string;
  trashed: boolean;
  href: string | null;
};

/** A picture of the library, as its grid and its own page show it. */
export type MediaItemView = {
  id: string;
  key: string;
  fileName: string;
  format: MediaFormat;
  /** Of the kept original, upright. */
  width: number;
  height: number;
  uploadedBytes: number;
  /** The kept original and every variant stored, together. */
  storedBytes: number;
  /** "" when unwritten or decorative. */
  alt: string;
  decorative: boolean;
  /** The smallest width of its ladder, in WebP. */
  thumbnail: string;
  /** Its address in the library, which content names it by: /media/<key>/original.<ext>. */
  reference: string;
  /** Its old address, for a picture brought in from public/images (content may name it by that too). */
  sourcePath: string | null;
  createdAt: string;
  createdBy: string;
  usedIn: MediaUseView[];
};

/** Answer of an upload through the JSON route (drop, several files, paste into the editor). */
export type MediaUploadAnswer = {
  id: string;
  key: string;
  fileName: string;
  /** The picture was in the library already: nothing was added. */
  existing: boolean;
  /** What a document stores to show it: /media/<key>/original.<ext>. */
  reference: string;
  /** Its page in the library. */
  href: string;
  thumbnail: string;
  alt: string;
  decorative: boolean;
  message: string;
};

/** One picture the chooser offers (/admin/api/media/choices). */
export type PictureChoiceView = {
  mediaId: string;
  /** What content stores to show it (its reference, or the old /images/… address it was brought in by). */
  src: string;
  /** Its name for people: the alt text, or the file name in words when decorative. */
  name: string;
  /** "" when decorative. */
  alt: string;
  decorative: boolean;
  thumbnail: string;
  fileName: string;
};

/** Answer of the picture chooser's list: one page, newest first. */
export type PictureChoicesAnswer = { items: PictureChoiceView[]; page: number; more: boolean };

/** Answer of the alt text's JSON route. */
export type MediaAltAnswer = { id: string; reference: string; alt: string; decorative: boolean };

/**
 * What any page may show besides its own data: the notice after a change (the door fills it from
 * `?notice=`, src/shared/admin/notices.ts), a problem with the whole request, and a refused form's
 * values and problems at their fields (src/shared/admin/forms.ts). `formName` says which of the
 * page's forms `form` belongs to, on a page with more than one.
 */
export type PageMessages = {
  notice?: string;
  error?: string;
  form?: FormState;
  formName?: string;
  /**
   * Mail is failing (the Health page's Mail line is red): its reason, for the banner across every
   * page behind the sign-in. The door fills it (src/server/admin/health/health-alerts.ts).
   */
  mailFailing?: string;
};

type Signed = { viewer: AdminViewer };

/** Props of every back-office page; `page` says which. */
export type AdminPageProps = PageMessages &
  (
    | { page: "sign-in"; next: string; mailConfigured: boolean }
    | { page: "invitation"; token: string; invitee: { name: string; email: string; role: StaffRole } }
    | { page: "sign-in-link"; token: string; member: { name: string; email: string } }
    | { page: "link-unusable"; kind: "invitation" | "sign-in" }
    | (Signed & { page: "account"; passkeys: PasskeySummary[]; sessions: SessionSummary[] })
    | (Signed & { page: "staff"; staff: StaffSummary[]; issued?: IssuedLink })
    | (Signed & {
        page: "audit";
        events: AuditEventView[];
        filter: { action: string; actor: string; from: string; to: string };
        actions: readonly string[];
        actors: { id: string; name: string }[];
        pageNumber: number;
        more: boolean;
      })
    | (Signed & {
        page: "inbox";
        rows: InboxRowView[];
        filter: InboxFilter;
        counts: { new: number; overdue: number; unassigned: number };
        promise: PromiseFigures;
        staff: { id: string; name: string }[];
        pageNumber: number;
        more: boolean;
      })
    | (Signed & {
        page: "enquiry";
        enquiry: EnquiryView;
        notes: NoteView[];
        mail: MailView[];
        staff: { id: string; name: string }[];
      })
    | (Signed & {
        page: "subscribers";
        subscribers: SubscriberView[];
        q: string;
        /** The state filter: "" for every state. */
        state: SubscriberState | "";
        /** How many addresses are in each state, whatever the search. */
        counts: Record<SubscriberState, number>;
        pageNumber: number;
        more: boolean;
      })
    | (Signed & {
        page: "privacy";
        /** The periods this site is configured with (SPAM_RETENTION_DAYS and the others). */
        retention: RetentionView;
        /** The address looked up, shown with its counts; never in a URL (the preview is a POST). */
        email?: string;
        preview?: ErasureCounts;
        erased?: ErasureCounts;
      })
    | (Signed & {
        page: "searchSynonyms";
        groups: { id: string; terms: string[]; createdByLabel: string; createdAt: string }[];
        /** Groups at most (MAX_SYNONYM_GROUPS): the form says so when the list is full. */
        maxGroups: number;
      })
    | (Signed & {
        page: "analytics";
        period: AnalyticsPeriodKey;
        report: AnalyticsReport;
        /** The site searches that found nothing, by week, newest first (decision 054). */
        searchMisses: { weekStart: string; queries: { query: string; count: number }[] }[];
        /** This browser carries the marker that keeps it from being counted. */
        excluded: boolean;
        /** ANALYTICS is on. */
        enabled: boolean;
      })
    | (Signed & {
        page: "articles";
        rows: ArticleRowView[];
        filter: ArticleFilter;
        counts: Record<ArticleStatus, number>;
        pageNumber: number;
        more: boolean;
      })
    | (Signed & { page: "article-editor"; editor: ArticleEditorView })
    | (Signed & { page: "article-history" } & StudioHistoryData)
    | (Signed & { page: "article-compare" } & StudioCompareData)
    | (Signed & {
        page: "projects";
        rows: ProjectRowView[];
        filter: ArticleFilter;
        counts: Record<ArticleStatus, number>;
        pageNumber: number;
        more: boolean;
      })
    | (Signed & { page: "project-editor"; editor: ProjectEditorView })
    | (Signed & { page: "project-history" } & StudioHistoryData)
    | (Signed & { page: "project-compare" } & StudioCompareData)
    // The team (src/server/admin/team/).
    | (Signed & {
        page: "team";
        rows: TeamRowView[];
        trash: TeamTrashRowView[];
        /** The viewer may change the team (an admin, or "Can publish"). */
        canChange: boolean;
        /** After Move up / Move down: the moved member's button that gets the focus. */
        focus?: { id: string; direction: "up" | "down" };
      })
    | (Signed & { page: "team-member"; member: TeamMemberEditorView })
    // The ordered kinds drawn from their definition, by their list's name (src/shared/admin/collections/).
    | (Signed & {
        page: "ordered-list";
        kind: DrawnKindPlural;
        rows: DrawnRowView[];
        trash: DrawnTrashRowView[];
        canChange: boolean;
        focus?: { id: string; direction: "up" | "down" };
      })
    | (Signed & { page: "ordered-item"; kind: DrawnKindPlural; item: DrawnItemView })
    | (Signed & {
        page: "media";
        /** All pictures, or only those needing alt text. */
        show: "all" | "needs-alt";
        items: MediaItemView[];
        /** Pictures in the library, and those without alt text or "Decorative" (not offered to content yet). */
        total: number;
        needsAlt: number;
        /** The viewer may delete pictures (admins, and staff who may publish). */
        canDelete: boolean;
        pageNumber: number;
        more: boolean;
      })
    | (Signed & { page: "media-item"; item: MediaItemView; canDelete: boolean })
    // Newsletters (src/server/admin/newsletters/).
    | (Signed & {
        page: "newsletters";
        rows: NewsletterRowView[];
        /** Confirmed subscribers now. */
        subscribers: number;
      })
    | (Signed & { page: "newsletter"; newsletter: NewsletterEditorView })
    | (Signed & { page: "newsletter-send"; send: NewsletterSendView })
    // The Health page (src/server/admin/health/).
    | (Signed & { page: "health"; health: HealthView })
    | { page: "error"; viewer?: AdminViewer; status: number; title: string; message: string }
  );

// Newsletters (src/server/admin/newsletters/; docs/back-office.md, "Newsletters").

export type NewsletterStatusView = "draft" | "sending" | "sent";

/** The counts of a newsletter's mail to its subscribers (tests not counted). */
export type NewsletterCountsView = { recipients: number; queued: number; sent: number; failed: number };

/** A newsletter of the list, newest first. */
export type NewsletterRowView = {
  id: string;
  subject: string;
  status: NewsletterStatusView;
  createdAt: string;
  sentAt: string | null;
  /** Null for a draft. */
  counts: NewsletterCountsView | null;
};

/** A public article the newsletter may feature (newest first). */
export type NewsletterArticleChoice = { id: string; title: string; publishedAt: string };

/** What the compose form holds. */
export type NewsletterFieldsView = { subject: string; introduction: string; articleIds: string[] };

/** The mail as it will look: the text part here; the HTML part is the preview route's, in a frame. */
export type NewsletterPreviewView = { subject: string; text: string };

export type NewsletterEditorView = {
  /** Null for a new newsletter (not saved yet). */
  id: string | null;
  status: NewsletterStatusView;
  /** The version the form is based on (a save based on an older one is refused). */
  version: number;
  campaign: string | null;
  fields: NewsletterFieldsView;
  /** The public articles to choose from, newest first (and any chosen ones no longer public, not offered). */
  articles: NewsletterArticleChoice[];
  updatedAt: string | null;
  updatedBy: string | null;
  /** Null for a new newsletter. */
  preview: NewsletterPreviewView | null;
  /** Confirmed subscribers now: the N of "Send to N subscribers". */
  subscribers: number;
  mailConfigured: boolean;
  /** The viewer may send (an admin, or "Can publish"). */
  canSend: boolean;
  /** Once sent: when, by whom, and the counts. */
  sent: { at: string; by: string | null; counts: NewsletterCountsView } | null;
  /** A save refused because someone saved first: what they saved, and who. */
  conflict?: { by: string | null; at: string; version: number; fields: NewsletterFieldsView };
};

/** "Send to N subscribers?": what will be sent, to how many. */
export type NewsletterSendView = {
  id: string;
  subject: string;
  version: number;
  articles: string[];
  recipients: number;
  /** Why it cannot be sent now (no subscribers, mail not configured); null when it can. */
  blocked: string | null;
};

// The Health page (src/server/admin/health/; docs/decisions/052-the-health-page-and-alerts.md).

/** What every line of the Health page says: where it stands, and each problem in words (none when well). */
export type HealthVerdictView = { state: HealthState; reasons: string[] };

/** A backup as the Health page shows it (a row of backup_runs). */
export type BackupRunView = {
  /** "scheduled", "health-page" or "command". */
  trigger: string;
  /** A member of staff's name, "command line", or the instance that ran the schedule. */
  requestedBy: string;
  startedAt: string;
  finishedAt: string | null;
  status: "running" | "done" | "failed";
  bytes: number | null;
  error: string | null;
  /** The restore drill: null while not run. */
  drill: { status: "passed" | "failed" | null; at: string | null; detail: string | null };
  /** The copy off the machine (BACKUP_S3_URL): null while not tried, or with none set. */
  copy: { status: "copied" | "failed" | null; at: string | null; detail: string | null };
};

export type BackupHealthView = HealthVerdictView & {
  /** The newest backup that ended (done or failed); null before the first. */
  last: BackupRunView | null;
  /** A backup running now, if any. */
  running: BackupRunView | null;
  /** When the newest backup whose restore drill passed finished; null when none has. */
  lastVerifiedAt: string | null;
  /** BACKUP_S3_URL is set: each backup is copied off the machine. */
  offsite: boolean;
  /** The next scheduled backup (BACKUP_TIME, India time); null when the schedule is off. */
  nextScheduledAt: string | null;
  /** The newest finished backup whose archive is still in BACKUP_DIR, to download; null when none. */
  download?: { id: number; fileName: string; bytes: number } | null;
  /** This instance can make a backup now (it runs the backups, and none is being made). */
  canBackUpNow?: boolean;
};

export type MailHealthView = HealthVerdictView & {
  /** SMTP_URL, MAIL_FROM and MAIL_TO are set. */
  configured: boolean;
  /** The oldest message waiting to go out: its kind in words, when it was queued, its attempts. */
  oldestWaiting: { kind: string; queuedAt: string; attempts: number; lastError: string | null } | null;
  /** Messages waiting to go out (a newsletter's among them, paced). */
  waiting: number;
  /** Of the last 24 hours: messages given up (refused, or out of attempts). */
  failedLastDay: number;
  /** Messages waiting again after a failed attempt. */
  retrying: number;
  /** The newest failure: when (of a message given up: its last attempt) and the server's answer. */
  lastFailure: { at: string; error: string } | null;
  /** When a message last went out; null when none has. */
  lastSentAt: string | null;
};

/** An article or a project of the Publishing line, with its page in the studio. */
export type ScheduledItemView = { kind: "article" | "project"; title: string; at: string; href: string };

export type PublishingHealthView = HealthVerdictView & {
  /** Due 5 minutes ago or more by the database's clock, and not public on this instance yet. */
  late: ScheduledItemView[];
  /** Scheduled items still to come on this instance's clock, and the next of them. */
  scheduled: number;
  next: ScheduledItemView | null;
  /** This instance's clock minus the database's, in ms (positive: ahead). */
  clockOffsetMs: number;
};

/** A disk the site can read, by a folder on it; or why it could not be read. */
export type DiskView = {
  /** "The embedded database (DATA_DIR)", "Backups (BACKUP_DIR)". */
  label: string;
  path: string;
  /** The folder does not exist yet: the disk read is its nearest existing parent's. */
  missing: boolean;
} & ({ freeBytes: number; totalBytes: number } | { unreadable: string });

export type StorageHealthView = HealthVerdictView & {
  /** pg_database_size of the site's database; null when it could not be read. */
  databaseBytes: number | null;
  /** "embedded": its disk is DATA_DIR's, read below; "server": PostgreSQL's own disk, not readable from here. */
  database: "embedded" | "server";
  disks: DiskView[];
};

export type HealthView = {
  checkedAt: string;
  backups: BackupHealthView;
  mail: MailHealthView;
  publishing: PublishingHealthView;
  storage: StorageHealthView;
};

/** How long the site keeps what it holds, as configured. */
export type RetentionView = { spamDays: number; closedEnquiryDays: number; analyticsDays: number };

/** The props of one page. */
export type AdminPagePropsOf<Name extends AdminPageName> = Extract<AdminPageProps, { page: Name }>;

export type AdminPageName = AdminPageProps["page"];

/** What the back office's server-rendering entry gives the server. */
export type AdminServerEntry = {
  renderAdminPage: (props: AdminPageProps) => { title: string; bodyHtml: string };
};
