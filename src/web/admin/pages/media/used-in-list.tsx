import type { MediaUseView } from "#shared/admin/pages.ts";
import { KIND_LABELS } from "./media-words.ts";

/** The items that name a picture, each linked to its editor where there is one: the grid's card and the picture's page. */
export function UsedInList({ uses, className }: { uses: MediaUseView[]; className: string }) {
  return (
    <ul className={className}>
      {uses.map((use) => (
        <li key={`${use.kind}:${use.href ?? use.title}`}>
          <span className="text-slate-600">{KIND_LABELS[use.kind]}: </span>
          {use.href ? (
            <a href={use.href} className="admin-link">
              {use.title}
            </a>
          ) : (
            use.title
          )}
          {use.trashed ? <span className="text-slate-600"> (in the trash)</span> : null}
        </li>
      ))}
    </ul>
  );
}
