import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { testRenderer } from "../../../../test/build-test-app.ts";
import { createTestDatabase, testDrivers } from "../../../../test/databases.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { buildApp } from "../../app.ts";
import { parseConfig } from "../../config.ts";
import { CONTENT_POLL_MS } from "../../content/data-version.ts";
import { exportContent } from "../../content/export-content.ts";
import { importContent } from "../../content/import-content.ts";
import { readSiteContent } from "../../content/load-content.ts";
import { listTeamMembers } from "../../content/public-content.ts";
import { openDatabase } from "../../db/client.ts";
import { applyMigrations } from "../../db/migrate.ts";
import { teamMembers } from "../../db/schema.ts";
import { postForm, propsOf, uniqueEmail } from "../studio/studio-test-kit.ts";
import { aPhoto, memberFields, memberRow, pageTeams, publicTeam } from "./team-test-kit.ts";

// The team's order beyond one request (docs/decisions/043-the-team-order-is-not-a-revision.md):
// a move reaches another instance over the same database within its poll; saving or publishing a
// member never moves them; content files carry the order out (export) and place only the members
// an import adds.

vi.mock("#web/admin/entry-server.tsx", async (importOriginal) =>
  (await import("../studio/studio-test-kit.ts")).recordingEntry(await importOriginal()),
);

