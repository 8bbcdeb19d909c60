import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AdminPageName, AdminPagePropsOf, AdminViewer } from "#shared/admin/pages.ts";
import type { AnalyticsReport } from "#shared/analytics.ts";
import { htmlValidator } from "../../../test/html-validator.ts";
import { renderAdminPage } from "./entry-server.tsx";
import { PrivacyPage } from "./pages/privacy/privacy-page.tsx";
import { type AdminScreens, adminScreens } from "./screens.tsx";

// Every screen of the registry rendered through the server entry, with the least each page needs:
// its title, its one h1, and HTML the site's validator accepts. Then the form kit at work: a refused
// form shows each problem at its field and keeps what was typed.

const admin: AdminViewer = {
  id: "a1",
  name: "Meera Shah",
  email: "meera@example.com",
  role: "admin",
  canPublish: false,
};
const staffer: AdminViewer = {
  id: "s1",
  name: "Nisha Rao",
  email: "nisha@example.com",
  role: "staff",
  canPublish: false,
};
const at = "2026-11-23T06:00:00.000Z";

const emptyReport: AnalyticsReport = {
  from: "2026-11-17",
  to: "2026-11-23",
  visitors: 0,
  pageviews: 0,
  enquiries: 0,
  subscriptions: 0,
  conversionRate: 0,
  daily: [],
  pages: [],
  sources: [],
  campaigns: [],
  funnel: [],
  devices: [],
};

/** The least props of each page (a new page without props here does not compile), its title and its h1. */
const fixtures: { [Name in AdminPageName]: { props: AdminPagePropsOf<Name>; title: string; h1: string } } = {
  "sign-in": { props: { page: "sign-in", next: "/admin", mailConfigured: true }, title: "Sign in", h1: "Sign in" },
  invitation: {
    props: {
      page: "invitation",
      token: "t0k3n",
      invitee: { name: "Ravi Patel", email: "ravi@example.com", role: "staff" },
    },
    title: "Your invitation",
    h1: "Welcome, Ravi Patel",
  },
  "sign-in-link": {
    props: { page: "sign-in-link", token: "t0k3n", member: { name: "Ravi Patel", email: "ravi@example.com" } },
    title: "Sign in with a one-time link",
    h1: "Sign in with a one-time link",
  },
  "link-unusable": {
    props: { page: "link-unusable", kind: "invitation" },
    title: "Link cannot be used",
    h1: "This invitation cannot be used",
  },
  account: {
    props: { page: "account", viewer: admin, passkeys: [], sessions: [] },
    title: "Your account",
    h1: "Your account",
  },
  staff: {
    props: {
      page: "staff",
      viewer: admin,
      staff: [
        {
          id: admin.id,
          name: admin.name,
          email: admin.email,
          role: "admin",
          canPublish: false,
          createdAt: at,
          lastSignInAt: at,
          disabled: false,
          passkeys: 1,
          sessions: 1,
        },
      ],
    },
    title: "Staff",
    h1: "Staff",
  },
  audit: {
    props: {
      page: "audit",
      viewer: admin,
      events: [],
      filter: { action: "", actor: "", from: "", to: "" },
      actions: [],
      actors: [],
      pageNumber: 1,
      more: false,
    },
    title: "Audit log",
    h1: "Audit log",
  },
  inbox: {
    props: {
      page: "inbox",
      viewer: staffer,
      rows: [],
      filter: { status: "", owner: "", service: "", from: "", to: "", q: "" },
      counts: { new: 0, overdue: 0, unassigned: 0 },
      promise: { counted: 0, answered: 0, medianReplyMs: null },
      staff: [],
      pageNumber: 1,
      more: false,
    },
    title: "Enquiries",
    h1: "Enquiries",
  },
  enquiry: {
    props: {
      page: "enquiry",
      viewer: staffer,
      enquiry: {
        id: "e1",
        reference: "SGE-2026-0001",
        firstName: "Asha",
        lastName: "Mehta",
        email: "asha@example.com",
        company: null,
        service: null,
        message: "A study, please.",
        receivedAt: at,
        dueAt: at,
        status: "new",
        ownerId: null,
        owner: null,
        firstReplyAt: null,
        firstReplyBy: null,
        spamReason: null,
        attribution: null,
        version: 1,
        reply: { kind: "due", label: "Due in 24 h" },
      },
      notes: [],
      mail: [],
      staff: [],
    },
    title: "Enquiry SGE-2026-0001",
    h1: "Asha Mehta",
  },
  subscribers: {
    props: { page: "subscribers", viewer: staffer, subscribers: [], q: "", pageNumber: 1, more: false },
    title: "Subscribers",
    h1: "Subscribers",
  },
  privacy: {
    props: { page: "privacy", viewer: admin, retention: { spamDays: 30, closedEnquiryDays: 730, analyticsDays: 90 } },
    title: "Privacy",
    h1: "Privacy",
  },
  analytics: {
    props: { page: "analytics", viewer: staffer, period: "7d", report: emptyReport, excluded: false, enabled: true },
    title: "Analytics",
    h1: "Analytics",
  },
  error: {
    props: { page: "error", status: 404, title: "Not found", message: "There is no such page." },
    title: "Not found",
    h1: "Not found",
  },
};

