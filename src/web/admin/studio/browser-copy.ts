import { copyKey, COPY_PREFIX, parseCopyKey, storageKeys } from "./copy-keys.ts";

// The browser's copy of what is being written (decision 038, section 4): written to localStorage
// half a second after each change, removed when a save based on it succeeds, offered back when the
// editor opens with one, and forgotten after 7 days or at sign-out. Pure functions over a Storage,
// so they are tested without a browser.

export type FieldValues = Record<string, string>;

export type BrowserCopy = {
  /** When it was written (ms since 1970). */
  savedAt: number;
  /** The number of the revision it was based on ("based on revision 12"); null for a new article. */
  baseNumber: number | null;
  values: FieldValues;
};

export const COPY_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

type CopyStorage = Pick<Storage, "length" | "key" | "getItem" | "setItem" | "removeItem">;

export function encodeCopy(copy: BrowserCopy): string {
  return JSON.stringify(copy);
}

/** A stored copy, or undefined for anything that is not one (another version's, a hand-edited one). */
export function decodeCopy(text: string | null): BrowserCopy | undefined {
  if (text === null) return undefined;
  try {
    const value = JSON.parse(text) as Partial<BrowserCopy> | null;
    if (
      !value ||
      typeof value.savedAt !== "number" ||
      !(value.baseNumber === null || typeof value.baseNumber === "number") ||
      typeof value.values !== "object" ||
      value.values === null ||
      !Object.values(value.values).every((field) => typeof field === "string")
    )
      return undefined;
    return { savedAt: value.savedAt, baseNumber: value.baseNumber, values: value.values };
  } catch {
    return undefined;
  }
}

export function isExpired(copy: BrowserCopy, now: number): boolean {
  return now - copy.savedAt > COPY_LIFETIME_MS || copy.savedAt > now + COPY_LIFETIME_MS;
}

/** Writes a copy; false when the browser refuses (storage full or turned off). */
export function writeCopy(storage: CopyStorage, key: string, copy: BrowserCopy): boolean {
  try {
    storage.setItem(key, encodeCopy(copy));
    return true;
  } catch {
    return false;
  }
}

/** Removes every studio copy older than 7 days, or unreadable. */
export function sweepCopies(storage: CopyStorage, now: number): void {
  for (const key of storageKeys(storage)) {
    if (!key.startsWith(COPY_PREFIX)) continue;
    const copy = decodeCopy(storage.getItem(key));
    if (!parseCopyKey(key) || !copy || isExpired(copy, now)) storage.removeItem(key);
  }
}

export type FoundCopy = { key: string; baseRevisionId: string; copy: BrowserCopy };

/** The copies kept for one item, the newest first. */
export function copiesOf(storage: CopyStorage, kind: string, itemId: string): FoundCopy[] {
  const found: FoundCopy[] = [];
  for (const key of storageKeys(storage)) {
    const parts = parseCopyKey(key);
    if (!parts || parts.kind !== kind || parts.itemId !== itemId) continue;
    const copy = decodeCopy(storage.getItem(key));
    if (copy) found.push({ key, baseRevisionId: parts.baseRevisionId, copy });
  }
  return found.sort((a, b) => b.copy.savedAt - a.copy.savedAt);
}

export { copyKey };

/** A field as the server keeps it: trimmed, with \n line breaks. */
const normal = (value: string | undefined) => (value ?? "").replace(/\r\n?/g, "\n").trim();

/** The fields whose values differ, in the order given. */
export function changedFields(copy: FieldValues, current: FieldValues, fields: readonly string[]): string[] {
  return fields.filter((field) => normal(copy[field]) !== normal(current[field]));
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

/** How many words one text has that another lacks, and the other way: counted as bags of words. */
export function wordChanges(from: string, to: string): { added: number; removed: number } {
  const counts = new Map<string, number>();
  for (const word of words(from)) counts.set(word, (counts.get(word) ?? 0) + 1);
  let added = 0;
  for (const word of words(to)) {
    const left = counts.get(word) ?? 0;
    if (left > 0) counts.set(word, left - 1);
    else added++;
  }
  let removed = 0;
  for (const left of counts.values()) removed += left;
  return { added, removed };
}

/** "Title", "Title and Body", "Title, Excerpt and Body". */
export function listWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/**
 * What restoring a copy would change, in a line: "Title and Body differ: 120 words added,
 * 30 removed." (added: words the copy has that the editor's text lacks). "" when nothing differs.
 */
export function describeDifference(
  copy: FieldValues,
  current: FieldValues,
  labels: Readonly<Record<string, string>>,
): string {
  const fields = changedFields(copy, current, Object.keys(labels));
  if (!fields.length) return "";
  const { added, removed } = fields.reduce(
    (sum, field) => {
      const change = wordChanges(normal(current[field]), normal(copy[field]));
      return { added: sum.added + change.added, removed: sum.removed + change.removed };
    },
    { added: 0, removed: 0 },
  );
  const names = listWords(fields.map((field) => labels[field]!));
  const verb = fields.length === 1 ? "differs" : "differ";
  const counts = [added ? `${plural(added, "word")} added` : "", removed ? `${plural(removed, "word")} removed` : ""]
    .filter(Boolean)
    .join(", ");
  return `${names} ${verb}${counts ? `: ${counts}` : ""}.`;
}
