// The only script a page asks for up front, a few hundred bytes. The server-rendered page is
// complete without JavaScript, so the code that hydrates it is fetched once the first frame has
// been painted: on a slow connection the HTML, the CSS and the first image get the bandwidth,
// and the scripts follow. The page's modules are imported together, so they arrive in one round
// trip rather than a chain of imports, and each is evaluated as it arrives: several short tasks
// instead of one long one.

type PageScripts = { entry: string; modules: string[] };

const manifest = document.getElementById("page-scripts")?.textContent;
if (manifest) {
  const { entry, modules } = JSON.parse(manifest) as PageScripts;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    // One import per task: on a mid-range phone each import() call costs the main thread a few
    // milliseconds, and twenty in one go would block it for a tenth of a second.
    // The entry last: imported first, its whole graph (React DOM, the framework, the site's code)
    // would be evaluated in one long task once everything had arrived; this way each shared module
    // is evaluated on its own as it arrives.
    const queue = [...modules, entry];
    const importNext = () => {
      const href = queue.shift();
      if (href === undefined) return;
      void import(/* @vite-ignore */ href);
      setTimeout(importNext, 0);
    };
    importNext();
  };
  // Once the browser reports the first contentful paint; where it reports no paint timing, after
  // the next frame (a callback before it, then a task after it).
  if (PerformanceObserver.supportedEntryTypes?.includes("paint")) {
    new PerformanceObserver((entries, observer) => {
      if (entries.getEntriesByName("first-contentful-paint").length === 0) return;
      observer.disconnect();
      start();
    }).observe({ type: "paint", buffered: true });
  } else {
    requestAnimationFrame(() => setTimeout(start, 0));
  }
  // A page opened in a background tab paints nothing until it is shown; it is hydrated all the same.
  setTimeout(start, 1500);
}
