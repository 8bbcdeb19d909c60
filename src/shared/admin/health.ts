import { inIndia } from "../india-time.ts";

// The Health page's lines and the words they are told in: shared by the server, which writes each
// line's reasons (the page and the alert mails say them alike), and the page, which shows the rest.
// docs/decisions/052-the-health-page-and-alerts.md.

/** The lines that can turn red, by their key in health_alerts. */
export const HEALTH_LINES = ["backups", "mail", "publishing", "disk"] as const;
export type HealthLineKey = (typeof HEALTH_LINES)[number];

/** Each line as a person reads it: the page's section heading and the alert mail's subject. */
export const HEALTH_LINE_LABELS: Record<HealthLineKey, string> = {
  backups: "Backups",
  mail: "Mail",
  publishing: "Publishing",
  disk: "Storage",
};

/** Where a line stands: well, red (a person is needed), or not set up (mail without its settings). */
export type HealthState = "ok" | "red" | "off";

/** Each state in a word, so that colour is never the only sign. */
export const HEALTH_STATE_WORDS: Record<HealthState, string> = { ok: "OK", red: "Needs attention", off: "Not set up" };

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "23 Nov 2026, 14:05 IST". */
export function indiaTimeWords(moment: Date | string): string {
  const local = inIndia(new Date(moment));
  const hours = String(local.getUTCHours()).padStart(2, "0");
  const minutes = String(local.getUTCMinutes()).padStart(2, "0");
  return `${local.getUTCDate()} ${months[local.getUTCMonth()]} ${local.getUTCFullYear()}, ${hours}:${minutes} IST`;
}

/** A length of time in words, to the minute: "under a minute", "12 min", "2 h 5 min", "3 days 4 h". */
export function durationWords(ms: number): string {
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  if (minutes < 1) return "under a minute";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} days ${hours % 24} h` : `${days} days`;
}

/** Bytes as a person reads a file's or a disk's size: "14.2 MB", "1.3 GB". */
export function sizeWords(bytes: number): string {
  const mb = bytes / 1_000_000;
  if (mb < 0.1) return `${Math.max(0, Math.round(bytes / 1000))} kB`;
  if (mb < 1000) return `${mb.toFixed(1)} MB`;
  return `${(mb / 1000).toFixed(1)} GB`;
}

/** The outbox's kinds of mail, as a person names them. */
export function mailKindWords(kind: string): string {
  const words: Record<string, string> = {
    notification: "an enquiry's notification to the firm",
    acknowledgement: "an acknowledgement to a visitor",
    "reply-reminder": "a reply reminder",
    "staff-sign-in-link": "a sign-in link",
    "staff-invitation": "an invitation to the back office",
    "newsletter-confirmation": "a newsletter confirmation",
    newsletter: "a newsletter",
    "newsletter-test": "a newsletter test",
    "health-alert": "a health alert",
  };
  return words[kind] ?? `a message (${kind})`;
}
