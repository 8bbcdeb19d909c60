import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../test/admin-fixtures.ts";
import { projectDriver } from "../../../test/databases.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { STUDIO_DOCUMENT_BODY_LIMIT } from "#shared/content/documents.ts";
import { JSON_NESTING_MAX, nestsDeeperThan, TOO_DEEP } from "./json-depth.ts";

// A JSON body nested deeper than any of the site's is refused before it is parsed: arrays nested
// 524,282 deep in the studio's 1 MB limit held the event loop about 0.7 s in the parser.

const JSON_TYPE = { "content-type": "application/json" };

describe("how deep a JSON body nests", () => {
  it("counts arrays and objects inside one another, not brackets in strings or side by side", () => {
    const arrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
    expect(nestsDeeperThan(arrays(3), 3)).toBe(false);
    expect(nestsDeeperThan(arrays(4), 3)).toBe(true);
    expect(nestsDeeperThan(`{"a":{"b":{"c":[1]}}}`, 3)).toBe(true);
    expect(nestsDeeperThan(`{"a":{"b":{"c":1}}}`, 3)).toBe(false);
    expect(nestsDeeperThan(`[${"[],".repeat(1000)}[]]`, 2)).toBe(false);
    expect(nestsDeeperThan(`{"body":"${"[{".repeat(1000)}"}`, 1)).toBe(false);
    // An escaped quote does not end the string; an escaped backslash before a quote does.
    expect(nestsDeeperThan(`["\\"[[[[", 1]`, 1)).toBe(false);
    expect(nestsDeeperThan(`["\\\\", [[1]]]`, 2)).toBe(true);
  });

  describe("on a route", () => {
    let t: AdminTestApp;
    let writer: StaffWithSession;
    beforeAll(async () => {
      t = await buildAdminTestApp(projectDriver);
      writer = await staffWithSession(t, { name: "Meera Shah", role: "staff" });
    });
    afterAll(async () => {
      await t.close();
    });

    const preview = (payload: string) =>
      t.send({ method: "POST", url: adminHref("markdownPreview"), cookie: writer.cookie, headers: JSON_TYPE, payload });

    it("refuses a body nested deeper than JSON_NESTING_MAX with 400 naming the rule, at the studio's 1 MB limit too", async () => {
      const depth = Math.floor((STUDIO_DOCUMENT_BODY_LIMIT - 20) / 2);
      for (const payload of [
        `{"body":"# A","x":${"[".repeat(depth)}${"]".repeat(depth)}}`,
        `{"body":"# A","x":${"[".repeat(JSON_NESTING_MAX)}${"]".repeat(JSON_NESTING_MAX)}}`,
      ]) {
        const refused = await preview(payload);
        expect(refused.statusCode).toBe(400);
        expect(refused.json().message).toBe(TOO_DEEP);
      }
    });

    it("takes a body at the deepest allowed, and brackets inside its strings, to the handler", async () => {
      const deepest = JSON_NESTING_MAX - 1;
      const taken = await preview(`{"body":"# [[[[{{{{ \\" ]]","x":${"[".repeat(deepest)}${"]".repeat(deepest)}}`);
      expect(taken.statusCode).toBe(200);
      expect(taken.body).toContain("[[[[{{{{");
    });

    it("still refuses what is not JSON, and prototype poisoning, as before", async () => {
      const broken = await preview(`{"body": "# A"`);
      expect(broken.statusCode).toBe(400);
      expect(broken.json().message).toBe("The body is not valid JSON.");
      const poisoned = await preview(`{"body":"# A","__proto__":{"admin":true}}`);
      expect(poisoned.statusCode).toBe(400);
    });
  });
});
