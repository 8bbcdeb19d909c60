import { ChevronRight } from "lucide-react";
import type { Breadcrumb } from "#shared/page-rendering.ts";

/** The visible trail on inner pages; the last step is the current page. */
export function Breadcrumbs({ items, tone = "dark" }: { items: Breadcrumb[]; tone?: "dark" | "light" }) {
  const linkClass = tone === "dark" ? "text-slate-200 hover:text-white" : "text-slate-600 hover:text-brand-700";
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <ol className="flex flex-wrap items-center gap-1.5">
        {items.map((item, index) => {
          const last = index === items.length - 1;
          return (
            <li key={item.path} className="flex items-center gap-1.5">
              {index > 0 ? <ChevronRight aria-hidden="true" className="size-4 text-slate-400" /> : null}
              {last ? (
                <span aria-current="page" className={tone === "dark" ? "text-white" : "text-slate-900"}>
                  {item.name}
                </span>
              ) : (
                <a href={item.path} className={`underline-offset-4 hover:underline ${linkClass}`}>
                  {item.name}
                </a>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
