// The names of the copies the studio's editor keeps in localStorage (decision 038, section 4):
// `studio:<kind>:<itemId>:<baseRevisionId>`. Kept apart from the rest of the editor's code so the
// back office's script can forget them all at sign-out without loading the editor.

export const COPY_PREFIX = "studio:";

/** A new article has no id nor base yet: its copy is kept under these. */
export const NEW_ITEM = "new";
export const NO_BASE = "0";

export type CopyKey = { kind: string; itemId: string; baseRevisionId: string };

export function copyKey(kind: string, itemId: string, baseRevisionId: string): string {
  return `${COPY_PREFIX}${kind}:${itemId}:${baseRevisionId}`;
}

/** The parts of a copy's key, or undefined for a key that is not one. */
export function parseCopyKey(key: string): CopyKey | undefined {
  const match = /^studio:([a-z-]+):([A-Za-z0-9-]+):(\d+)$/.exec(key);
  return match ? { kind: match[1]!, itemId: match[2]!, baseRevisionId: match[3]! } : undefined;
}

/** The keys of a storage, listed before any is removed (removing shifts the indexes). */
export function storageKeys(storage: Pick<Storage, "length" | "key">): string[] {
  const keys: string[] = [];
  for (let index = 0; index < storage.length; index++) {
    const key = storage.key(index);
    if (key !== null) keys.push(key);
  }
  return keys;
}

/** Forgets every copy (at sign-out): the next person at this browser finds none. */
export function forgetAllCopies(storage: Pick<Storage, "length" | "key" | "removeItem">): void {
  for (const key of storageKeys(storage)) if (key.startsWith(COPY_PREFIX)) storage.removeItem(key);
}
