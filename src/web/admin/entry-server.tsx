import { renderToStaticMarkup } from "react-dom/server";
import type { AdminPageName, AdminServerEntry } from "#shared/admin/pages.ts";
import { type AdminScreen, adminScreens } from "./screens.tsx";
import { MailFailingContext } from "./mail-banner.tsx";

// The back office's server-rendering entry. Its pages are plain HTML with forms that post; the
// one script they load (admin-client.ts) runs the passkey ceremonies and small conveniences, so
// nothing here is hydrated and the markup is rendered without React's hydration markers.

export const renderAdminPage: AdminServerEntry["renderAdminPage"] = (props) => {
  // The registry's type ties each name to its props; the props name their page, so the screen
  // found by that name takes exactly these props (a correlation TypeScript cannot follow alone).
  const { title, Page } = adminScreens[props.page] as AdminScreen<AdminPageName>;
  // Mail failing: the banner the layout shows on every page behind the sign-in (mail-banner.tsx).
  const page = (
    <MailFailingContext.Provider value={props.mailFailing}>
      <Page {...props} />
    </MailFailingContext.Provider>
  );
  return { title: title(props), bodyHtml: renderToStaticMarkup(page) };
};
