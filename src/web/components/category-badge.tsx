import { RENEWABLE_CATEGORY } from "#shared/site.ts";

/**
 * SPEC section 3: 'Renewable Energy' green, any other category blue. Both pairs keep text
 * contrast above 4.5:1 (green-800 on green-100: 6.5:1; blue-800 on blue-100: 7.6:1).
 */
export function CategoryBadge({ category, className = "" }: { category: string; className?: string }) {
  const renewable = category === RENEWABLE_CATEGORY;
  return (
    <span
      data-badge={renewable ? "green" : "blue"}
      className={[
        "inline-flex items-center rounded-full px-3 py-1 text-xs font-semibold",
        renewable ? "bg-green-100 text-green-800" : "bg-blue-100 text-blue-800",
        className,
      ]
        .filter(Boolean)
        .join(" ")}
    >
      {category}
    </span>
  );
}
