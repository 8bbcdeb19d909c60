import type { Locator } from "@playwright/test";
import { expect } from "./fixtures.ts";

/** Asserts that each locator's one element comes after the one before it in the document. */
export async function expectInDocumentOrder(parts: Record<string, Locator>): Promise<void> {
  const positions: [string, number][] = [];
  for (const [name, locator] of Object.entries(parts)) {
    const position = await locator.evaluate((element) =>
      Array.prototype.indexOf.call(document.getElementsByTagName("*"), element),
    );
    positions.push([name, position]);
  }
  const sorted = [...positions].sort((a, b) => a[1] - b[1]);
  expect(
    sorted.map(([name]) => name),
    "the sections' order",
  ).toEqual(positions.map(([name]) => name));
}
