import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { addArticle, articleDocument } from "../../../../test/content-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";
import { multipartBody, plainPicture } from "../../../../test/media-fixtures.ts";
import type { MediaUploadAnswer } from "#shared/admin/pages.ts";
import { adminHref, adminRoutes } from "#shared/admin/routes.ts";
import { articleApiPath } from "#shared/paths.ts";
import { bumpContentVersion, type ContentVersionWatcher, watchContentVersion } from "../../content/data-version.ts";

// The route table's `publicContent` (src/shared/admin/routes.ts): after such a route answers with
// success, the door has this instance read the content version again before the answer leaves, so
// this instance's next answer shows the change with no poll; another instance sees it at its next
// poll; a refused request reads nothing. The app's own poll is an hour here, and the second watcher
// (another instance over the same database) polls only when the test says.
// docs/decisions/060-the-door-refreshes-the-content-version.md.

const HOUR = 60 * 60 * 1000;

describe.each(testDrivers)("the door and the content version on %s", (driver) => {
  let t: AdminTestApp;
  let publisher: StaffWithSession;
  let member: StaffWithSession;
  let otherInstance: ContentVersionWatcher;
  const slug = `door-refresh-${driver}`;
  let picture: MediaUploadAnswer;

  const version = () => t.app.contentVersion.current();
  const upload = async (name: string, colour: string) => {
    const { payload, headers } = multipartBody({
      name,
      bytes: await plainPicture("jpeg", { colour }),
      contentType: "image/jpeg",
    });
    const answer = await t.send({
      method: "POST",
      url: adminHref("mediaUploadApi"),
      cookie: publisher.cookie,
      headers,
      payload,
    });
    expect([200, 201], answer.body).toContain(answer.statusCode);
    return answer.json<MediaUploadAnswer>();
  };
  const publicArticle = async () => {
    const answer = await t.app.inject({ method: "GET", url: articleApiPath(slug) });
    expect(answer.statusCode).toBe(200);
    return answer.body;
  };

  beforeAll(async () => {
    t = await buildAdminTestApp(driver, { contentPollMs: HOUR });
    publisher = await staffWithSession(t, { name: "Meera Shah", role: "admin" });
    member = await staffWithSession(t, { name: "Ravi Desai", role: "staff" });
    picture = await upload("yard.jpg", "#2468ac");
    expect(
      (
        await t.send({
          method: "POST",
          url: adminHref("mediaAltApi", { id: picture.id }),
          cookie: publisher.cookie,
          payload: { alt: "The yard at dusk." },
        })
      ).statusCode,
    ).toBe(200);
    // A public article with the picture as its cover, the words of which are the picture's alt text.
    await addArticle(
      t.database.db,
      articleDocument({ slug, title: "The yard", imageUrl: picture.reference, imageAlt: "", body: "Words." }),
      { state: "published", at: new Date(t.clock.now.getTime() - HOUR) },
    );
    await t.app.contentVersion.refresh();
    otherInstance = await watchContentVersion(t.database.db, HOUR, () => t.clock.now);
  });
  afterAll(async () => {
    otherInstance?.stop();
    await t?.close();
  });

  it("marks the media library's writes, and posts alone", () => {
    const marked = Object.entries(adminRoutes)
      .filter(([, route]) => "publicContent" in route && route.publicContent)
      .map(([name]) => name);
    expect(marked).toEqual(
      expect.arrayContaining(["mediaUpload", "mediaUploadApi", "mediaSave", "mediaAltApi", "mediaDelete"]),
    );
    // Only changes: a GET changes nothing.
    for (const name of marked) expect(adminRoutes[name as keyof typeof adminRoutes].method).toBe("POST");
  });

  it("after a marked route's success, this instance's next answer shows the change at once; another instance at its poll", async () => {
    expect(await publicArticle()).toContain("The yard at dusk.");
    const before = version();
    expect(otherInstance.current()).toBe(before);

    // The form: a 303, and the version already read again when it arrives.
    const saved = await t.send({
      method: "POST",
      url: adminHref("mediaSave", { id: picture.id }),
      cookie: publisher.cookie,
      payload: { alt: "The yard, lit for the night shift." },
    });
    expect(saved.statusCode).toBe(303);
    const afterForm = version();
    expect(afterForm).not.toBe(before);
    expect(await publicArticle()).toContain("The yard, lit for the night shift.");
    // Another instance has not polled yet: it still has the old version; at its poll, the new one.
    expect(otherInstance.current()).toBe(before);
    await otherInstance.refresh();
    expect(otherInstance.current()).toBe(afterForm);

    // The editor's JSON route: a 200, the same.
    const api = await t.send({
      method: "POST",
      url: adminHref("mediaAltApi", { id: picture.id }),
      cookie: publisher.cookie,
      payload: { alt: "The yard at dawn." },
    });
    expect(api.statusCode).toBe(200);
    expect(version()).not.toBe(afterForm);
    expect(await publicArticle()).toContain("The yard at dawn.");

    // Deleting an unused picture: a 303 to the library, the version read again.
    const unused = await upload("unused.jpg", "#abcdef");
    const beforeDelete = version();
    await bumpContentVersion(t.database.db);
    const deleted = await t.send({
      method: "POST",
      url: adminHref("mediaDelete", { id: unused.id }),
      cookie: publisher.cookie,
    });
    expect(deleted.statusCode).toBe(303);
    expect(version()).not.toBe(beforeDelete);
  });

  it("after a refused request (4xx) reads nothing: the version another instance wrote waits for the poll", async () => {
    const before = version();
    // Another instance changed the content: the stored version moved, this instance has not read it.
    await bumpContentVersion(t.database.db);
    const refusals = [
      // The alt text's rules: 422, the form again.
      await t.send({
        method: "POST",
        url: adminHref("mediaSave", { id: picture.id }),
        cookie: publisher.cookie,
        payload: { alt: "x".repeat(301) },
      }),
      // A picture on the public site, described by someone who may not publish: 403.
      await t.send({
        method: "POST",
        url: adminHref("mediaAltApi", { id: picture.id }),
        cookie: member.cookie,
        payload: { alt: "Something else." },
      }),
      // Deleting a picture an article uses: 409; one that is not there: 404.
      await t.send({ method: "POST", url: adminHref("mediaDelete", { id: picture.id }), cookie: publisher.cookie }),
      await t.send({
        method: "POST",
        url: adminHref("mediaDelete", { id: "00000000-0000-4000-8000-000000000000" }),
        cookie: publisher.cookie,
      }),
    ];
    expect(refusals.map((answer) => answer.statusCode)).toEqual([422, 403, 409, 404]);
    expect(version()).toBe(before);
    // A success of a route that changes nothing public reads nothing either.
    const other = await t.send({ method: "POST", url: adminHref("endOtherSessions"), cookie: member.cookie });
    expect(other.statusCode).toBe(303);
    expect(version()).toBe(before);
    // The next marked success reads it.
    const saved = await t.send({
      method: "POST",
      url: adminHref("mediaSave", { id: picture.id }),
      cookie: publisher.cookie,
      payload: { alt: "The yard at dawn." },
    });
    expect(saved.statusCode).toBe(303);
    expect(version()).not.toBe(before);
  });
});
