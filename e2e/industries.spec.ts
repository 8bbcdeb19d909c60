import { expectInDocumentOrder } from "./document-order.ts";
import { expect, test } from "./fixtures.ts";

test("industries has four industries with services, projects and a button, the stats and the cross-industry cards", async ({
  page,
}) => {
  await page.goto("/industries");
  for (const [value, label] of [
    ["50+", "Utility Partners"],
    ["2GW+", "Renewable Capacity"],
    ["100+", "Industrial Projects"],
    ["500+", "Commercial Clients"],
  ]) {
    await expect(page.getByText(value!, { exact: true })).toBeVisible();
    await expect(page.getByText(label!, { exact: true })).toBeVisible();
  }
  for (const industry of ["Utilities", "Renewables", "Industrial", "Commercial"]) {
    const section = page.locator("section", {
      has: page.getByRole("heading", { level: 2, name: industry, exact: true }),
    });
    await expect(section.getByRole("heading", { name: "Key Services" })).toBeVisible();
    await expect(section.getByRole("heading", { name: "Recent Projects" })).toBeVisible();
    await expect(section.getByRole("link", { name: "Discuss Your Project" })).toHaveAttribute("href", "/contact");
  }
  await expect(page.getByRole("heading", { name: "Cross-Industry Expertise" })).toBeVisible();
  await expect(page.getByRole("link", { name: "View Our Projects" })).toHaveAttribute("href", "/projects");
});

test("industries has the spec's order: the four industries, the stats row, the cross-industry cards, the call to action", async ({
  page,
}) => {
  await page.goto("/industries");
  const heading = (name: string) => page.getByRole("heading", { level: 2, name, exact: true });
  await expectInDocumentOrder({
    utilities: heading("Utilities"),
    renewables: heading("Renewables"),
    industrial: heading("Industrial"),
    commercial: heading("Commercial"),
    stats: page.getByRole("region", { name: "Our work in numbers" }),
    crossIndustry: heading("Cross-Industry Expertise"),
    callToAction: page.getByRole("link", { name: "View Our Projects" }),
  });
  await expect(page.getByRole("region", { name: "Our work in numbers" })).toContainText("2GW+");
});
