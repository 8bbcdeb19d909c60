import { site } from "#shared/site.ts";
import { headerSafe, type OutgoingMail } from "./enquiry-email.ts";

// Mail to members of staff: a one-time sign-in link, or an invitation to the back office. The
// link is the payload the outbox row carries until the message is sent.

export const STAFF_MAIL_KINDS = ["staff-sign-in-link", "staff-invitation"] as const;
export type StaffMailKind = (typeof STAFF_MAIL_KINDS)[number];

export function isStaffMailKind(kind: string): kind is StaffMailKind {
  return (STAFF_MAIL_KINDS as readonly string[]).includes(kind);
}

export function staffEmail(
  kind: StaffMailKind,
  recipient: string,
  payload: { link: string; name?: string },
  options: { from: string; outboxId: string; hostname: string },
): OutgoingMail {
  const common = {
    from: options.from,
    to: headerSafe(recipient),
    messageId: `<${options.outboxId}@${options.hostname}>`,
  };
  if (kind === "staff-invitation") {
    return {
      ...common,
      subject: `Your invitation to the ${site.shortName} back office`,
      text: [
        `Hello${payload.name ? ` ${headerSafe(payload.name)}` : ""},`,
        "",
        `You have been invited to the back office of the ${site.name} website. Open this link within 24 hours on the device you will work from, and create a passkey there (your fingerprint, face or device PIN: there is no password):`,
        "",
        payload.link,
        "",
        "The link works once. If you did not expect this, ignore this message.",
      ].join("\n"),
    };
  }
  return {
    ...common,
    subject: `Your sign-in link for the ${site.shortName} back office`,
    text: [
      "Hello,",
      "",
      "Someone (we hope you) asked for a link to sign in to the back office without a passkey. It works once, within 15 minutes:",
      "",
      payload.link,
      "",
      "Once signed in, add a passkey for this device under Account. If you did not ask for this link, ignore this message: nobody can use it without access to your mailbox.",
    ].join("\n"),
  };
}
