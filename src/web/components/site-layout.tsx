import type { ReactNode } from "react";
import { Island } from "../islands/island.tsx";
import { usePath } from "../lib/page-context.ts";
import { SiteFooter } from "./site-footer.tsx";
import { SiteHeader } from "./site-header.tsx";

export function SiteLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-navy-900 px-4 py-2 text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <SiteHeader path={usePath()} />
      <main id="main" tabIndex={-1} className="min-h-[60vh] pt-16 focus:outline-none">
        {children}
      </main>
      <Island name="consultationButton" props={{}} />
      <SiteFooter />
    </>
  );
}
