import { useQueryClient } from "@tanstack/react-query";
import { Suspense, useEffect } from "react";
import { Route, Switch, useLocation } from "wouter";
import { SiteLayout } from "./components/site-layout.tsx";
import { flushEnquiryOutbox } from "./lib/enquiry-outbox.ts";
import { useScrollOnNavigation } from "./lib/scroll-on-navigation.ts";
import { Spinner } from "./ui/spinner.tsx";
import { NotFoundPage } from "./pages/not-found/not-found-page.tsx";
import { matchPageRoute, notFoundMeta, pageRoutes } from "./routes.tsx";

/** The document title for a path, from the route's meta and whatever data is already loaded. */
function useDocumentTitle(location: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const update = () => {
      const match = matchPageRoute(location);
      const meta = match ? match.route.meta(match.params, (key) => queryClient.getQueryData([key])) : null;
      document.title = (meta ?? notFoundMeta).title;
    };
    update();
    return queryClient.getQueryCache().subscribe(update);
  }, [location, queryClient]);
}

function PageLoading() {
  return (
    <div role="status" className="container-page flex justify-center py-32 text-slate-600">
      <Spinner className="size-8 text-brand-700" />
      <span className="sr-only">Loading page</span>
    </div>
  );
}

export function App() {
  const [location] = useLocation();
  useDocumentTitle(location);
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

  return (
    <SiteLayout>
      <Suspense fallback={<PageLoading />}>
        <Switch>
          {pageRoutes.map((route) => (
            <Route key={route.path} path={route.path} component={route.component} />
          ))}
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
    </SiteLayout>
  );
}
