import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { projectDriver } from "../../../../test/databases.ts";
import { multipartBody, plainPicture } from "../../../../test/media-fixtures.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { MEDIA_VARIANTS_WAITING, mediaProcessing } from "../../media/media-store.ts";

// An upload waits its turn in the line for making pictures (decision 047: one 12-megapixel photo
// at a time on the embedded database), which can take longer than a connection may sit idle
// (CONNECTION_TIMEOUT_MS, 90 s; set short here). Over a real socket: the upload waits in line
// well past that limit, then is made and answered, its connection never cut meanwhile.

describe("an upload waiting its turn, on a real socket", () => {
  const IDLE_LIMIT_MS = 300;
  let t: AdminTestApp;
  let member: StaffWithSession;
  let port: number;
  beforeAll(async () => {
    t = await buildAdminTestApp(projectDriver, {
      env: { CONNECTION_TIMEOUT_MS: String(IDLE_LIMIT_MS) },
      startAt: new Date(Date.now() - 60_000),
    });
    member = await staffWithSession(t, { name: "Ravi Desai", role: "staff" });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const address = t.app.server.address();
    port = typeof address === "object" && address ? address.port : 0;
  });
  afterAll(async () => {
    await t.close();
  });

  it("is not cut off as idle while it waits, and is answered once made", async () => {
    // The whole budget held by a job that ends when the test says.
    let release!: () => void;
    const held = mediaProcessing.run(
      MEDIA_VARIANTS_WAITING,
      mediaProcessing.budgetBytes(),
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    const { payload, headers } = multipartBody({
      name: "waiting.png",
      bytes: await plainPicture("png", { width: 700, height: 400 }),
    });
    const socket = connect({ port, host: "127.0.0.1" });
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    try {
      await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
      socket.write(
        [
          `POST ${adminHref("mediaUploadApi")} HTTP/1.1`,
          "Host: 127.0.0.1",
          `Content-Type: ${headers["content-type"]}`,
          `Content-Length: ${payload.length}`,
          `Cookie: ${member.cookie}`,
          `Origin: ${t.origin}`,
          "Accept: application/json",
          "",
          "",
        ].join("\r\n"),
      );
      socket.write(payload);
      try {
        // In line (its place taken, its body read), then silent for several times the limit.
        await expect.poll(() => mediaProcessing.counts().waiting, { timeout: 10_000 }).toBe(1);
        await sleep(IDLE_LIMIT_MS * 4);
        expect(socket.destroyed, "the waiting upload's connection was cut").toBe(false);
      } finally {
        release();
        await held;
      }
      await expect.poll(() => received, { timeout: 10_000 }).toMatch(/\r\n\r\n\{.*\}$/s);
      expect(received).toMatch(/^HTTP\/1\.1 201 /);
      expect(received).toContain("“waiting.png” is in the library.");
      expect(mediaProcessing.counts()).toEqual({ running: 0, waiting: 0 });
    } finally {
      socket.destroy();
    }
  });
});
