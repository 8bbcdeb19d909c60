import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import pg from "pg";
import { openDatabase } from "../src/server/db/client.ts";
import { isCI } from "../test/ci.ts";
import { onServer } from "../test/database-templates.ts";
import { type ServerProcess, startServerProcess } from "../test/server-process.ts";
import { freePort, type ReceivedMail, SmtpPeer } from "../test/smtp-peer.ts";
import { expect, test } from "./fixtures.ts";
import AxeBuilder from "@axe-core/playwright";
import { expectNoOverflow, photograph } from "./page-checks.ts";
import { mintStaffIn, useSession } from "./staff-sessions.ts";

// The newsletter end to end, in Chromium (issue 24; docs/back-office.md, "Newsletters"): a
// visitor subscribes on /blog, confirms from the link of the mail a real SMTP peer received; an
// admin composes a newsletter with two articles, sends a test to themself, then sends it; the
// counts on the newsletter's page follow the sender until the subscriber's copy is sent; and the
// HTML of that copy, as received, is read at 375 and 1280 px.
//
// A server of its own, on a fresh PostgreSQL database (TEST_DATABASE_URL, which CI sets), with
// mail to the peer and a high NEWSLETTER_PER_MINUTE, so the one subscriber is counted from zero
// and no other test's newsletter or subscriber is in the way. Its address is
// http://localhost:<port>, the one SITE_URL names, as the back office's cookie is for localhost.

const serverUrl = process.env.TEST_DATABASE_URL;
test.skip(!serverUrl && !isCI(), "needs a PostgreSQL server (TEST_DATABASE_URL)");
test.describe.configure({ mode: "serial" });

let peer: SmtpPeer;
let server: ServerProcess;
let database: string;
let databaseUrl: string;
let origin: string;

const onAdmin = <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => onServer(serverUrl!, work);

/** The text and HTML parts of a received multipart mail, decoded. */
function partsOf(mail: ReceivedMail): { text?: string; html?: string } {
  const type = mail.headers.get("content-type")?.[0] ?? "";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!boundary) return type.includes("text/html") ? { html: mail.body } : { text: mail.body };
  const parts: { text?: string; html?: string } = {};
  for (const chunk of mail.body.split(`--${boundary}`)) {
    const split = chunk.indexOf("\r\n\r\n");
    if (split < 0) continue;
    const head = chunk
      .slice(0, split)
      .replace(/\r\n[ \t]+/g, " ")
      .toLowerCase();
    let body = chunk.slice(split + 4).replace(/\r\n$/, "");
    if (head.includes("content-transfer-encoding: quoted-printable")) {
      const bytes = body
        .replace(/=\r\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      body = Buffer.from(bytes, "latin1").toString("utf8");
    } else if (head.includes("content-transfer-encoding: base64")) {
      body = Buffer.from(body, "base64").toString("utf8");
    }
    if (head.includes("content-type: text/plain")) parts.text = body;
    if (head.includes("content-type: text/html")) parts.html = body;
  }
  return parts;
}

/** The first mail to `address` that `matches`, waiting for it to arrive. */
async function mailTo(address: string, matches: (mail: ReceivedMail) => boolean = () => true): Promise<ReceivedMail> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = peer.messages.find((mail) => mail.to.includes(address) && matches(mail));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${address} within 30 s`);
    await peer.waitForMessages(peer.messages.length + 1, deadline - Date.now()).catch(() => undefined);
  }
}

test.beforeAll(async () => {
  if (!serverUrl) throw new Error("CI=true but TEST_DATABASE_URL is not set: this test needs a PostgreSQL server");
  database = `site_newsletter_${randomBytes(6).toString("hex")}`;
  await onAdmin((client) => client.query(`create database ${database}`));
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  databaseUrl = url.toString();
  peer = await SmtpPeer.start();
  const port = await freePort();
  origin = `http://localhost:${port}`;
  server = await startServerProcess(
    {
      DATABASE_URL: databaseUrl,
      SITE_URL: origin,
      SMTP_URL: peer.url,
      MAIL_FROM: "website@example.test",
      MAIL_TO: "office@example.test",
      NEWSLETTER_PER_MINUTE: "600",
      RATE_LIMIT_PER_MINUTE: "1000",
      LOG_LEVEL: "error",
    },
    { port },
  );
  await server.ready();
  mkdirSync("test-results/screenshots", { recursive: true });
});

