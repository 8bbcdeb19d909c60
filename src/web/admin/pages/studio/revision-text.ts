import type { HistoryEntryView, RevisionView } from "#shared/admin/pages.ts";
import { formatIndiaDate, formatIndiaDateTime, formatIndiaTime } from "../../format.ts";

// How the studio's pages name a revision and where it came from.

const sources: Record<string, string> = {
  studio: "Saved",
  autosave: "Autosaved",
  restore: "Restored",
  import: "Imported from files",
  seed: "First import from files",
};

/** "Autosaved", "Restored from revision 4". */
export function revisionSource(revision: RevisionView): string {
  const label = sources[revision.source] ?? revision.source;
  return revision.source === "restore" && revision.restoredFrom !== null
    ? `${label} from revision ${revision.restoredFrom}`
    : label;
}

/** "Revision 13 by Meera Shah, 26 Nov 2026, 14:32 IST". */
export function revisionLine(revision: RevisionView): string {
  return `Revision ${revision.number} by ${revision.by}, ${formatIndiaDateTime(revision.at)}`;
}

/**
 * How a History entry came about: "Autosaved 11 times, 10:02–10:12 IST" for a run of autosaves
 * ("10:02 IST" within a minute; the dates named when the run crosses midnight), else as
 * revisionSource says.
 */
export function entrySource(entry: HistoryEntryView): string {
  if (!entry.folded) return revisionSource(entry);
  const { count, firstAt } = entry.folded;
  const sameDay = formatIndiaDate(firstAt) === formatIndiaDate(entry.at);
  const [from, to] = [formatIndiaTime(firstAt), formatIndiaTime(entry.at)];
  const span = !sameDay
    ? `${formatIndiaDateTime(firstAt)} – ${formatIndiaDateTime(entry.at)}`
    : from === to
      ? `${to} IST`
      : `${from}–${to} IST`;
  return `Autosaved ${count.toLocaleString("en-IN")} times, ${span}`;
}
