import type { ReactNode } from "react";
import type { Breadcrumb } from "#shared/page-rendering.ts";
import { Breadcrumbs } from "./breadcrumbs.tsx";

/** The dark band that opens every inner page: breadcrumbs, an eyebrow, the page's h1 and an intro. */
export function PageHero({
  eyebrow,
  title,
  breadcrumbs,
  children,
}: {
  eyebrow: string;
  title: string;
  breadcrumbs?: Breadcrumb[];
  children?: ReactNode;
}) {
  return (
    <section className="relative overflow-hidden bg-navy-900 text-white">
      <div aria-hidden="true" className="hero-grid absolute inset-0 opacity-40" />
      <div className="container-page relative py-14 sm:py-20">
        {breadcrumbs ? (
          <div className="mb-6">
            <Breadcrumbs items={breadcrumbs} />
          </div>
        ) : null}
        <p className="text-sm font-semibold tracking-wider text-amber-accent uppercase">{eyebrow}</p>
        <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">{title}</h1>
        {children ? <div className="mt-5 max-w-2xl text-lg leading-8 text-slate-200">{children}</div> : null}
      </div>
    </section>
  );
}
