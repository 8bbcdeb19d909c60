import type { ReactNode } from "react";
import type { AdminViewer } from "#shared/admin/pages.ts";
import { adminHref, adminNavigation, type AdminRouteName } from "#shared/admin/routes.ts";
import { site } from "#shared/site.ts";
import { MailFailingBanner } from "./mail-banner.tsx";

/** A page behind the sign-in: the header with the firm, the person and "Sign out", and the navigation. */
export function AdminLayout({
  viewer,
  current,
  children,
}: {
  viewer: AdminViewer;
  /** The navigation entry this page belongs to, marked as the current page. */
  current?: AdminRouteName;
  children: ReactNode;
}) {
  const items = adminNavigation(viewer);
  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-navy-900 px-4 py-2 text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <header className="bg-navy-900 text-white">
        <div className="admin-container flex flex-wrap items-center justify-between gap-3 py-3">
          <a href={adminHref("inbox")} className="font-bold text-white">
            {site.name} <span className="font-normal text-slate-300">back office</span>
          </a>
          <div className="flex items-center gap-3 text-sm">
            <a href={adminHref("account")} className="text-white underline-offset-2 hover:underline">
              {viewer.name}
            </a>
            <form method="post" action={adminHref("signOut")}>
              <button
                type="submit"
                className="rounded-md border border-white/40 px-3 py-1.5 font-semibold text-white hover:bg-white/10"
              >
                Sign out
              </button>
            </form>
          </div>
        </div>
        {/* One row at every width: below 640 px it scrolls sideways within itself (admin.css,
            .admin-nav), the current entry brought into view by admin-client.ts. */}
        <nav aria-label="Back office" className="admin-nav border-t border-white/15">
          <ul className="admin-container flex gap-x-1 py-1 text-sm">
            {items.map((item) => {
              const active = item.name === current;
              return (
                <li key={item.name}>
                  <a
                    href={item.href}
                    aria-current={active ? "page" : undefined}
                    className={`inline-block rounded-md px-3 py-2 font-medium whitespace-nowrap ${active ? "bg-white text-navy-900" : "text-slate-100 hover:bg-white/10"}`}
                  >
                    {item.label}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
      </header>
      <MailFailingBanner viewer={viewer} />
      <main id="main" tabIndex={-1} className="admin-container py-6 focus:outline-none">
        {children}
      </main>
    </>
  );
}

/** A page before the sign-in (sign-in, invitation, one-time link): the firm's name and one card. */
export function DoorLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <header className="bg-navy-900 text-white">
        <div className="admin-container py-4 font-bold">
          {site.name} <span className="font-normal text-slate-300">back office</span>
        </div>
      </header>
      <main id="main" className="admin-container flex justify-center py-10">
        <div className="admin-card w-full max-w-md">{children}</div>
      </main>
    </>
  );
}

/** Where a passkey ceremony's progress and problems are announced (admin-client.ts writes here). */
export function PasskeyStatus() {
  return <p data-passkey-status role="status" aria-live="polite" className="mt-3 min-h-5 text-sm text-slate-700" />;
}
