import type { ComponentType } from "react";
import type { AdminPageName, AdminPagePropsOf } from "#shared/admin/pages.ts";
import { AccountPage } from "./pages/account/account-page.tsx";
import { AnalyticsPage } from "./pages/analytics/analytics-page.tsx";
import { SearchSynonymsPage } from "./pages/search/search-synonyms-page.tsx";
import { AuditPage } from "./pages/audit/audit-page.tsx";
import { InvitationPage } from "./pages/door/invitation-page.tsx";
import { LinkUnusablePage } from "./pages/door/link-unusable-page.tsx";
import { SignInLinkPage } from "./pages/door/sign-in-link-page.tsx";
import { SignInPage } from "./pages/door/sign-in-page.tsx";
import { ErrorPage } from "./pages/error/error-page.tsx";
import { EnquiryPage } from "./pages/inbox/enquiry-page.tsx";
import { InboxPage } from "./pages/inbox/inbox-page.tsx";
import { PrivacyPage } from "./pages/privacy/privacy-page.tsx";
import { StaffPage } from "./pages/staff/staff-page.tsx";
import { ArticleEditorPage } from "./pages/studio/article-editor-page.tsx";
import { ArticlesPage } from "./pages/studio/articles-page.tsx";
import { ArticleComparePage, compareTitle, ProjectComparePage } from "./pages/studio/compare-page.tsx";
import { ArticleHistoryPage, historyTitle, ProjectHistoryPage } from "./pages/studio/history-page.tsx";
import { ARTICLE_PAGES, PROJECT_PAGES } from "./pages/studio/kinds.ts";
import { ProjectEditorPage } from "./pages/studio/project-editor-page.tsx";
import { ProjectsPage } from "./pages/studio/projects-page.tsx";
import { SubscribersPage } from "./pages/subscribers/subscribers-page.tsx";
// The team.
import { TeamMemberPage } from "./pages/team/team-member-page.tsx";
import { TeamPage } from "./pages/team/team-page.tsx";
// The ordered kinds drawn from their definition (testimonials, client logos).
import { OrderedItemPage } from "./pages/ordered/ordered-item-page.tsx";
import { OrderedListPage } from "./pages/ordered/ordered-list-page.tsx";
import { drawnKind } from "./pages/ordered/drawn-kinds.ts";
// The media library.
import { MediaItemPage } from "./pages/media/media-item-page.tsx";
import { MediaPage } from "./pages/media/media-page.tsx";
// Newsletters.
import { NewsletterPage } from "./pages/newsletters/newsletter-page.tsx";
import { NewsletterSendPage, sendQuestion } from "./pages/newsletters/newsletter-send-page.tsx";
import { NewslettersPage } from "./pages/newsletters/newsletters-page.tsx";
// Health.
import { HealthPage } from "./pages/health/health-page.tsx";

// Every back-office page, by the name the server renders it with (src/shared/admin/pages.ts): its
// title and its component. The type makes the compiler refuse a page name without a screen, and a
// screen whose component takes other props than its page's.

export type AdminScreen<Name extends AdminPageName> = {
  /** The document's title, before " | <firm> back office". */
  title: (props: AdminPagePropsOf<Name>) => string;
  Page: ComponentType<AdminPagePropsOf<Name>>;
};

export type AdminScreens = { readonly [Name in AdminPageName]: AdminScreen<Name> };

export const adminScreens: AdminScreens = {
  "sign-in": { title: () => "Sign in", Page: SignInPage },
  invitation: { title: () => "Your invitation", Page: InvitationPage },
  "sign-in-link": { title: () => "Sign in with a one-time link", Page: SignInLinkPage },
  "link-unusable": { title: () => "Link cannot be used", Page: LinkUnusablePage },
  account: { title: () => "Your account", Page: AccountPage },
  staff: { title: () => "Staff", Page: StaffPage },
  audit: { title: () => "Audit log", Page: AuditPage },
  inbox: { title: () => "Enquiries", Page: InboxPage },
  enquiry: { title: (props) => `Enquiry ${props.enquiry.reference}`, Page: EnquiryPage },
  subscribers: { title: () => "Subscribers", Page: SubscribersPage },
  privacy: { title: () => "Privacy", Page: PrivacyPage },
  analytics: { title: () => "Analytics", Page: AnalyticsPage },
  searchSynonyms: { title: () => "Search synonyms", Page: SearchSynonymsPage },
  articles: { title: () => "Articles", Page: ArticlesPage },
  "article-editor": {
    title: (props) => (props.editor.id === null ? "New article" : props.editor.document.title || "Untitled article"),
    Page: ArticleEditorPage,
  },
  "article-history": { title: (props) => historyTitle(ARTICLE_PAGES, props.item.title), Page: ArticleHistoryPage },
  "article-compare": { title: (props) => compareTitle(ARTICLE_PAGES, props.item.title), Page: ArticleComparePage },
  // Projects in the studio.
  projects: { title: () => "Projects", Page: ProjectsPage },
  "project-editor": {
    title: (props) => (props.editor.id === null ? "New project" : props.editor.document.title || "Untitled project"),
    Page: ProjectEditorPage,
  },
  "project-history": { title: (props) => historyTitle(PROJECT_PAGES, props.item.title), Page: ProjectHistoryPage },
  "project-compare": { title: (props) => compareTitle(PROJECT_PAGES, props.item.title), Page: ProjectComparePage },
  // The team.
  team: { title: () => "Team", Page: TeamPage },
  "team-member": {
    title: (props) => (props.member.id === null ? "New team member" : props.member.fields.name || "Unnamed member"),
    Page: TeamMemberPage,
  },
  // The ordered kinds drawn from their definition.
  "ordered-list": { title: (props) => drawnKind(props.kind).nav.label, Page: OrderedListPage },
  "ordered-item": {
    title: (props) => (props.item.id === null ? drawnKind(props.kind).pages.newTitle : props.item.name),
    Page: OrderedItemPage,
  },
  // The media library.
  media: { title: () => "Media", Page: MediaPage },
  "media-item": { title: (props) => props.item.fileName, Page: MediaItemPage },
  // Newsletters.
  newsletters: { title: () => "Newsletters", Page: NewslettersPage },
  newsletter: {
    title: (props) =>
      props.newsletter.id === null ? "New newsletter" : props.newsletter.fields.subject || "Untitled newsletter",
    Page: NewsletterPage,
  },
  "newsletter-send": {
    title: (props) => sendQuestion(props.send),
    Page: NewsletterSendPage,
  },
  // Health.
  health: { title: () => "Health", Page: HealthPage },
  error: { title: (props) => props.title, Page: ErrorPage },
};
