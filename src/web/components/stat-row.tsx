type Stat = { readonly value: string; readonly label: string };

/** A row of headline figures (SPEC section 9). */
export function StatRow({
  stats,
  tone = "light",
  columns = 4,
}: {
  stats: readonly Stat[];
  tone?: "light" | "dark";
  /** Four across on wide screens, or two by two (inside a half-width column). */
  columns?: 2 | 4;
}) {
  return (
    <dl className={`grid grid-cols-2 gap-4 ${columns === 4 ? "lg:grid-cols-4" : ""}`}>
      {stats.map((stat) => (
        <div
          key={stat.label}
          className={`rounded-xl p-5 text-center ${tone === "dark" ? "bg-white/10 text-white" : "border border-slate-200 bg-white"}`}
        >
          <dt className={`text-sm ${tone === "dark" ? "text-slate-200" : "text-slate-600"}`}>{stat.label}</dt>
          <dd
            className={`order-first text-3xl font-bold sm:text-4xl ${tone === "dark" ? "text-amber-accent" : "text-brand-700"}`}
          >
            {stat.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
