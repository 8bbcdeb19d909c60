import { describe, expect, it } from "vitest";
import {
  type BrowserCopy,
  changedFields,
  COPY_LIFETIME_MS,
  copiesOf,
  decodeCopy,
  describeDifference,
  encodeCopy,
  sweepCopies,
  wordChanges,
  writeCopy,
} from "./browser-copy.ts";
import { copyKey, forgetAllCopies, parseCopyKey } from "./copy-keys.ts";

// The browser's copy of unsaved text: its key, its expiry, which copies belong to an article, and
// the line that says what restoring one would change. The storage is a plain in-memory one with
// localStorage's interface (Node has no localStorage).

class MemoryStorage implements Storage {
  #items = new Map<string, string>();
  full = false;
  get length() {
    return this.#items.size;
  }
  key(index: number) {
    return [...this.#items.keys()][index] ?? null;
  }
  getItem(key: string) {
    return this.#items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    if (this.full) throw new DOMException("full", "QuotaExceededError");
    this.#items.set(key, value);
  }
  removeItem(key: string) {
    this.#items.delete(key);
  }
  clear() {
    this.#items.clear();
  }
  keys() {
    return [...this.#items.keys()].sort();
  }
}

const now = Date.parse("2026-11-26T09:00:00Z");
const copy = (savedAt: number, values: Record<string, string> = { title: "T", body: "b" }): BrowserCopy => ({
  savedAt,
  baseNumber: 12,
  values,
});

describe("the copy's key", () => {
  it("is studio:<kind>:<id>:<base>, and only such keys parse", () => {
    const id = "0b6f1f0e-3a53-4d0c-9a53-0e6c2f7f2a11";
    expect(copyKey("article", id, "112")).toBe(`studio:article:${id}:112`);
    expect(parseCopyKey(`studio:article:${id}:112`)).toEqual({ kind: "article", itemId: id, baseRevisionId: "112" });
    expect(parseCopyKey("studio:article:new:0")).toEqual({ kind: "article", itemId: "new", baseRevisionId: "0" });
    for (const other of ["studio:article:x", "studio:article:a:b", "other:article:a:1", `studio:article:${id}:1:2`])
      expect(parseCopyKey(other), other).toBeUndefined();
  });
});

describe("the stored copy", () => {
  it("reads back what was written, and nothing that is not a copy", () => {
    const written = copy(now);
    expect(decodeCopy(encodeCopy(written))).toEqual(written);
    for (const text of [
      null,
      "",
      "{",
      "null",
      "[]",
      '{"savedAt":"x","baseNumber":1,"values":{}}',
      '{"savedAt":1,"baseNumber":1,"values":{"a":1}}',
    ])
      expect(decodeCopy(text), String(text)).toBeUndefined();
  });

  it("is kept 7 days: sweeping removes older copies, unreadable ones and bad keys, and nothing else", () => {
    const storage = new MemoryStorage();
    storage.setItem("studio:article:a:1", encodeCopy(copy(now - COPY_LIFETIME_MS + 1000)));
    storage.setItem("studio:article:b:1", encodeCopy(copy(now - COPY_LIFETIME_MS - 1000)));
    storage.setItem("studio:article:c:1", "not json");
    storage.setItem("studio:nonsense", encodeCopy(copy(now)));
    storage.setItem("theme", "dark");
    sweepCopies(storage, now);
    expect(storage.keys()).toEqual(["studio:article:a:1", "theme"]);
  });

  it("lists an article's copies newest first, and no other article's", () => {
    const storage = new MemoryStorage();
    storage.setItem("studio:article:a:11", encodeCopy(copy(now - 5000)));
    storage.setItem("studio:article:a:12", encodeCopy(copy(now)));
    storage.setItem("studio:article:ab:12", encodeCopy(copy(now)));
    storage.setItem("studio:project:a:12", encodeCopy(copy(now)));
    expect(copiesOf(storage, "article", "a").map((found) => found.baseRevisionId)).toEqual(["12", "11"]);
  });

  it("is not written when storage is full, and says so", () => {
    const storage = new MemoryStorage();
    storage.full = true;
    expect(writeCopy(storage, "studio:article:a:1", copy(now))).toBe(false);
    storage.full = false;
    expect(writeCopy(storage, "studio:article:a:1", copy(now))).toBe(true);
  });

  it("is forgotten at sign-out, every one, and nothing else is", () => {
    const storage = new MemoryStorage();
    for (const key of ["studio:article:a:1", "studio:article:b:2", "studio:article:new:0", "theme"])
      storage.setItem(key, "x");
    forgetAllCopies(storage);
    expect(storage.keys()).toEqual(["theme"]);
  });
});

describe("what restoring a copy would change", () => {
  const labels = { title: "Title", excerpt: "Excerpt", body: "Body" };

  it("counts words added and removed as bags of words", () => {
    expect(wordChanges("the grid code sets rules", "the grid code sets the rules today")).toEqual({
      added: 2,
      removed: 0,
    });
    expect(wordChanges("a b c", "c b")).toEqual({ added: 0, removed: 1 });
    expect(wordChanges("", "")).toEqual({ added: 0, removed: 0 });
  });

  it("names the fields that differ and the words, ignoring what the server ignores (spaces at the ends, \\r\\n)", () => {
    const current = { title: "Grid code", excerpt: "Short.", body: "One two three." };
    expect(describeDifference({ ...current, body: "One two three. Four five." }, current, labels)).toBe(
      "Body differs: 2 words added.",
    );
    expect(describeDifference({ ...current, body: "One two three, four." }, current, labels)).toBe(
      "Body differs: 2 words added, 1 word removed.",
    );
    expect(describeDifference({ ...current, title: "Grid codes", body: "One three." }, current, labels)).toBe(
      "Title and Body differ: 1 word added, 2 words removed.",
    );
    expect(
      describeDifference({ title: "Grid code ", excerpt: "Short.\r\n", body: "One two three." }, current, labels),
    ).toBe("");
    expect(changedFields({ title: "x" }, { title: "x", body: "y" }, ["title", "body"])).toEqual(["body"]);
    // A change of order alone: the field differs, no word is new.
    expect(describeDifference({ ...current, body: "three two One." }, current, labels)).toBe(
      "Body differs: 2 words added, 2 words removed.",
    );
  });
});
