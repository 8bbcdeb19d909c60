import { describe, expect, it } from "vitest";
import { paths } from "#shared/paths.ts";
import { matchPage, pageRoutes } from "./routes.tsx";

describe("the page routes' head metadata", () => {
  it("sends a visitor without JavaScript from /thank-you to / after 10 seconds, and no other page anywhere", () => {
    const thankYou = matchPage(paths.thankYou);
    expect(thankYou?.route.meta(thankYou.params, () => undefined)?.redirectWithoutJavaScript).toEqual({
      afterSeconds: 10,
      to: "/",
    });
    const others = Object.entries(pageRoutes).filter(([id]) => id !== "thankYou");
    for (const [id, route] of others)
      expect(route.meta({ slug: "some-page" }, () => undefined)?.redirectWithoutJavaScript, id).toBeUndefined();
  });
});
