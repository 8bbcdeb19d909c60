import { useEffect } from "react";
import { useLocationProperty } from "wouter/use-browser-location";

// A client-side navigation does what a full page load does: it shows the new page from its top,
// or at the element its #hash names. That element may not exist yet when the address changes (the
// page's code or data is still loading), so it is waited for.

const TARGET_WAIT_MS = 10_000;

const currentHash = () => window.location.hash;

/** Scrolls to the element with this id as soon as it is in the page; returns a function that stops waiting. */
function scrollToElementWhenRendered(id: string): () => void {
  const scrolled = () => {
    const target = document.getElementById(id);
    target?.scrollIntoView();
    return target !== null;
  };
  if (scrolled()) return () => {};
  const observer = new MutationObserver(() => {
    if (scrolled()) stop();
  });
  const timer = setTimeout(() => stop(), TARGET_WAIT_MS);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  return stop;
}

export function useScrollOnNavigation(location: string): void {
  const hash = useLocationProperty(currentHash, () => "");
  useEffect(() => {
    if (!hash) {
      window.scrollTo(0, 0);
      return;
    }
    return scrollToElementWhenRendered(decodeURIComponent(hash.slice(1)));
  }, [location, hash]);
}
