import type { ReactNode } from "react";

/** A closing call to action: a heading, a line of text and its buttons. */
export function CtaBand({ title, children, actions }: { title: string; children: ReactNode; actions: ReactNode }) {
  return (
    <section className="bg-navy-900 text-white">
      <div className="container-page flex flex-col items-start gap-6 py-14 lg:flex-row lg:items-center lg:justify-between">
        <div className="max-w-2xl">
          <h2 className="text-3xl font-bold tracking-tight">{title}</h2>
          <p className="mt-3 text-lg text-slate-200">{children}</p>
        </div>
        <div className="flex flex-wrap gap-3">{actions}</div>
      </div>
    </section>
  );
}