/** The page as the server sends it (src/server/render/admin-renderer.ts), minus the assets. */
const documentOf = (title: string, body: string) =>
  `<!doctype html><html lang="en-IN"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

async function problems(html: string): Promise<string[]> {
  const report = await htmlValidator.validateString(html, "admin-page.html");
  return report.results.flatMap((entry) =>
    entry.messages.map((message) => `${message.ruleId}: ${message.message} (${message.selector})`),
  );
}

const h1s = (html: string) => [...html.matchAll(/<h1[^>]*>(.*?)<\/h1>/g)].map((match) => match[1]);

/** The opening tag of the element with this id. */
function element(html: string, id: string): string {
  const tag = new RegExp(`<[a-z]+ [^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0];
  if (!tag) throw new Error(`no element with id ${id}`);
  return tag;
}
const attribute = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
/** The forms of a page, each as its method and action (React writes attributes in an order of its own). */
const forms = (html: string) =>
  [...html.matchAll(/<form [^>]*>/g)].map(
    (match) => `${attribute(match[0], "method")} ${attribute(match[0], "action")}`,
  );

describe("the back office's screens", () => {
  it("has a screen for every page of the contract, and a fixture here for each", () => {
    expect(Object.keys(adminScreens).sort()).toEqual(Object.keys(fixtures).sort());
  });

  it.each(Object.keys(fixtures) as AdminPageName[])(
    "renders %s with its title, one h1 and valid HTML",
    async (name) => {
      const { props, title, h1 } = fixtures[name];
      const rendered = renderAdminPage(props);
      expect(rendered.title).toBe(title);
      expect(h1s(rendered.bodyHtml)).toEqual([h1]);
      expect(await problems(documentOf(rendered.title, rendered.bodyHtml))).toEqual([]);
    },
  );

  it("the registry's type refuses a missing page and a screen with another page's props", () => {
    const { staff: _staff, ...withoutStaff } = adminScreens;
    // @ts-expect-error: the staff page has no screen.
    const incomplete: AdminScreens = withoutStaff;
    // @ts-expect-error: the privacy page's component cannot render the staff page's props.
    const mismatched: AdminScreens = { ...adminScreens, staff: { title: () => "Staff", Page: PrivacyPage } };
    expect([incomplete, mismatched]).toHaveLength(2);
  });
});

describe("a refused form", () => {
  const staffPage = fixtures.staff.props;

  it("shows each problem at its field, tied to it, and keeps what was typed (escaped)", async () => {
    const { bodyHtml, title } = renderAdminPage({
      ...staffPage,
      formName: "invite",
      form: { values: { name: "Ravi <b>", email: "x" }, errors: { email: "Enter a valid email address" } },
    });
    const email = element(bodyHtml, "invite-email");
    expect(attribute(email, "aria-invalid")).toBe("true");
    expect(attribute(email, "value")).toBe("x");
    // The problem is said right after the field, and the field names it as its description.
    const problem = /<p id="([^"]+)"[^>]*>Enter a valid email address<\/p>/.exec(bodyHtml);
    expect(problem).not.toBeNull();
    expect(attribute(email, "aria-describedby")!.split(" ")).toContain(problem![1]);
    expect(bodyHtml.indexOf(email)).toBeLessThan(problem!.index);
    expect(problem!.index).toBeLessThan(bodyHtml.indexOf('id="invite-role"'));

    const name = element(bodyHtml, "invite-name");
    expect(attribute(name, "value")).toBe("Ravi &lt;b&gt;");
    expect(attribute(name, "aria-invalid")).toBeUndefined();
    expect(attribute(name, "aria-describedby")).toBeUndefined();
    expect(bodyHtml).not.toContain("Ravi <b>");
    expect(await problems(documentOf(title, bodyHtml))).toEqual([]);
  });

  it("belongs to the form it names: the invite form's problem is not shown at a member's role form", () => {
    const other = {
      ...staffPage.staff[0]!,
      id: "s2",
      name: "Nisha Rao",
      email: "nisha@example.com",
      role: "staff" as const,
    };
    const third = { ...other, id: "s3", name: "Kiran Das", email: "kiran@example.com" };
    const page = { ...staffPage, staff: [...staffPage.staff, other, third] };

    const role = renderAdminPage({
      ...page,
      formName: "role",
      form: { values: { id: "s3", role: "owner" }, errors: { role: "Choose a role: admin or staff." } },
    }).bodyHtml;
    expect(attribute(element(role, "role-s3"), "aria-invalid")).toBe("true");
    expect(attribute(element(role, "role-s2"), "aria-invalid")).toBeUndefined();
    expect(role).not.toContain('id="role-a1"');
    expect(attribute(element(role, "invite-role"), "aria-invalid")).toBeUndefined();
    expect(role.match(/Choose a role: admin or staff\./g)).toHaveLength(1);

    const invite = renderAdminPage({
      ...page,
      formName: "invite",
      form: { values: { role: "owner" }, errors: { role: "Choose a role: admin or staff." } },
    }).bodyHtml;
    expect(attribute(element(invite, "invite-role"), "aria-invalid")).toBe("true");
    expect(attribute(element(invite, "role-s2"), "aria-invalid")).toBeUndefined();
    expect(attribute(element(invite, "role-s3"), "aria-invalid")).toBeUndefined();
  });
});

