import { useQueryClient } from "@tanstack/react-query";
import { Suspense, useEffect, useState } from "react";
import { useLocation } from "wouter";
import { SiteLayout } from "./components/site-layout.tsx";
import { flushEnquiryOutbox } from "./lib/enquiry-outbox.ts";
import { useScrollOnNavigation } from "./lib/scroll-on-navigation.ts";
import { useCountNavigation } from "./lib/count-navigation.ts";
import { Spinner } from "./ui/spinner.tsx";
import { NotFoundPage } from "./pages/not-found/not-found-page.tsx";
import { RouteContext } from "./lib/route-context.ts";
import { matchPage, notFoundMeta } from "./routes.tsx";

/** The document title for a path, from the route's meta and whatever data is already loaded. */
function useDocumentTitle(location: string, notFound: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const update = () => {
      const match = notFound ? undefined : matchPage(location);
      const meta = match ? match.route.meta(match.params, (key) => queryClient.getQueryData([key])) : null;
      document.title = (meta ?? notFoundMeta).title;
    };
    update();
    return queryClient.getQueryCache().subscribe(update);
  }, [location, notFound, queryClient]);
}

function PageLoading() {
  return (
    <div role="status" className="container-page flex justify-center py-32 text-slate-600">
      <Spinner className="size-8 text-brand-700" />
      <span className="sr-only">Loading page</span>
    </div>
  );
}

/**
 * The whole site: the layout around the page the route table names for the address. One matcher
 * decides for the server and the browser (#shared/routes.ts), so a page is never a 404 on one side
 * and something else on the other. `notFoundAt` is the address the server answered with its 404
 * page (an article slug that does not exist, say): the browser shows that page there too.
 */
export function App({ notFoundAt }: { notFoundAt?: string }) {
  const [location] = useLocation();
  // Only the first document's verdict counts: after a client-side navigation the page decides.
  const [serverNotFound] = useState(notFoundAt);
  useDocumentTitle(location, serverNotFound === location);
  useEffect(() => {
    // A signal for tests and styles that the page is interactive.
    document.documentElement.dataset.hydrated = "true";
    // Enquiries that met a network failure are sent again now and whenever the browser is back online.
    void flushEnquiryOutbox();
    const onOnline = () => void flushEnquiryOutbox();
    window.addEventListener("online", onOnline);
    return () => window.removeEventListener("online", onOnline);
  }, []);
  useScrollOnNavigation(location);

  const match = serverNotFound === location ? undefined : matchPage(location);
  useCountNavigation(location, match !== undefined);
  const Page = match?.route.component;
  return (
    <SiteLayout>
      <Suspense fallback={<PageLoading />}>
        {match && Page ? (
          <RouteContext value={match}>
            <Page params={match.params} />
          </RouteContext>
        ) : (
          <NotFoundPage />
        )}
      </Suspense>
    </SiteLayout>
  );
}
