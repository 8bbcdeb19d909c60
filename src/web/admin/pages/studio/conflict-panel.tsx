import type { RevisionView } from "#shared/admin/pages.ts";
import { formatIndiaDateTime } from "../../format.ts";

// A save refused because someone saved first (decision 038, section 4): who and when, and for
// each field that differs, the text this person sent (kept in the editor below) beside the text
// the other person saved. Nothing is merged: the next save, based on their revision, decides.
// The same for every kind (articles and projects in the studio's editor, the team's form): each
// gives its fields, their labels and how a value reads.

const normal = (value: string) => value.replace(/\r\n?/g, "\n").trim();

export function ConflictPanel({
  compareHref,
  place = "editor",
  current,
  names,
  labels,
  mine,
  theirs,
  readable,
  yours = false,
}: {
  /** Where the two revisions are compared (the studio's Compare), when the kind has such a page and the base differs. */
  compareHref?: string | undefined;
  /** Where the person's text is kept: the studio's editor (whose revisions stay in History), or a kind's plain form. */
  place?: "editor" | "form";
  /** The revision that was saved meanwhile. */
  current: RevisionView;
  /** The form's fields, in order, and their labels. */
  names: readonly string[];
  labels: Readonly<Record<string, string>>;
  /** What this person sent, as the form holds it; and the other revision's, as the form would hold it. */
  mine: Readonly<Record<string, string>>;
  theirs: Readonly<Record<string, string>>;
  /** What a field's value reads as, for people (an author's name rather than their slug). */
  readable: (name: string, value: string) => string;
  /** The newer revision is this person's own (saved from another window of theirs): told so, not as someone else's. */
  yours?: boolean;
}) {
  const changed = names.filter((name) => normal(mine[name] ?? "") !== normal(theirs[name] ?? ""));
  // The studio's revisions stay in History; a form's kind has none to show.
  const kept = place === "editor" ? ", which stays in History" : "";
  return (
    <section aria-labelledby="conflict-heading" className="admin-card mb-4 border-amber-400 bg-amber-50" data-conflict>
      <h2 id="conflict-heading" className="text-lg font-semibold text-amber-950">
        {yours ? "Your newer version, saved at" : `Changed by ${current.by} at`} {formatIndiaDateTime(current.at)}
      </h2>
      {yours ? (
        <p className="mt-1 text-sm text-amber-950">
          You saved revision {current.number} in another window, or from a newer page, so this change was not saved.
          This text is kept in the {place} below; the one you saved is shown beside it. Make the {place} say what it
          should, then save again: your save will replace revision {current.number}
          {kept}.
        </p>
      ) : (
        <p className="mt-1 text-sm text-amber-950">
          {current.by} saved revision {current.number} while you were {place === "editor" ? "writing" : "editing"}, so
          your change was not saved. Your text is kept in the {place} below; theirs is shown beside it. Make the {place}{" "}
          say what it should, then save again: your save will replace revision {current.number}
          {kept}.
        </p>
      )}
      {compareHref ? (
        <p className="mt-2 text-sm">
          <a href={compareHref} className="admin-link">
            {yours
              ? "What changed between this page's revision and your newer one"
              : "What changed between your revision and theirs"}
          </a>
        </p>
      ) : null}
      {changed.length === 0 ? (
        <p className="mt-3 text-sm">
          {yours
            ? "The text you saved is the same as this in every field."
            : "Their text is the same as yours in every field."}
        </p>
      ) : (
        changed.map((name) => (
          <div key={name} className="mt-4">
            <h3 className="text-sm font-semibold text-slate-900">{labels[name]}</h3>
            <div className="mt-1 grid gap-3 md:grid-cols-2">
              <figure className="min-w-0">
                <figcaption className="text-xs font-medium text-slate-700">Your text (in the {place})</figcaption>
                <div className="studio-text" data-conflict-mine={name}>
                  {readable(name, mine[name] ?? "") || <span className="text-slate-500">(empty)</span>}
                </div>
              </figure>
              <figure className="min-w-0">
                <figcaption className="text-xs font-medium text-slate-700">
                  {yours ? "Your saved text" : "Their text"} (revision {current.number})
                </figcaption>
                <div className="studio-text" data-conflict-theirs={name}>
                  {readable(name, theirs[name] ?? "") || <span className="text-slate-500">(empty)</span>}
                </div>
              </figure>
            </div>
          </div>
        ))
      )}
    </section>
  );
}
