/**
 * Category buttons as links, so that a filtered view has an address and works without JavaScript.
 * In an island, `onChoose` filters in place instead of loading the filtered page.
 */
export function CategoryFilter({
  categories,
  active,
  hrefFor,
  label,
  onChoose,
}: {
  categories: string[];
  active: string;
  hrefFor: (category: string) => string;
  label: string;
  onChoose?: (category: string) => void;
}) {
  return (
    <ul className="flex flex-wrap gap-2" aria-label={label}>
      {categories.map((category) => {
        const current = active === category;
        return (
          <li key={category}>
            <a
              href={hrefFor(category)}
              onClick={
                onChoose &&
                ((event) => {
                  event.preventDefault();
                  onChoose(category);
                })
              }
              aria-current={current ? "true" : undefined}
              className={`inline-flex min-h-11 items-center rounded-full border px-4 text-sm font-medium transition-colors ${
                current
                  ? "border-brand-700 bg-brand-700 text-white"
                  : "border-slate-300 bg-white text-slate-700 hover:border-brand-700 hover:text-brand-700"
              }`}
            >
              {category}
            </a>
          </li>
        );
      })}
    </ul>
  );
}
