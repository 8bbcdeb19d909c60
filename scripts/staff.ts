import { adminHref } from "../src/shared/admin/routes.ts";
import { EMAIL_MAX, isPlausibleEmail } from "../src/shared/schemas/email.ts";
import { hasControlCharacters } from "../src/shared/schemas/text-rules.ts";
import { COMMAND_LINE, recordAudit } from "../src/server/admin/audit/audit.ts";
import { endSessionsOf } from "../src/server/admin/door/sessions.ts";
import {
  changeRoleKeepingAnAdmin,
  countActiveAdmins,
  createToken,
  findStaffByEmail,
  inviteStaff,
  listStaff,
  normaliseEmail,
  setStaffDisabled,
  STAFF_ROLES,
  type StaffRole,
} from "../src/server/admin/staff/staff-repository.ts";
import { parseConfig } from "../src/server/config.ts";
import { openCommandDatabase } from "../src/server/db/command-database.ts";
import { printable, toTable } from "../src/server/export/export-format.ts";
import { formatIndiaTime } from "../src/server/mail/enquiry-email.ts";

// `npm run staff -- <command>`: the back office's staff from the command line, for the first
// admin and for anyone locked out. Works while the site runs, on the embedded database and on
// PostgreSQL, like `npm run enquiries`. Every change is written to the audit trail as done by
// "command line".
//
//   invite <email> --name "<name>" [--role admin|staff]   prints the invitation link last
//   sign-in-link <email>                                   prints a one-time sign-in link last
//   list                                                   everyone, with role and state
//   disable <email>                                        disables the account, ends its sessions

const usage = `Usage:
  npm run staff -- invite <email> --name "<name>" [--role admin|staff]
  npm run staff -- sign-in-link <email>
  npm run staff -- list
  npm run staff -- disable <email>`;

class UsageError extends Error {}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  if (index === -1) return undefined;
  const value = args[index + 1];
  if (value === undefined || value.startsWith("--")) throw new UsageError(`--${name} needs a value.`);
  return value;
}

function emailArgument(args: string[]): string {
  const email = normaliseEmail(args[1] ?? "");
  if (!isPlausibleEmail(email) || email.length > EMAIL_MAX)
    throw new UsageError(`"${printable(args[1] ?? "")}" is not an email address.`);
  return email;
}

async function main() {
  const args = process.argv.slice(2);
  const command = args[0];
  if (!command || command === "--help" || command === "-h") {
    console.log(usage);
    return;
  }
  if (!["invite", "sign-in-link", "list", "disable"].includes(command))
    throw new UsageError(`Unknown command "${printable(command)}".`);

  const config = parseConfig(process.env);
  const database = await openCommandDatabase(config, "npm run staff");
  const { db } = database;
  const now = new Date();
  try {
    if (command === "list") {
      const members = await listStaff(db, now);
      const rows = members.map((member) => [
        printable(member.name),
        member.email,
        member.role,
        member.disabledAt ? "disabled" : member.passkeys ? "active" : "invited",
        String(member.passkeys),
        String(member.sessions),
        member.lastSignInAt ? formatIndiaTime(member.lastSignInAt.toISOString()) : "never",
      ]);
      process.stdout.write(toTable(["Name", "Email", "Role", "State", "Passkeys", "Sessions", "Last sign-in"], rows));
      process.stderr.write(`${members.length} member${members.length === 1 ? "" : "s"} of staff\n`);
      return;
    }

    const email = emailArgument(args);
    if (command === "invite") {
      const name = option(args, "name")?.trim();
      if (!name) throw new UsageError('invite needs --name "<name>".');
      if (name.length > 100 || hasControlCharacters(name) || /[\t\r\n]/.test(name))
        throw new UsageError("--name must be one line of at most 100 characters.");
      const role = (option(args, "role") ?? "staff") as StaffRole;
      if (!STAFF_ROLES.includes(role)) throw new UsageError("--role must be admin or staff.");
      const existing = await findStaffByEmail(db, email);
      if (existing?.disabledAt)
        throw new Error(`${email} is disabled; an admin can enable the account in the back office first.`);
      const invited = await inviteStaff(db, { email, name, role }, now);
      // On the server's command line a role may change with the invitation (the way back in when no
      // admin is left), but as its own audited action, as the back office's "Change role" is.
      if (existing && existing.role !== role) {
        const changed = await changeRoleKeepingAnAdmin(db, existing.id, role);
        if (changed === "last-admin") throw new Error(`${email} is the only admin: make someone else an admin first.`);
        await recordAudit(
          db,
          {
            actor: COMMAND_LINE,
            action: "staff-role-changed",
            target: { type: "staff", id: existing.id, label: email },
            details: { from: existing.role, to: role },
          },
          now,
        );
      }
      await recordAudit(
        db,
        {
          actor: COMMAND_LINE,
          action: "invitation-created",
          target: { type: "staff", id: invited.member.id, label: email },
          details: { role },
        },
        now,
      );
      console.log(
        `${invited.created ? "Invited" : "Invited again"}: ${printable(invited.member.name)} <${email}>, ${role}. The link works once, within 24 hours:`,
      );
      console.log(`${config.siteUrl}${adminHref("invitation", { token: invited.token })}`);
      return;
    }

    const member = await findStaffByEmail(db, email);
    if (!member) throw new Error(`There is no member of staff with the address ${email}.`);
    if (command === "sign-in-link") {
      if (member.disabledAt)
        throw new Error(`${email} is disabled; an admin can enable the account in the back office first.`);
      const token = await createToken(db, member.id, "sign-in", now);
      await recordAudit(
        db,
        { actor: COMMAND_LINE, action: "sign-in-link-created", target: { type: "staff", id: member.id, label: email } },
        now,
      );
      console.log(
        `A one-time sign-in link for ${printable(member.name)} <${email}>. It works once, within 15 minutes:`,
      );
      console.log(`${config.siteUrl}${adminHref("signInLink", { token })}`);
      return;
    }

    // disable
    if (member.disabledAt) {
      console.log(`${email} is already disabled.`);
      return;
    }
    if (member.role === "admin" && (await countActiveAdmins(db)) <= 1) {
      console.log(
        `Note: ${email} was the only active admin; invite another with npm run staff -- invite <email> --name "<name>" --role admin.`,
      );
    }
    const { sessionsEnded } = await setStaffDisabled(db, member.id, true, now);
    await endSessionsOf(db, member.id);
    await recordAudit(
      db,
      {
        actor: COMMAND_LINE,
        action: "staff-disabled",
        target: { type: "staff", id: member.id, label: email },
        details: { sessionsEnded },
      },
      now,
    );
    console.log(
      `Disabled ${printable(member.name)} <${email}>; ${sessionsEnded} session${sessionsEnded === 1 ? "" : "s"} ended.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${usage}`);
    process.exit(2);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
