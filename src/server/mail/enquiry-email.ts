import type { ContactSubmission } from "#shared/api-types.ts";
import { limits, serviceLabel, site } from "#shared/site.ts";
import { enquiryReference } from "../db/contact-repository.ts";

// The messages the outbox sends. Every value that reaches a header has its line breaks removed,
// and addresses go in as objects, so no field of an enquiry can add a header.

export type OutgoingMail = {
  from: string;
  to: string | string[];
  replyTo?: { name: string; address: string };
  subject: string;
  text: string;
  /** An HTML alternative to the text (the newsletter); the text part is always there. */
  html?: string;
  /** Further header lines (List-Unsubscribe…), each value already free of line breaks. */
  headers?: Record<string, string>;
  messageId: string;
};

const istFormat = new Intl.DateTimeFormat("en-IN", {
  dateStyle: "long",
  timeStyle: "short",
  timeZone: "Asia/Kolkata",
});

export function formatIndiaTime(iso: string): string {
  return `${istFormat.format(new Date(iso))} IST`;
}

export function headerSafe(value: string): string {
  return value.replace(/[\r\n\u2028\u2029\0]+/g, " ").trim();
}

export function notificationEmail(
  submission: ContactSubmission,
  options: { from: string; to: string[]; outboxId: string; hostname: string },
): OutgoingMail {
  const name = headerSafe(`${submission.firstName} ${submission.lastName}`);
  const service = serviceLabel(submission.service) ?? "Not specified";
  return {
    from: options.from,
    to: options.to,
    replyTo: { name, address: headerSafe(submission.email) },
    subject: headerSafe(`New enquiry ${enquiryReference(submission.id)}: ${service} from ${name}`),
    messageId: `<${options.outboxId}@${options.hostname}>`,
    text: [
      `A new enquiry arrived through the website. Reply to this email to answer ${submission.firstName} directly.`,
      "",
      `Reference: ${enquiryReference(submission.id)}`,
      `Received:  ${formatIndiaTime(submission.createdAt)}`,
      `Name:      ${submission.firstName} ${submission.lastName}`,
      `Email:     ${submission.email}`,
      `Company:   ${submission.company ?? "Not given"}`,
      `Service:   ${service}`,
      "",
      "Project details:",
      submission.message,
      "",
      `Our promise is a reply within 24 hours.`,
    ].join("\n"),
  };
}

/**
 * The visitor's acknowledgement goes to whatever address was typed into the form, so it carries
 * nothing else the visitor wrote (not even the name, in the greeting or the To header): otherwise
 * anyone could make the firm's mail server send text of their choosing to a third party.
 */
export function acknowledgementEmail(
  submission: ContactSubmission,
  options: { from: string; outboxId: string; hostname: string },
): OutgoingMail {
  const reference = enquiryReference(submission.id);
  return {
    from: options.from,
    to: headerSafe(submission.email),
    subject: `We received your enquiry (${reference})`,
    messageId: `<${options.outboxId}@${options.hostname}>`,
    text: [
      "Hello,",
      "",
      `Thank you for contacting ${site.name}. We have received your enquiry and an engineer will reply within ${limits.replyWithinHours} hours.`,
      "",
      `Your reference number is ${reference}. Please quote it if you write to us about this enquiry.`,
      "",
      `${site.name}`,
      `${site.phone} | ${site.email}`,
    ].join("\n"),
  };
}

/** The reminder 4 hours before an enquiry's reply is due, to its owner (or the firm). */
export function reminderEmail(
  submission: ContactSubmission,
  options: { from: string; to: string | string[]; link: string | undefined; outboxId: string; hostname: string },
): OutgoingMail {
  const name = headerSafe(`${submission.firstName} ${submission.lastName}`);
  const due = new Date(new Date(submission.createdAt).getTime() + limits.replyWithinHours * 3_600_000).toISOString();
  return {
    from: options.from,
    to: typeof options.to === "string" ? headerSafe(options.to) : options.to,
    subject: headerSafe(`Reply due in 4 hours: enquiry ${enquiryReference(submission.id)} from ${name}`),
    messageId: `<${options.outboxId}@${options.hostname}>`,
    text: [
      `The enquiry ${enquiryReference(submission.id)} from ${name} has not been marked replied yet.`,
      `Our promise is a reply within ${limits.replyWithinHours} hours: it is due by ${formatIndiaTime(due)}.`,
      "",
      ...(options.link ? ["Open it in the back office:", options.link, ""] : []),
      "Once you have answered, press Mark replied there so the clock stops.",
    ].join("\n"),
  };
}