test.afterAll(async () => {
  server?.child.kill("SIGTERM");
  await server?.exited;
  await peer?.stop();
  await onAdmin((client) => client.query(`drop database if exists ${database} with (force)`));
});

test.beforeEach(({ pageGuard }) => {
  pageGuard.allow(new RegExp(`request to another origin: ${origin}/`));
});

test.afterEach(async ({ page: _page }, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus)
    await testInfo.attach("server output", { body: server?.output() ?? "", contentType: "text/plain" });
});

/**
 * An admin of this server, signed in on this page's browser: a member of staff added to its
 * database with a session made as a sign-in makes one (signing in is admin-sign-in.spec.ts's).
 */
async function signInAsAdmin(page: Page): Promise<string> {
  const email = `newsletter-admin-${randomBytes(4).toString("hex")}@example.com`;
  const handle = await openDatabase({ databaseUrl, dataDir: "unused" });
  try {
    await useSession(page, await mintStaffIn(handle.db, { name: "Newsletter Admin", role: "admin", email }));
  } finally {
    await handle.close();
  }
  return email;
}

test("subscribe, confirm from the mail, compose with two articles, test, send, and read the mail at 375 and 1280 px", async ({
  page,
  pageGuard,
}) => {
  test.setTimeout(180_000);
  // Axe tries its script in the preview's frames, and the sandbox refuses it: what the frames are for.
  pageGuard.allow(/Blocked script execution in '[^']*\/preview' because the document's frame is sandboxed/);
  // A visitor subscribes on /blog, and confirms from the mail's link (by the page's button: the
  // link alone confirms nothing).
  const subscriber = `reader-${randomBytes(4).toString("hex")}@example.com`;
  await page.goto(`${origin}/blog`);
  await page.locator("html[data-hydrated=true]").waitFor();
  await page.getByRole("textbox", { name: "Email address" }).fill(subscriber);
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByText("Check your inbox to confirm your subscription.")).toBeVisible();
  const confirmation = await mailTo(subscriber);
  const link = new RegExp(`${origin}/newsletter/confirm/[A-Za-z0-9_-]+`).exec(
    partsOf(confirmation).text ?? confirmation.body,
  )?.[0];
  expect(link, "the confirmation mail's link").toBeTruthy();
  await page.goto(link!);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirm your subscription");
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're subscribed");

  // An admin composes a newsletter with two articles.
  const adminEmail = await signInAsAdmin(page);
  await page.goto(`${origin}/admin/newsletters`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Newsletters");
  await page.getByRole("link", { name: "New newsletter" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New newsletter");
  const subject = "Insights for plant engineers";
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Introduction").fill("Two **new** studies this month, and what they mean for your plant.");
  const boxes = page.getByRole("group", { name: "Articles to feature" }).getByRole("checkbox");
  // None was ever sent here: the newest three are chosen to begin with.
  await expect(boxes.nth(0)).toBeChecked();
  await expect(boxes.nth(2)).toBeChecked();
  await boxes.nth(2).uncheck();
  const chosen = [
    (await boxes.nth(0).locator("xpath=..").innerText()).replace(/\s*\(.*\)$/, ""),
    (await boxes.nth(1).locator("xpath=..").innerText()).replace(/\s*\(.*\)$/, ""),
  ];
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(subject);
  await expect(page.getByText("The newsletter was saved as a draft")).toBeVisible();

  // The preview: the HTML in a frame, the text part beside it.
  await expect(page.getByTitle("HTML preview", { exact: true })).toBeVisible();
  const textPart = page.getByRole("region", { name: "Plain-text preview" });
  for (const title of chosen) await expect(textPart).toContainText(title);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoOverflow(page, `the newsletter's page at ${width} px`);
    await photograph(page, `newsletter-page-${width}`);
  }
  // Axe on the page around the frames: it cannot run inside them, as nothing can (no allow-scripts),
  // and would wait there for ever. The mail they show is read as received, below.
  const axe = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .exclude('iframe[title^="HTML preview"]')
    .analyze();
  expect(
    axe.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    ),
    "axe violations: the newsletter's page",
  ).toEqual([]);

  // A test, to the admin's own address.
  await page.getByRole("button", { name: "Send test" }).click();
  await expect(page.getByText(`Test sent to ${adminEmail}.`)).toBeVisible();
  const test_ = await mailTo(adminEmail, (mail) => (mail.headers.get("subject")?.[0] ?? "").includes(subject));
  expect(partsOf(test_).html).toContain(chosen[0]);

  // The send: the question names the one confirmed subscriber.
  await page.getByRole("link", { name: "Send to 1 subscriber" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Send to 1 subscriber?");
  await expect(page.getByRole("main")).toContainText(chosen[1]!);
  await page.getByRole("button", { name: "Yes, send it" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(subject);
  // The counts follow the sender (the page's script asks every 2 seconds) until the copy is sent.
  await expect(page.locator('[data-newsletter-count="sent"]')).toHaveText("1", { timeout: 60_000 });
  await expect(page.locator('[data-newsletter-count="failed"]')).toHaveText("0");
  await expect(page.locator("[data-newsletter-state]")).toHaveText("Sent", { timeout: 10_000 });
  // Everything on the page that says the state follows it: no "Sending" badge over "State: Sent",
  // and the "Sending: …" notice of the send is gone.
  await expect(page.locator("[data-newsletter-status]")).toHaveAttribute("data-newsletter-status", "sent");
  await expect(page.locator("[data-newsletter-status]")).toHaveText("●Sent");
  await expect(page.getByText("Sending: each confirmed subscriber gets one copy.")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save draft" })).toHaveCount(0);

  // The subscriber's copy, as received.
  const copy = await mailTo(subscriber, (mail) => mail.headers.has("list-unsubscribe"));
  expect(copy.headers.get("list-unsubscribe")?.[0]).toMatch(
    new RegExp(`^<${origin}/newsletter/unsubscribe/[^>]+>, <mailto:[^>]+>$`),
  );
  expect(copy.headers.get("list-unsubscribe-post")?.[0]).toBe("List-Unsubscribe=One-Click");
  const { html, text } = partsOf(copy);
  expect(text, "the plain-text part").toBeTruthy();
  for (const title of chosen) expect(text).toContain(title);
  expect(html, "the HTML part").toBeTruthy();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.setContent(html!, { waitUntil: "load" });
    await photograph(page, `newsletter-mail-${width}`);
    if (width === 375) await expectNoOverflow(page, "the received newsletter at 375 px");
  }
  const links = await page.locator("a[href]").evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href")!));
  const toSite = links.filter((href) => href.startsWith(`${origin}/`) && !href.includes("/newsletter/unsubscribe/"));
  expect(toSite.length, "links to the site").toBeGreaterThanOrEqual(2);
  for (const href of toSite) {
    const url = new URL(href);
    expect(url.searchParams.get("utm_source"), href).toBe("newsletter");
    expect(url.searchParams.get("utm_medium"), href).toBe("email");
    expect(url.searchParams.get("utm_campaign"), href).toMatch(/^20\d\d-\d\d-insights-for-plant-engineers$/);
  }
  // Every link goes to the site (or is the mailto of the firm): no click redirects elsewhere.
  for (const href of links) expect(href.startsWith(`${origin}/`) || href.startsWith("mailto:"), href).toBe(true);
});
