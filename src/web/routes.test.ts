import { describe, expect, it } from "vitest";
import { paths } from "#shared/paths.ts";
import { matchPageRoute, pageRoutes } from "./routes.tsx";

describe("the page routes' head metadata", () => {
  it("sends a visitor without JavaScript from /thank-you to / after 10 seconds, and no other page anywhere", () => {
    const thankYou = matchPageRoute(paths.thankYou);
    expect(thankYou?.route.meta(thankYou.params, () => undefined)?.redirectWithoutJavaScript).toEqual({ afterSeconds: 10, to: "/" });
    const others = pageRoutes.filter((route) => route.path !== paths.thankYou);
    for (const route of others) expect(route.meta({ slug: "some-page" }, () => undefined)?.redirectWithoutJavaScript, route.path).toBeUndefined();
  });
});
