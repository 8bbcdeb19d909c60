import type { ReactNode } from "react";

/**
 * A page's heading: the h1, what stands beside it (`meta`: a reference, a badge; each element
 * right after the h1), buttons at the far side (`actions`) and a line under it (`description`).
 */
export function PageHeader({
  title,
  meta,
  actions,
  description,
}: {
  title: ReactNode;
  meta?: ReactNode;
  actions?: ReactNode;
  description?: ReactNode;
}) {
  const heading = <h1 className="text-2xl font-bold text-navy-900">{title}</h1>;
  return (
    <>
      {meta || actions ? (
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          {meta ? (
            <div className="flex flex-wrap items-baseline gap-3">
              {heading}
              {meta}
            </div>
          ) : (
            heading
          )}
          {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
        </div>
      ) : (
        heading
      )}
      {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
    </>
  );
}