describe("the staff page", () => {
  it("offers every other member a role change that posts to their own address", () => {
    const other = { ...fixtures.staff.props.staff[0]!, id: "s 2/x", name: "Nisha Rao", role: "staff" as const };
    const html = renderAdminPage({ ...fixtures.staff.props, staff: [...fixtures.staff.props.staff, other] }).bodyHtml;
    expect(forms(html).filter((form) => form.endsWith("/role"))).toEqual(["post /admin/staff/s%202%2Fx/role"]);
    expect(html).toContain('<input type="hidden" name="id" value="s 2/x"/>');
    expect(html).toContain("Change role");
    expect(html).toContain("it does not change their role.");
  });
});

describe("the privacy page", () => {
  const privacy = fixtures.privacy.props;

  it("looks an address up by POST, so it is never in a URL, and offers the erasure only with a preview", () => {
    const blank = renderAdminPage(privacy).bodyHtml;
    expect(forms(blank)).toEqual(["post /admin/sign-out", "post /admin/privacy/preview"]);
    expect(blank).toContain("deleted 90 days after");

    const email = "asha+x@example.com";
    const preview = renderAdminPage({
      ...privacy,
      email,
      preview: { enquiries: 2, notes: 1, mail: 3, subscriptions: 1 },
    }).bodyHtml;
    expect(preview).toContain("Enquiries: 2");
    expect(forms(preview)).toEqual([
      "post /admin/sign-out",
      "post /admin/privacy/preview",
      "post /admin/privacy/erase",
    ]);
    expect(preview).toContain(`<input type="hidden" name="confirm" value="${email}"/>`);
    expect([...preview.matchAll(/href="([^"]*)"/g)].map((match) => match[1]).join(" ")).not.toContain("asha");
  });
});

describe("the navigation", () => {
  it("shows each person the screens their role may use, and marks the current one", () => {
    const forStaff = renderAdminPage(fixtures.inbox.props).bodyHtml;
    const nav = (html: string) => /<nav aria-label="Back office".*?<\/nav>/.exec(html)![0];
    expect([...nav(forStaff).matchAll(/>([^<>]+)<\/a>/g)].map((match) => match[1])).toEqual([
      "Enquiries",
      "Subscribers",
      "Analytics",
    ]);
    expect(nav(forStaff)).toContain('<a href="/admin" aria-current="page"');
    const forAdmin = renderAdminPage({ ...fixtures.inbox.props, viewer: admin }).bodyHtml;
    expect([...nav(forAdmin).matchAll(/>([^<>]+)<\/a>/g)].map((match) => match[1])).toEqual([
      "Enquiries",
      "Subscribers",
      "Analytics",
      "Staff",
      "Audit log",
      "Privacy",
    ]);
  });
});

describe("the pager", () => {
  it("keeps the list's filter in its links", () => {
    const html = renderAdminPage({
      ...fixtures.inbox.props,
      filter: { ...fixtures.inbox.props.filter, status: "new", q: "solar plant" },
      pageNumber: 2,
      more: true,
    }).bodyHtml;
    expect(html).toContain('<a href="/admin?status=new&amp;q=solar+plant" class="admin-button-secondary">Newer</a>');
    expect(html).toContain(
      '<a href="/admin?status=new&amp;q=solar+plant&amp;page=3" class="admin-button-secondary">Older</a>',
    );
  });
});

describe("the back office's own files", () => {
  it("write no back-office path by hand: every link and action comes from the route table", () => {
    const folder = fileURLToPath(new URL(".", import.meta.url));
    const files = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter(
      (file) => /\.tsx?$/.test(file) && !file.endsWith(".test.tsx"),
    );
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((file) => {
      const source = readFileSync(path.join(folder, file), "utf8");
      return /["'`]\/admin/.test(source) || /\badminPaths\b|\badminNav\b/.test(source);
    });
    expect(offenders).toEqual([]);
  });
});
