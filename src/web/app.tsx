import { SiteLayout } from "./components/site-layout.tsx";
import { PageContext, type PageContextValue } from "./lib/page-context.ts";
import { NotFoundPage } from "./pages/not-found/not-found-page.tsx";
import type { PageMatch } from "./routes.tsx";

/**
 * A whole public page, as the server renders it: the layout around the page the route table names
 * for the address, or the 404 page. One matcher decides (#shared/routes.ts); `match` is undefined
 * for an address it does not know and for one whose data says there is no such page.
 */
export function SitePage({ context, match }: { context: PageContextValue; match: PageMatch | undefined }) {
  const Page = match?.route.component;
  return (
    <PageContext value={context}>
      <SiteLayout>{match && Page ? <Page params={match.params} /> : <NotFoundPage />}</SiteLayout>
    </PageContext>
  );
}
