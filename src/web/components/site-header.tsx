import { Search, Zap } from "lucide-react";
import { Island } from "../islands/island.tsx";
import { MENU_ID } from "./menu-button.tsx";
import { isActivePath, paths, primaryNav } from "#shared/paths.ts";
import { site } from "#shared/site.ts";

/**
 * The top bar (SPEC section 2), drawn by the server; only its menu button, which shows and hides
 * the menu on small screens, is an island (menu-button.tsx).
 */
export function SiteHeader({ path: location }: { path: string }) {
  const linkClass = (active: boolean) =>
    `rounded-md px-3 py-2 text-sm font-medium transition-colors ${
      active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100 hover:text-navy-900"
    }`;

  return (
    <header id="site-header" className="fixed inset-x-0 top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="container-page flex h-16 items-center justify-between gap-4">
        <a href={paths.home} className="flex items-center gap-2 text-navy-900">
          <span className="flex size-9 items-center justify-center rounded-lg bg-navy-900 text-amber-accent">
            <Zap aria-hidden="true" className="size-5" />
          </span>
          <span className="leading-tight">
            <span className="block text-base font-bold">{site.shortName}</span>
            <span className="block text-xs text-slate-600">{site.tagline}</span>
          </span>
        </a>

        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {primaryNav.map((item) => {
              const active = isActivePath(item.href, location);
              return (
                <li key={item.href}>
                  <a href={item.href} className={linkClass(active)} aria-current={active ? "page" : undefined}>
                    {item.label}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>

        <div className="flex items-center gap-2">
          {/* The site search (docs/decisions/054-site-search.md): a plain GET form, so it works
              without JavaScript; where the header has no room, a link to the search page. */}
          <form method="get" action={paths.search} role="search" aria-label="Site" className="hidden xl:flex">
            <label htmlFor="header-search" className="sr-only">
              Search the site
            </label>
            <input
              id="header-search"
              type="search"
              name="q"
              placeholder="Search"
              className="h-10 w-36 rounded-l-md border border-r-0 border-slate-300 bg-white px-3 text-sm text-slate-900 placeholder:text-slate-500 focus:border-brand-600"
            />
            <button
              type="submit"
              className="inline-flex h-10 w-10 items-center justify-center rounded-r-md border border-slate-300 bg-slate-50 text-navy-900 hover:bg-slate-100"
            >
              <Search aria-hidden="true" className="size-4" />
              <span className="sr-only">Search</span>
            </button>
          </form>
          <a
            href={paths.search}
            className="inline-flex size-11 items-center justify-center rounded-md text-navy-900 hover:bg-slate-100 xl:hidden"
            aria-current={isActivePath(paths.search, location) ? "page" : undefined}
          >
            <Search aria-hidden="true" className="size-5" />
            <span className="sr-only">Search</span>
          </a>
          <a
            href={paths.contact}
            className="btn-primary hidden sm:inline-flex"
            aria-current={isActivePath(paths.contact, location) ? "page" : undefined}
          >
            Contact Us
          </a>
          <Island name="menuButton" props={{}} />
        </div>
      </div>

      <nav
        id={MENU_ID}
        aria-label="Main (mobile)"
        // Hidden until the menu button shows it (a class: see menu-button.tsx).
        className="hidden border-t border-slate-200 bg-white lg:hidden"
      >
        <ul className="container-page flex flex-col gap-1 py-3">
          {[...primaryNav, { href: paths.contact, label: "Contact Us" }].map((item) => {
            const active = isActivePath(item.href, location);
            return (
              <li key={item.href}>
                <a
                  href={item.href}
                  className={`block ${linkClass(active)} py-3 text-base`}
                  aria-current={active ? "page" : undefined}
                >
                  {item.label}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
    </header>
  );
}
