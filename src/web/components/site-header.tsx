import { Menu, Search, X, Zap } from "lucide-react";
import { useEffect, useState } from "react";
import { isActivePath, paths, primaryNav } from "#shared/paths.ts";
import { site } from "#shared/site.ts";

const MENU_ID = "site-menu";

/** The top bar (SPEC section 2), an island: its menu button toggles the menu on small screens. */
export function SiteHeader({ path: location }: { path: string }) {
  const [open, setOpen] = useState(false);

  // The open menu closes with Escape and when any link is chosen: one in the menu, the logo, the
  // header's Contact Us, or any other link on the page.
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        document.getElementById("menu-button")?.focus();
      }
    };
    const onClick = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest("a[href]")) setOpen(false);
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("click", onClick);
    };
  }, [open]);

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
          <button
            id="menu-button"
            type="button"
            className="inline-flex size-11 items-center justify-center rounded-md text-navy-900 hover:bg-slate-100 lg:hidden"
            aria-expanded={open}
            aria-controls={MENU_ID}
            onClick={() => setOpen((value) => !value)}
          >
            {open ? <X aria-hidden="true" className="size-6" /> : <Menu aria-hidden="true" className="size-6" />}
            <span className="sr-only">{open ? "Close menu" : "Open menu"}</span>
          </button>
        </div>
      </div>

      <nav
        id={MENU_ID}
        aria-label="Main (mobile)"
        // A class rather than the hidden attribute: without JavaScript the head's noscript style
        // shows this menu, and Tailwind's [hidden] rule is !important in a layer, which nothing overrides.
        className={`border-t border-slate-200 bg-white lg:hidden ${open ? "" : "hidden"}`}
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
