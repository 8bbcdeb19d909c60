import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ImageField } from "./image-field.tsx";

// The picture field without a browser: the chosen picture shown by its thumbnail and name, never
// its address, also when the document names a library picture in an older form of its address.

const images = [
  {
    url: "/images/projects/kutch-solar-park.svg",
    key: "36192b0123456789",
    label: "Solar panels in rows on the salt flats of Kutch",
    thumbnail: "/media/36192b0123456789/320.webp",
  },
  {
    url: "/media/0123456789abcdef/original.jpg",
    key: "0123456789abcdef",
    label: "A substation at dusk",
    thumbnail: null,
  },
];

const render = (value: string) =>
  renderToStaticMarkup(<ImageField id="project-image" name="imageUrl" label="Image" value={value} images={images} />);

describe("the picture field", () => {
  it("shows the chosen picture's thumbnail and name", () => {
    const page = render("/images/projects/kutch-solar-park.svg");
    expect(page).toContain('src="/media/36192b0123456789/320.webp"');
    expect(page).toMatch(/data-picture-name="true">Solar panels in rows on the salt flats of Kutch<\/p>/);
    expect(page).toContain(
      '<option value="/images/projects/kutch-solar-park.svg" data-thumbnail="/media/36192b0123456789/320.webp" selected="">Solar panels in rows on the salt flats of Kutch</option>',
    );
  });

  it("recognises a library picture named by an older form of its address, and keeps the value as written", () => {
    const page = render("/media/36192b0123456789/original.png");
    expect(page).toContain('src="/media/36192b0123456789/320.webp"');
    expect(page).toMatch(/data-picture-name="true">Solar panels in rows on the salt flats of Kutch<\/p>/);
    // One option for the picture, holding the value as the document has it: saving changes nothing.
    expect(page).toContain(
      '<option value="/media/36192b0123456789/original.png" data-thumbnail="/media/36192b0123456789/320.webp" selected="">Solar panels in rows on the salt flats of Kutch</option>',
    );
    expect(page).not.toContain('value="/images/projects/kutch-solar-park.svg"');
    expect(page).not.toContain(">/media/36192b0123456789/original.png<");
  });

  it("says an address the library does not know is not in it", () => {
    const page = render("/images/projects/gone.svg");
    expect(page).toMatch(/data-picture-name="true">Not in the media library: \/images\/projects\/gone.svg<\/p>/);
    expect(page).toContain('<option value="/images/projects/gone.svg" selected="">/images/projects/gone.svg</option>');
  });

  it("has a script-shown Choose picture button, and no picture shown when none is chosen", () => {
    const page = render("");
    expect(page).toMatch(/<button type="button" class="admin-button-secondary hidden[^"]*"[^>]*data-picture-choose/);
    expect(page).toContain("No picture chosen.");
    expect(page).toContain('<option value="" selected="">None</option>');
  });
});
