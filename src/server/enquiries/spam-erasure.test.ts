import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactSubmissions } from "../db/schema.ts";
import { erasurePreview, eraseAddress } from "../admin/privacy/erasure.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { testDrivers } from "../../../test/databases.ts";
import { enquiry, TEST_FORM_SECRET } from "../../../test/enquiry-fixtures.ts";

// Spam is stored shortened (spam.ts), but its email address whole: erasure finds an enquiry by
// its whole address, and an address cut to 100 characters escaped it (and stayed 30 days).

describe.each(testDrivers)("spam with a long email address on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(driver, { content: false, env: { FORM_SECRET: TEST_FORM_SECRET } });
  });
  afterAll(async () => t.close());

  it("is stored with its whole address, so an erasure of that address finds and deletes it", async () => {
    // 150 characters: 60 before the @, 89 after.
    const email = `${"a".repeat(60)}@${"b".repeat(40)}.${"c".repeat(36)}.example.com`;
    expect(email).toHaveLength(150);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/contact",
      payload: enquiry({ email, "bot-field": "https://spam.example" }),
    });
    expect(response.statusCode).toBe(201);
    const [stored] = await t.database.db.select().from(contactSubmissions);
    expect(stored?.isSpam).toBe(true);
    expect(stored?.spamReason).toBe("honeypot");

    expect(await erasurePreview(t.database.db, email)).toMatchObject({ enquiries: 1 });
    expect(stored?.email).toBe(email);
    expect(await eraseAddress(t.database.db, email)).toMatchObject({ enquiries: 1 });
    expect(await t.database.db.select().from(contactSubmissions).where(eq(contactSubmissions.id, stored!.id))).toEqual(
      [],
    );
  });
});
