import type { LinkCard } from "#shared/link-card.ts";
import { ByteCache } from "../media/byte-cache.ts";
import { drawCard } from "./draw-card.ts";

// Makes each card once per instance (docs/decisions/053-link-preview-cards.md): the bytes are kept
// by address (an address names fixed bytes, so they never go stale and survive a content change),
// a burst of first requests for one card waits on the one drawing (single flight), and cards are
// drawn one at a time, so satori's layout holds the event loop for one card's tens of ms at most.

/** The bytes this instance keeps of the cards it made (about 50–100 KB a card). */
export const CARD_BYTE_CACHE = 16 * 1024 * 1024;
/** Cards waiting to be drawn beyond which a request is told to come back (503). */
export const MAX_CARDS_WAITING = 64;

export class CardsBusy extends Error {
  constructor() {
    super("The server is busy drawing other cards. Please try again in a few seconds.");
  }
}

export type CardMakerOptions = {
  /** The author's photo for a card that has one (undefined: drawn with their initials). */
  photoOf: (reference: string) => Promise<Buffer | undefined>;
  /** The drawing (tests count or slow it). */
  draw?: (card: LinkCard, photo?: Buffer) => Promise<Buffer>;
  maxBytes?: number;
  maxWaiting?: number;
};

export class CardMaker {
  private readonly cache: ByteCache;
  private readonly making = new Map<string, Promise<Buffer>>();
  private line: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  /** How many cards this instance has drawn (tests read it). */
  drawn = 0;

  constructor(private readonly options: CardMakerOptions) {
    this.cache = new ByteCache(options.maxBytes ?? CARD_BYTE_CACHE);
  }

  /** The card's JPEG at `address`, drawn now unless kept or being drawn; throws CardsBusy. */
  async get(address: string, card: LinkCard): Promise<Buffer> {
    const kept = this.cache.get(address)?.bytes;
    if (kept) return kept;
    const running = this.making.get(address);
    if (running) return running;
    if (this.waiting >= (this.options.maxWaiting ?? MAX_CARDS_WAITING)) throw new CardsBusy();
    this.waiting += 1;
    const work = this.line
      .catch(() => undefined)
      .then(async () => {
        const photo = card.author?.photo ? await this.options.photoOf(card.author.photo) : undefined;
        this.drawn += 1;
        return (this.options.draw ?? drawCard)(card, photo);
      });
    this.line = work;
    this.making.set(address, work);
    try {
      const bytes = await work;
      this.cache.set(address, { contentType: "image/jpeg", bytes });
      return bytes;
    } finally {
      this.waiting -= 1;
      this.making.delete(address);
    }
  }

  get kept(): { entries: number; bytes: number } {
    return this.cache.size;
  }
}
