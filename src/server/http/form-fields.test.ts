import { Readable } from "node:stream";
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
import { FORM_FIELDS_MAX, TOO_MANY_FIELDS } from "./form-fields.ts";

// A URL-encoded body of more fields than any form of the site has is refused while it arrives,
// before it is parsed: the studio's 1 MB routes took 130,000 empty fields, which held the event
// loop over a second (parsed, checked, and copied again for the refused form's page).

const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** `count` fields named apart, each `value`. */
const fields = (count: number, value = "") =>
  Array.from({ length: count }, (_, index) => `f${index}=${value}`).join("&");

describe("the fields of a form", () => {
  let t: AdminTestApp;
  let admin: StaffWithSession;
  beforeAll(async () => {
    t = await buildAdminTestApp(projectDriver);
    admin = await staffWithSession(t, { name: "Meera Shah", role: "admin" });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (url: string, payload: string | Readable, headers: Record<string, string> = {}) =>
    t.send({ method: "POST", url, cookie: admin.cookie, headers: { ...FORM, ...headers }, payload });

  it("refuses more than FORM_FIELDS_MAX fields with 413 naming the rule, on the studio's 1 MB routes and the others", async () => {
    const many = fields(STUDIO_DOCUMENT_BODY_LIMIT / 10);
    expect(many.length).toBeLessThan(STUDIO_DOCUMENT_BODY_LIMIT);
    for (const [url, payload] of [
      [adminHref("articleCreate"), many],
      [adminHref("articleCreate"), fields(FORM_FIELDS_MAX + 1)],
      [adminHref("staffInvite"), fields(FORM_FIELDS_MAX + 1)],
    ] as const) {
      const refused = await post(url, payload);
      expect(refused.statusCode, url).toBe(413);
      expect(refused.json().message).toBe(TOO_MANY_FIELDS);
    }
  });

  it("takes FORM_FIELDS_MAX fields to the handler, and counts an encoded & as no separator", async () => {
    const most = await post(adminHref("articleCreate"), fields(FORM_FIELDS_MAX, "a%26b%26c"));
    // The editor's own refusal (no title), not the parser's.
    expect(most.statusCode).toBe(422);
    const created = await post(adminHref("articleCreate"), `title=${"%26".repeat(100)}&body=${"a%26".repeat(5000)}`);
    expect(created.statusCode).toBe(303);
  });

  it("counts the fields across the chunks of a body that arrives in pieces", async () => {
    const body = fields(FORM_FIELDS_MAX + 1);
    const chunks = Array.from({ length: Math.ceil(body.length / 97) }, (_, index) =>
      body.slice(index * 97, (index + 1) * 97),
    );
    const refused = await post(adminHref("articleCreate"), Readable.from(chunks), {
      "content-length": String(body.length),
    });
    expect(refused.statusCode).toBe(413);
    expect(refused.json().message).toBe(TOO_MANY_FIELDS);
  });
});
