import { indiaTimeLabel } from "./studio/studio-time.ts";

// What a save refused because someone else saved first says (decision 028: conflicting edits by
// version), in the same words wherever it happens: who saved, when (India time, with the day when
// not today) and, where saves are numbered revisions, which. Each form adds what it keeps ("Your
// text is still in the form.").

/** "Changed by Meera Shah at 14:32 (revision 7), so your change was not saved." */
export function savedFirstMessage(current: { by: string; at: Date; number?: number }, now: Date): string {
  const revision = current.number === undefined ? "" : ` (revision ${current.number})`;
  return `Changed by ${current.by} at ${indiaTimeLabel(current.at, now)}${revision}, so your change was not saved.`;
}
