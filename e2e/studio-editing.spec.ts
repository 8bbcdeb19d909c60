import { expect, test } from "./fixtures.ts";
import { adminOrigin, mintSession, useSession } from "./staff-sessions.ts";
import {
  bodyField,
  markdownBody,
  createArticle,
  editorReady,
  editorUrl,
  keptCopies,
  uniqueTitle,
  uniqueWord,
} from "./studio-helpers.ts";

// Writing in the studio when things go wrong, in a real browser: two people on one article, a tab
// closed mid-sentence, a session that ends mid-edit. Nothing anyone typed is lost
// (docs/decisions/038-the-database-holds-the-content.md, section 4).

/** "Saved at 14:32", what autosave says once the server has the text. */
const SAVED_AT = /^Saved at \d\d:\d\d$/;

test.describe("editing in the studio", () => {
  test.describe.configure({ timeout: 90_000 });
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  test("two people edit one article: each sees the other; the second save is refused naming who saved, and both texts survive", async ({
    page,
    browser,
    pageGuard,
    newStaff,
  }) => {
    // The refused autosave and the refused form post.
    pageGuard.allow(/status of 409 \(Conflict\)/);
    await newStaff(page, { name: "Meera Shah", role: "staff" });
    const { title } = uniqueTitle("Reactive power at night");
    const id = await createArticle(page, { title, body: "The first paragraph, as both found it." });

    const other = await browser.newContext();
    try {
      const second = await other.newPage();
      pageGuard.watch(second);
      await newStaff(second, { name: "Ravi Patel", role: "staff" });
      await second.goto(editorUrl(id));
      await editorReady(second);
      await expect(second.locator("[data-studio-presence]")).toHaveText("Meera Shah is editing this.");
      // Meera's page learns of Ravi at its next beat (every 15 s); opening it again is one.
      await page.goto(editorUrl(id));
      await editorReady(page);
      await expect(page.locator("[data-studio-presence]")).toHaveText("Ravi Patel is editing this.");

      // Meera saves first (autosave, 2 s after she stops typing).
      const hers = `Meera's paragraph on capacitor banks ${uniqueWord()}.`;
      await bodyField(page).fill(`The first paragraph, as both found it.\n\n${hers}`);
      await expect(page.locator("[data-studio-save-status]")).toHaveText(SAVED_AT);

      // Ravi, still on the revision he opened, writes his own: autosave is refused and says by whom.
      const his = `Ravi's paragraph on shunt reactors ${uniqueWord()}.`;
      const mine = `The first paragraph, as both found it.\n\n${his}`;
      await (await markdownBody(second)).fill(mine);
      const problem = second.locator("[data-studio-save-problem]");
      await expect(problem).toContainText(
        /Changed by Meera Shah at \d\d:\d\d \(revision 2\), so your change was not saved\./,
      );
      await expect(problem).toContainText("Autosave has stopped.");
      await expect(problem.getByRole("link", { name: "See what they changed" })).toHaveAttribute(
        "href",
        new RegExp(`/admin/articles/${id}/compare\\?from=\\d+&to=\\d+$`),
      );

      // "Save draft" is refused too, and shows both texts: his kept in the editor, hers beside it.
      await second.getByRole("button", { name: "Save draft" }).click();
      await second.waitForURL(editorUrl(id));
      const conflict = second.getByRole("region", { name: /^Changed by Meera Shah at / });
      await expect(conflict.getByRole("heading", { level: 2 })).toHaveText(
        /^Changed by Meera Shah at \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d IST$/,
      );
      await expect(second.getByRole("alert").filter({ hasText: "so your change was not saved" })).toContainText(
        "Changed by Meera Shah at",
      );
      await expect(conflict.locator('[data-conflict-mine="body"]')).toContainText(his);
      await expect(conflict.locator('[data-conflict-theirs="body"]')).toContainText(hers);
      await editorReady(second);
      await expect(bodyField(second)).toHaveValue(mine);
      // His text is not saved, and the page knows it: it is kept in this browser at once, and
      // leaving the page (once he has used it) asks first.
      await expect.poll(() => keptCopies(second, id)).toContain(his);
      await bodyField(second).click();
      const asked = second.waitForEvent("dialog");
      const leaving = second.goto(`${adminOrigin}/admin/articles/${id}/history`);
      const dialog = await asked;
      expect(dialog.type()).toBe("beforeunload");
      await dialog.accept();
      await leaving;

      // Hers is in History, as revision 2 by her; his is not saved (revision 3 does not exist).
      const revisions = second.getByRole("region", { name: "Revisions" }).locator("tbody tr");
      await expect(revisions).toHaveCount(2);
      await expect(revisions.first()).toContainText("Meera Shah");
      await second.getByRole("button", { name: "Compare" }).click();
      await expect(second.locator("main")).toContainText(hers);
      await expect(second.locator("main")).not.toContainText(his);
    } finally {
      await other.close();
    }
  });

  test("a tab closed while typing: the browser's copy is offered when the article is opened again, and restoring it saves it", async ({
    page,
    signIn,
  }) => {
    await signIn(page, "staff");
    const { title } = uniqueTitle("Cable sizing for long feeders");
    const opening = "Voltage drop decides the size of a long feeder.";
    const id = await createArticle(page, { title, body: opening });

    const unsaved = ` Derating for grouping ${uniqueWord()} comes next.`;
    await bodyField(page).press("End");
    await page.keyboard.type(unsaved);
    // The copy is written half a second after the last key; autosave would wait 2 s. The tab is
    // closed as soon as the copy holds the text, before autosave.
    await expect.poll(() => keptCopies(page, id), { timeout: 1500, intervals: [50] }).toContain(unsaved.trim());
    await page.close();

    const again = await page.context().newPage();
    await again.goto(editorUrl(id));
    await editorReady(again);
    // The server never had it: the editor shows the saved text, and offers the kept one.
    await expect(bodyField(again)).toHaveValue(opening);
    const offer = again.getByRole("region", { name: "Your browser kept changes you had not saved" });
    await expect(offer).toContainText(
      /Kept \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d IST\. Body differs: \d+ words? added/,
    );
    await offer.getByRole("button", { name: "Restore your unsaved changes" }).click();
    await expect(offer).toBeHidden();
    await expect(bodyField(again)).toHaveValue(`${opening}${unsaved}`);
    // Restored text is a change like any other: autosave sends it, and the copy is let go.
    await expect(again.locator("[data-studio-save-status]")).toHaveText(SAVED_AT);
    await expect.poll(() => keptCopies(again, id)).toBe("");
    await again.reload();
    await editorReady(again);
    await expect(bodyField(again)).toHaveValue(`${opening}${unsaved}`);
    await expect(again.getByRole("button", { name: "Restore your unsaved changes" })).toHaveCount(0);
  });

  test("a session ended mid-edit: the editor keeps the text and says so; after signing in again in another tab, Try again saves it", async ({
    page,
    browser,
    pageGuard,
    newStaff,
    signIn,
  }) => {
    // Autosave's (and presence's) requests refused once the session has ended.
    pageGuard.allow(/status of 401 \(Unauthorized\)/);
    const dev = await newStaff(page, { name: "Dev Malhotra", role: "staff" });
    const { title } = uniqueTitle("Transformer energisation studies");
    const id = await createArticle(page, { title, body: "Inrush currents at energisation." });

    // An admin, elsewhere, ends every session of this person.
    const admin = await browser.newContext();
    try {
      const adminPage = await admin.newPage();
      pageGuard.watch(adminPage);
      await signIn(adminPage, "admin");
      await adminPage.goto(`${adminOrigin}/admin/staff`);
      adminPage.on("dialog", (dialog) => void dialog.accept());
      await adminPage
        .getByRole("row")
        .filter({ hasText: dev.email })
        .getByRole("button", { name: "End sessions of Dev Malhotra" })
        .click();
      await expect(adminPage.getByRole("status")).toBeVisible();
    } finally {
      await admin.close();
    }

    const typed = `Inrush currents at energisation. Sympathetic inrush ${uniqueWord()} in parallel units.`;
    await bodyField(page).fill(typed);
    const problem = page.locator("[data-studio-save-problem]");
    await expect(problem).toContainText("Your session has ended: sign in in a new tab, then save.");
    await expect(bodyField(page)).toHaveValue(typed);

    // Signing in again, in another tab of the same browser, gives the browser a new session's
    // cookie (the sign-in itself, with a passkey, is admin-sign-in.spec.ts's).
    await useSession(page, await mintSession(dev));

    await problem.getByRole("button", { name: "Try again" }).click();
    await expect(page.locator("[data-studio-save-status]")).toHaveText(SAVED_AT);
    await expect(problem).toBeEmpty();
    await expect(bodyField(page)).toHaveValue(typed);
    await page.reload();
    await editorReady(page);
    await expect(bodyField(page)).toHaveValue(typed);
    await page.goto(`${adminOrigin}/admin/articles/${id}/history`);
    const newest = page.getByRole("region", { name: "Revisions" }).locator("tbody tr").first();
    await expect(newest).toContainText("Dev Malhotra");
    await expect(newest).toContainText("Autosaved");
  });
});
