import { describe, expect, it } from "vitest";
import { isForeignPictureAddress, ownPictureAddresses } from "./pasted-addresses.ts";

const origin = "https://www.example.test";
const key = "36192b0123456789";

describe("addresses pasted into the Body", () => {
  it("makes the site's own picture addresses relative, as the reference content stores", () => {
    expect(ownPictureAddresses(`![Bay](${origin}/media/${key}/original.png)`, origin)).toEqual({
      text: `![Bay](/media/${key}/original.png)`,
      changed: 1,
    });
    // A width the browser copied from the page's srcset names the same picture.
    expect(ownPictureAddresses(`See ![Bay](${origin}/media/${key}/640.webp?v=1) and more`, origin)).toEqual({
      text: `See ![Bay](/media/${key}/original.webp) and more`,
      changed: 1,
    });
  });

  it("makes a bare address pasted alone a picture, whose alt text is then the library's", () => {
    expect(ownPictureAddresses(` ${origin}/media/${key}/1280.jpg\n`, origin)).toEqual({
      text: `![](/media/${key}/original.jpg)`,
      changed: 1,
    });
  });

  it("leaves other text and other sites' addresses as they are", () => {
    const text = `A link to [the contact page](${origin}/contact) and https://elsewhere.example/media/${key}/original.png`;
    expect(ownPictureAddresses(text, origin)).toEqual({ text, changed: 0 });
    expect(ownPictureAddresses(`${origin}/media/not-a-key/original.png`, origin).changed).toBe(0);
  });

  it("knows a picture's address on another site, which the pages will not show", () => {
    expect(isForeignPictureAddress("https://elsewhere.example/photo.jpg", origin)).toBe(true);
    expect(isForeignPictureAddress(`${origin}/media/${key}/original.png`, origin)).toBe(false);
    expect(isForeignPictureAddress("https://elsewhere.example/article", origin)).toBe(false);
    expect(isForeignPictureAddress("some words and https://elsewhere.example/photo.jpg", origin)).toBe(false);
  });
});
