// What a revision changed from the one before it, as History says it ("Title changed; 120 words
// added; cover replaced"). Worked out once, when the revision is saved (appendRevision in
// src/server/content/revisions.ts), and kept in content_revisions.changes, so that a page of 100
// History entries reads a few small values instead of diffing 200 documents of up to 100,000
// characters (docs/decisions/058-history-says-what-changed.md).

/** What changed between two documents of one item. */
export type RevisionChanges = {
  /** The fields whose values differ, in the document's order (the long text and the picture included). */
  fields: string[];
  /** Words of the long text (an article's body, a project's description) added and removed. */
  wordsAdded: number;
  wordsRemoved: number;
  /** What happened to the picture (imageUrl), when it changed. */
  image?: "added" | "replaced" | "removed";
};

/** The field each kind writes at length, counted in words; the field of its picture. */
const LONG_FIELD: Record<string, string> = { article: "body", project: "description" };
const IMAGE_FIELD = "imageUrl";

const textOf = (value: unknown) => (value === null || value === undefined ? "" : String(value));

/**
 * Whether a field differs as a person reads it. A publish date is shown and typed to the minute:
 * the seconds a publish stores, which the editor's next save drops, are no change.
 */
function differs(field: string, before: unknown, after: unknown): boolean {
  const [was, is] = [textOf(before), textOf(after)];
  if (was === is) return false;
  if (field === "publishedAt" && was && is) {
    const minute = (text: string) => Math.floor(Date.parse(text) / 60_000);
    if (!Number.isNaN(minute(was)) && minute(was) === minute(is)) return false;
  }
  return true;
}

/** Each word (a run of non-space characters) and how many times it occurs. */
function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of text.split(/\s+/)) {
    if (word) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

/**
 * Words added and removed between two texts, counted as the difference of their words' counts: a
 * word written once more is one added, a word replaced is one added and one removed, a paragraph
 * moved is nothing. Linear in the texts' length (two passes and a map), so a body at its limit of
 * 100,000 characters costs a few milliseconds, whatever the edit (a diff's time grows with the
 * edit's size times the text's).
 */
export function wordChanges(before: string, after: string): { added: number; removed: number } {
  const old = wordCounts(before);
  let added = 0;
  let removed = 0;
  for (const [word, count] of wordCounts(after)) {
    const was = old.get(word) ?? 0;
    if (count > was) added += count - was;
    else removed += was - count;
    old.delete(word);
  }
  for (const count of old.values()) removed += count;
  return { added, removed };
}

/** What changed from `before` to `after`: both documents of an item of `kind`, with `fields` in their order. */
export function changesBetween(
  kind: string,
  fields: readonly string[],
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): RevisionChanges {
  const changed = fields.filter((field) => differs(field, before[field], after[field]));
  const long = LONG_FIELD[kind];
  const words =
    long && changed.includes(long) ? wordChanges(textOf(before[long]), textOf(after[long])) : { added: 0, removed: 0 };
  const changes: RevisionChanges = { fields: changed, wordsAdded: words.added, wordsRemoved: words.removed };
  if (changed.includes(IMAGE_FIELD)) {
    const had = textOf(before[IMAGE_FIELD]) !== "";
    const has = textOf(after[IMAGE_FIELD]) !== "";
    changes.image = had && has ? "replaced" : has ? "added" : "removed";
  }
  return changes;
}

/**
 * The changes of several revisions in a row (a run of autosaves History shows as one entry): every
 * field any of them changed, and their words added and removed summed. The sum counts a word
 * typed and deleted again within the run as added and removed; a field changed and changed back
 * is named (the entry's Compare shows the net change).
 */
export function combineChanges(list: readonly RevisionChanges[]): RevisionChanges | null {
  if (!list.length) return null;
  const fields: string[] = [];
  let wordsAdded = 0;
  let wordsRemoved = 0;
  let image: RevisionChanges["image"];
  for (const changes of list) {
    for (const field of changes.fields) if (!fields.includes(field)) fields.push(field);
    wordsAdded += changes.wordsAdded;
    wordsRemoved += changes.wordsRemoved;
    if (changes.image) image = image && image !== changes.image ? "replaced" : changes.image;
  }
  return { fields, wordsAdded, wordsRemoved, ...(image ? { image } : {}) };
}

const count = (value: number, one: string, many: string) =>
  `${value.toLocaleString("en-IN")} ${value === 1 ? one : many}`;

/** What History calls the picture of each kind. */
const IMAGE_NOUN: Record<string, string> = { article: "cover", project: "image" };

/**
 * The changes in words: "Title changed; 120 words added; cover replaced", "Body: 3 words
 * removed", "Nothing changed". `labels` are the editor's labels of the kind's fields, `order`
 * the document's fields in order.
 */
export function describeChanges(
  kind: string,
  order: readonly string[],
  labels: Record<string, string>,
  changes: RevisionChanges,
): string {
  const long = LONG_FIELD[kind];
  const parts: string[] = [];
  for (const field of order) {
    if (!changes.fields.includes(field)) continue;
    if (field === long) {
      const words = [
        changes.wordsAdded ? count(changes.wordsAdded, "word added", "words added") : "",
        changes.wordsRemoved ? count(changes.wordsRemoved, "word removed", "words removed") : "",
      ].filter(Boolean);
      parts.push(words.length ? words.join(", ") : `${(labels[field] ?? field).toLowerCase()} changed`);
    } else if (field === IMAGE_FIELD && changes.image) {
      parts.push(`${IMAGE_NOUN[kind] ?? "picture"} ${changes.image}`);
    } else {
      parts.push(`${(labels[field] ?? field).toLowerCase()} changed`);
    }
  }
  if (!parts.length) return "Nothing changed";
  // The long text's words alone: name the field ("Body: 3 words removed").
  const onlyWords =
    changes.fields.length === 1 && changes.fields[0] === long && /words? (added|removed)/.test(parts[0]!);
  const text = onlyWords ? `${labels[long!] ?? long}: ${parts[0]}` : parts.join("; ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
