import type { ComponentType } from "react";
import type { AdminPageName, AdminPagePropsOf } from "#shared/admin/pages.ts";
import { AccountPage } from "./pages/account/account-page.tsx";
import { AnalyticsPage } from "./pages/analytics/analytics-page.tsx";
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
import { ArticleComparePage } from "./pages/studio/article-compare-page.tsx";
import { ArticleEditorPage } from "./pages/studio/article-editor-page.tsx";
import { ArticleHistoryPage } from "./pages/studio/article-history-page.tsx";
import { ArticlesPage } from "./pages/studio/articles-page.tsx";
import { SubscribersPage } from "./pages/subscribers/subscribers-page.tsx";
// The media library.
import { MediaItemPage } from "./pages/media/media-item-page.tsx";
import { MediaPage } from "./pages/media/media-page.tsx";

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
  articles: { title: () => "Articles", Page: ArticlesPage },
  "article-editor": {
    title: (props) => (props.editor.id === null ? "New article" : props.editor.document.title || "Untitled article"),
    Page: ArticleEditorPage,
  },
  "article-history": {
    title: (props) => `History of ${props.article.title || "an untitled article"}`,
    Page: ArticleHistoryPage,
  },
  "article-compare": {
    title: (props) => `Compare revisions of ${props.article.title || "an untitled article"}`,
    Page: ArticleComparePage,
  },
  // The media library.
  media: { title: () => "Media", Page: MediaPage },
  "media-item": { title: (props) => props.item.fileName, Page: MediaItemPage },
  error: { title: (props) => props.title, Page: ErrorPage },
};
