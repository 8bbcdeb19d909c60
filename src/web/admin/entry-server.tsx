import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { AdminPageProps, AdminServerEntry } from "#shared/admin/pages.ts";
import { InvitationPage, LinkUnusablePage, SignInLinkPage, SignInPage } from "./pages/door-pages.tsx";
import { EnquiryPage, InboxPage, PrivacyPage, SubscribersPage } from "./pages/inbox-pages.tsx";
import { AnalyticsPage } from "./pages/analytics-page.tsx";
import { AccountPage, AuditPage, ErrorPage, StaffPage } from "./pages/staff-pages.tsx";

// The back office's server-rendering entry. Its pages are plain HTML with forms that post; the
// one script they load (admin-client.ts) runs the passkey ceremonies and small conveniences, so
// nothing here is hydrated and the markup is rendered without React's hydration markers.

function page(props: AdminPageProps): { title: string; element: ReactElement } {
  switch (props.page) {
    case "sign-in":
      return { title: "Sign in", element: <SignInPage {...props} /> };
    case "invitation":
      return { title: "Your invitation", element: <InvitationPage {...props} /> };
    case "sign-in-link":
      return { title: "Sign in with a one-time link", element: <SignInLinkPage {...props} /> };
    case "link-unusable":
      return { title: "Link cannot be used", element: <LinkUnusablePage {...props} /> };
    case "account":
      return { title: "Your account", element: <AccountPage {...props} /> };
    case "staff":
      return { title: "Staff", element: <StaffPage {...props} /> };
    case "audit":
      return { title: "Audit log", element: <AuditPage {...props} /> };
    case "inbox":
      return { title: "Enquiries", element: <InboxPage {...props} /> };
    case "enquiry":
      return { title: `Enquiry ${props.enquiry.reference}`, element: <EnquiryPage {...props} /> };
    case "subscribers":
      return { title: "Subscribers", element: <SubscribersPage {...props} /> };
    case "privacy":
      return { title: "Privacy", element: <PrivacyPage {...props} /> };
    case "analytics":
      return { title: "Analytics", element: <AnalyticsPage {...props} /> };
    case "error":
      return { title: props.title, element: <ErrorPage {...props} /> };
  }
}

export const renderAdminPage: AdminServerEntry["renderAdminPage"] = (props) => {
  const { title, element } = page(props);
  return { title, bodyHtml: renderToStaticMarkup(element) };
};
