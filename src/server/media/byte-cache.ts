// A small in-process cache of picture files by their address, bounded by the bytes it holds: the
// least recently served go first. A hot picture is then served without a database read. Its
// entries never go stale (an address names fixed bytes), but the cache is emptied when the content
// version moves, so a deleted picture stops being served here at the next change.

export type CachedFile = { contentType: string; bytes: Buffer };

export class ByteCache {
  private readonly entries = new Map<string, CachedFile>();
  private held = 0;

  constructor(readonly maxBytes: number) {}

  get(address: string): CachedFile | undefined {
    const entry = this.entries.get(address);
    if (!entry) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(address);
    this.entries.set(address, entry);
    return entry;
  }

  set(address: string, file: CachedFile): void {
    // A file larger than an eighth of the cache would push out too much: served, not kept.
    if (file.bytes.length > this.maxBytes / 8) return;
    this.delete(address);
    this.entries.set(address, file);
    this.held += file.bytes.length;
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.held -= entry.bytes.length;
    }
  }

  delete(address: string): void {
    const entry = this.entries.get(address);
    if (!entry) return;
    this.entries.delete(address);
    this.held -= entry.bytes.length;
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.held };
  }
}
