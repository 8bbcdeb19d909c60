import { describe, expect, it } from "vitest";
import type { LinkCard } from "#shared/link-card.ts";
import { CardMaker, CardsBusy } from "./card-maker.ts";
import { cardHash } from "./card-address.ts";

const card = (title: string): LinkCard => ({ kind: "page", title, label: "Services" });

describe("the card maker", () => {
  it("draws one card once for a burst of first requests, one card at a time, and keeps it", async () => {
    let running = 0;
    let most = 0;
    const drawn: string[] = [];
    const maker = new CardMaker({
      photoOf: async () => undefined,
      async draw(shown) {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        drawn.push(shown.title);
        return Buffer.from(shown.title);
      },
    });
    const answers = await Promise.all([
      ...Array.from({ length: 100 }, () => maker.get("a", card("A"))),
      ...Array.from({ length: 10 }, () => maker.get("b", card("B"))),
    ]);
    expect(new Set(answers.map(String))).toEqual(new Set(["A", "B"]));
    expect(drawn).toEqual(["A", "B"]);
    expect(most).toBe(1);
    expect(String(await maker.get("a", card("A")))).toBe("A");
    expect(maker.drawn).toBe(2);
  });

  it("turns away requests past its line, and draws again after a failed drawing", async () => {
    let fail = true;
    const maker = new CardMaker({
      photoOf: async () => undefined,
      maxWaiting: 2,
      async draw(shown) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (fail) throw new Error("broken");
        return Buffer.from(shown.title);
      },
    });
    const first = maker.get("a", card("A"));
    const second = maker.get("b", card("B"));
    await expect(maker.get("c", card("C"))).rejects.toBeInstanceOf(CardsBusy);
    await expect(first).rejects.toThrow("broken");
    await expect(second).rejects.toThrow("broken");
    fail = false;
    expect(String(await maker.get("a", card("A")))).toBe("A");
  });

  it("gives a card a new hash when anything it shows changes", () => {
    const base: LinkCard = { kind: "article", title: "T", label: "L", author: { name: "N", photo: null } };
    const hashes = new Set(
      [
        base,
        { ...base, title: "T2" },
        { ...base, label: "L2" },
        { ...base, author: { name: "N2", photo: null } },
        { ...base, author: { name: "N", photo: "/media/0123456789abcdef/original.jpg" } },
        { ...base, kind: "project" as const, author: undefined, capacity: "5 MW" },
      ].map(cardHash),
    );
    expect(hashes.size).toBe(6);
    expect(cardHash({ ...base })).toBe(cardHash(base));
  });
});
