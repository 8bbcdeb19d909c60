import type { Breadcrumb } from "./page-rendering.ts";
import { paths } from "./paths.ts";

/** Home, then each given step: the trail shown on inner pages and described in JSON-LD. */
export function trail(...steps: Breadcrumb[]): Breadcrumb[] {
  return [{ name: "Home", path: paths.home }, ...steps];
}
