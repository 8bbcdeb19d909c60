import { HEALTH_LINE_LABELS, type HealthLineKey, HEALTH_LINES } from "#shared/admin/health.ts";
import { site } from "#shared/site.ts";
import { headerSafe, type OutgoingMail } from "./enquiry-email.ts";

// The Health page's alert to an admin (src/server/admin/health/health-alerts.ts): a line turned
// red, is still red a day on, or is clear again; its reason in words and the page's address.
// docs/decisions/052-the-health-page-and-alerts.md.

export const HEALTH_ALERT_KIND = "health-alert";

/** What the outbox row carries until the mail is sent. */
export type HealthAlertPayload = {
  line: HealthLineKey;
  state: "red" | "still-red" | "clear";
  reason: string;
  link: string;
};

/** The payload of a row, when it is one. */
export function healthAlertPayload(payload: Record<string, string> | null): HealthAlertPayload | undefined {
  if (!payload?.reason || !payload.link || !(HEALTH_LINES as readonly string[]).includes(payload.line ?? "")) return;
  if (!["red", "still-red", "clear"].includes(payload.state ?? "")) return;
  return payload as HealthAlertPayload;
}

const SUBJECT_LENGTH = 140;

export function healthAlertEmail(
  recipient: string,
  payload: HealthAlertPayload,
  options: { from: string; outboxId: string; hostname: string },
): OutgoingMail {
  const label = HEALTH_LINE_LABELS[payload.line];
  const subject =
    payload.state === "clear"
      ? `All clear: ${label} on the ${site.shortName} website`
      : `${payload.state === "red" ? "Needs attention" : "Still needs attention"}: ${label}: ${payload.reason}`;
  const opening =
    payload.state === "clear"
      ? `${label} on the website's Health page is well again:`
      : payload.state === "red"
        ? `${label} on the website's Health page has turned red:`
        : `${label} on the website's Health page is still red:`;
  const short = headerSafe(subject);
  return {
    from: options.from,
    to: headerSafe(recipient),
    messageId: `<${options.outboxId}@${options.hostname}>`,
    subject: short.length > SUBJECT_LENGTH ? `${short.slice(0, SUBJECT_LENGTH - 3)}...` : short,
    text: [
      "Hello,",
      "",
      opening,
      "",
      payload.reason,
      "",
      `The Health page (admins): ${payload.link}`,
      "",
      "Each admin gets one mail when a line turns red, one a day while it stays red, and one when it is clear again.",
      "",
      `${site.name} website`,
    ].join("\n"),
  };
}
