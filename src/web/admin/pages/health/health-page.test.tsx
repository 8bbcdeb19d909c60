import { describe, expect, it } from "vitest";
import type { AdminPagePropsOf, AdminViewer, HealthView } from "#shared/admin/pages.ts";
import { renderAdminPage } from "../../entry-server.tsx";

// The Health page as it renders: each line's state in a word and a mark (not colour alone), its
// reasons, the late items linked to the studio, what the page says of PostgreSQL's disk and of mail
// failing; and the banner the layout shows on every page behind the sign-in while mail fails.

const admin: AdminViewer = {
  id: "a1",
  name: "Meera Shah",
  email: "meera@example.com",
  role: "admin",
  canPublish: false,
};
const staffer: AdminViewer = { ...admin, id: "s1", name: "Ravi Desai", role: "staff" };
const at = "2026-11-29T12:00:00.000Z";

const health: HealthView = {
  checkedAt: at,
  backups: {
    state: "ok",
    reasons: [],
    last: null,
    running: null,
    lastVerifiedAt: null,
    offsite: true,
    nextScheduledAt: "2026-11-29T21:00:00.000Z",
  },
  mail: {
    state: "red",
    reasons: ["A message (a sign-in link) has waited 2 h to go out; its last attempt failed: 535 auth"],
    configured: true,
    oldestWaiting: {
      kind: "staff-sign-in-link",
      queuedAt: "2026-11-29T10:00:00.000Z",
      attempts: 7,
      lastError: "535 auth",
    },
    waiting: 1,
    failedLastDay: 0,
    retrying: 1,
    lastFailure: null,
    lastSentAt: null,
  },
  publishing: {
    state: "red",
    reasons: ['Not public 5 minutes after its time: "Harmonics" (due 29 Nov 2026, 17:20 IST).'],
    late: [{ kind: "article", title: "Harmonics", at: "2026-11-29T11:50:00.000Z", href: "/admin/articles/a-1" }],
    scheduled: 1,
    next: null,
    clockOffsetMs: -11 * 60_000,
  },
  storage: {
    state: "ok",
    reasons: [],
    databaseBytes: 9_500_000,
    database: "server",
    disks: [
      { label: "the backups (BACKUP_DIR)", path: "/srv/backups", missing: true, freeBytes: 4e10, totalBytes: 1e11 },
    ],
  },
};
const props: AdminPagePropsOf<"health"> = { page: "health", viewer: admin, health };
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'");
const section = (html: string, line: string) =>
  new RegExp(`<section [^>]*data-health-line="${line}"[^]*?</section>`).exec(html)![0];

describe("the Health page", () => {
  const html = renderAdminPage(props).bodyHtml;

  it("says each line's state in a word and a mark, at a glance and in its section", () => {
    const glance = /<nav aria-label="Health at a glance"[^]*?<\/nav>/.exec(html)![0];
    expect(text(glance)).toBe("Backups✓OKMail✕Needs attentionPublishing✕Needs attentionStorage✓OK");
    expect(glance).toContain('href="#health-mail"');
    expect(text(section(html, "mail"))).toContain("Mail✕Needs attention");
    expect(section(html, "mail")).toContain('id="health-mail"');
  });

  it("says mail is failing at the top, and the outbox's oldest message", () => {
    expect(html).toMatch(/<div role="alert"[^>]*><p[^>]*><span aria-hidden="true">✕ <\/span>Mail is failing/);
    expect(text(section(html, "mail"))).toContain(
      "1 message; the oldest, a sign-in link, queued 29 Nov 2026, 15:30 IST (2 h ago), tried 7 times: 535 auth",
    );
  });

  it("links each late item to its page in the studio, and says the clock", () => {
    expect(section(html, "publishing")).toContain('<a href="/admin/articles/a-1" class="admin-link">Harmonics</a>');
    expect(text(section(html, "publishing"))).toContain("This instance's clock is 11 min behind the database's.");
  });

  it("says PostgreSQL's disk cannot be read, and where the backups' folder will be", () => {
    const words = text(section(html, "disk"));
    expect(words).toContain("9.5 MB, on the PostgreSQL server (DATABASE_URL)");
    expect(words).toContain("the site cannot read how much is free there");
    expect(words).toContain("40.0 GB free of 100.0 GB (40.0%), at /srv/backups (not made yet: the disk it will be on)");
  });

  it("leaves the backups' actions their place, and says a copy off the machine not tried yet", () => {
    expect(section(html, "backups")).toContain("data-backup-actions");
    expect(text(section(html, "backups"))).toContain("Copy off the machineNo backup yet");
  });
});

describe("the banner while mail fails", () => {
  const inbox = (viewer: AdminViewer, mailFailing?: string) =>
    renderAdminPage({ ...props, viewer, ...(mailFailing ? { mailFailing } : {}) }).bodyHtml;

  it("is on a page behind the sign-in, right under the header, with the Health page's link for admins", () => {
    const forAdmin = inbox(admin, "535 auth");
    expect(forAdmin).toMatch(/<\/header><div role="alert" data-mail-failing/);
    expect(text(/<div role="alert" data-mail-failing[^]*?<\/div>/.exec(forAdmin)![0])).toBe(
      "✕Mail is failing: 535 auth See the Health page",
    );
    const forStaff = renderAdminPage({
      page: "error",
      viewer: staffer,
      status: 404,
      title: "Not found",
      message: "No.",
      mailFailing: "535 auth",
    }).bodyHtml;
    expect(text(/<div role="alert" data-mail-failing[^]*?<\/div>/.exec(forStaff)![0])).toBe(
      "✕Mail is failing: 535 auth Please tell an admin: sign-in links and notifications may not arrive.",
    );
  });

  it("is not there while mail works", () => {
    expect(inbox(admin)).not.toContain("data-mail-failing");
  });
});