describe.each(testDrivers)("the team's order on %s", (driver) => {
  let t: AdminTestApp;
  let admin: StaffWithSession;
  let other: { app: FastifyInstance; close: () => Promise<void> };
  const dirs: string[] = [];
  beforeAll(async () => {
    t = await buildAdminTestApp(driver, { content: true, startAt: new Date() });
    admin = await staffWithSession(t, { email: uniqueEmail("meera"), name: "Meera Shah", role: "admin" });
    // A second instance over the same database, as production runs it: its own pool (PostgreSQL;
    // PGlite is one embedded database, shared), its own page cache and content-version poll.
    const handle = t.database.url ? await openDatabase({ databaseUrl: t.database.url, dataDir: "unused" }) : undefined;
    const config = parseConfig({ NODE_ENV: "production", SITE_URL: "https://www.example.test" });
    const app = await buildApp({ config, db: handle?.db ?? t.database.db, renderer: testRenderer(config.siteUrl) });
    other = {
      app,
      close: async () => {
        await app.close();
        await handle?.close();
      },
    };
  });
  afterAll(async () => {
    await other.close();
    await t.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  const rows = async () =>
    propsOf(await t.send({ method: "GET", url: adminHref("team"), cookie: admin.cookie }), "team").rows;
  const move = (id: string, direction: "up" | "down") =>
    postForm(t, adminHref("teamMemberMove", { id }), admin, { direction });
  const toTheTop = async (id: string) => {
    for (let guard = 0; guard < 50 && (await rows())[0]!.id !== id; guard += 1)
      expect((await move(id, "up")).statusCode).toBe(303);
  };

  it("a member moved to the top on one instance is first on the other's home and About pages within its poll", async () => {
    const last = (await rows()).at(-1)!;
    // The other instance has kept both pages with the order as it was.
    const before = await pageTeams(other.app);
    expect(before.home[0]).not.toBe(last.name);
    expect(before.about.at(-1)).toBe(last.name);

    await toTheTop(last.id);
    // This instance at once.
    expect((await pageTeams(t.app)).home[0]).toBe(last.name);
    const moved = performance.now();
    await expect
      .poll(async () => (await pageTeams(other.app)).home[0], {
        timeout: 2 * CONTENT_POLL_MS + 1000,
        interval: 100,
      })
      .toBe(last.name);
    expect(performance.now() - moved).toBeLessThan(2 * CONTENT_POLL_MS + 1000);
    const after = await pageTeams(other.app);
    expect(after.about[0]).toBe(last.name);
    expect(after.about.slice(1)).toEqual(before.about.slice(0, -1));
    expect(after.home).toEqual(after.about.slice(0, 3));
    expect(await publicTeam(other)).toEqual(after.about);
  });

  it("saving, hiding and showing a member keeps their place: publishing never writes the order", async () => {
    const photo = await aPhoto(t);
    const second = (await rows())[1]!;
    const { order } = await memberRow(t, second.id);
    const head = (await memberRow(t, second.id)).headRevisionId!;
    const saved = await postForm(t, adminHref("teamMemberSave", { id: second.id }), admin, {
      ...memberFields(photo, { name: second.name, title: "Renamed title, same place" }),
      baseRevisionId: head,
    });
    expect(saved.statusCode).toBe(303);
    const act = async (name: "teamMemberHide" | "teamMemberShow") =>
      postForm(t, adminHref(name, { id: second.id }), admin, {
        baseRevisionId: (await memberRow(t, second.id)).headRevisionId!,
      });
    expect((await act("teamMemberHide")).statusCode).toBe(303);
    expect((await act("teamMemberShow")).statusCode).toBe(303);
    expect(await memberRow(t, second.id)).toMatchObject({ order, title: "Renamed title, same place" });
    expect((await rows())[1]!.id).toBe(second.id);
    expect((await publicTeam(t))[1]).toBe(second.name);
  });

  it("export writes the order the studio gave; importing it back changes nothing; into a new database, the same order", async () => {
    const team = await rows();
    const dir = await mkdtemp(path.join(tmpdir(), "team-order-"));
    dirs.push(dir);
    await exportContent(t.database.db, dir);
    const slugs = await t.database.db.select({ id: teamMembers.id, slug: teamMembers.slug }).from(teamMembers);
    const slugOf = (id: string) => slugs.find((row) => row.id === id)!.slug!;
    for (const [index, row] of team.entries()) {
      const file = await readFile(path.join(dir, "team", `${slugOf(row.id)}.yaml`), "utf8");
      expect(file, row.name).toMatch(new RegExp(`\\norder: ${index + 1}\\n$`));
    }
    const back = await importContent(t.database.db, await readSiteContent(dir));
    expect([...back.added, ...back.updated, ...back.trashed, ...back.skipped]).toEqual([]);
    expect(await publicTeam(t)).toEqual(team.map((row) => row.name));

    const fresh = await createTestDatabase(driver);
    try {
      await applyMigrations(fresh.db);
      await importContent(fresh.db, await readSiteContent(dir));
      expect((await listTeamMembers(fresh.db)).map((member) => member.name)).toEqual(team.map((row) => row.name));
    } finally {
      await fresh.drop();
    }
  });

  it("an import places a member it adds by their file's order, and leaves the others where the studio put them", async () => {
    const team = await rows();
    const dir = await mkdtemp(path.join(tmpdir(), "team-order-"));
    dirs.push(dir);
    await exportContent(t.database.db, dir);
    const [first] = await t.database.db.select().from(teamMembers).where(eq(teamMembers.id, team[0]!.id));
    // The first member's file now says last; a new member's says second.
    const firstFile = path.join(dir, "team", `${first!.slug}.yaml`);
    await writeFile(firstFile, (await readFile(firstFile, "utf8")).replace(/\norder: \d+\n$/, "\norder: 99\n"));
    await writeFile(
      path.join(dir, "team", "nalini-newfile.yaml"),
      `name: Nalini Newfile\ntitle: Engineer\nexpertise: Load flow studies\nimage: ${first!.imageUrl}\norder: 2\n`,
    );
    const summary = await importContent(t.database.db, await readSiteContent(dir));
    expect(summary.added.map((line) => line.file)).toEqual(["team/nalini-newfile.yaml"]);
    // A file whose order alone changed is the same document: nothing to write.
    expect([...summary.updated, ...summary.skipped]).toEqual([]);
    expect(await memberRow(t, team[0]!.id)).toMatchObject({ order: first!.order });
    const [added] = await t.database.db.select().from(teamMembers).where(eq(teamMembers.slug, "nalini-newfile"));
    expect(added!.order).toBe(2);
    const names = await publicTeam(t);
    expect(names[0]).toBe(team[0]!.name);
    expect(names.indexOf("Nalini Newfile")).toBeLessThan(3);
    // The studio's next move makes the numbers whole again, keeping the order shown.
    const shown = (await rows()).map((row) => row.id);
    expect((await move(shown[0]!, "up")).statusCode).toBe(303);
    const whole = await t.database.db.select({ order: teamMembers.order }).from(teamMembers).orderBy(teamMembers.order);
    expect(whole.map((row) => row.order)).toEqual(whole.map((_, index) => index + 1));
    expect((await rows()).map((row) => row.id)).toEqual(shown);
  });
});
