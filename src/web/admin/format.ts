import { inIndia } from "#shared/india-time.ts";

// Dates and times as the firm reads them: in India, without a time-zone database.

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "23 Nov 2026, 14:05 IST". */
export function formatIndiaDateTime(iso: string): string {
  const local = inIndia(new Date(iso));
  const hours = String(local.getUTCHours()).padStart(2, "0");
  const minutes = String(local.getUTCMinutes()).padStart(2, "0");
  return `${local.getUTCDate()} ${months[local.getUTCMonth()]} ${local.getUTCFullYear()}, ${hours}:${minutes} IST`;
}

/** "14:05", in India. */
export function formatIndiaTime(iso: string): string {
  const local = inIndia(new Date(iso));
  return `${String(local.getUTCHours()).padStart(2, "0")}:${String(local.getUTCMinutes()).padStart(2, "0")}`;
}

/** "23 Nov 2026". */
export function formatIndiaDate(iso: string): string {
  const local = inIndia(new Date(iso));
  return `${local.getUTCDate()} ${months[local.getUTCMonth()]} ${local.getUTCFullYear()}`;
}

/**
 * A moment as a datetime-local field shows it, in India time ("2026-11-26T14:30"); "" for "" or a
 * value that is not a moment.
 */
export function indiaDateTimeLocal(iso: string): string {
  const time = Date.parse(iso);
  return iso && !Number.isNaN(time) ? inIndia(new Date(time)).toISOString().slice(0, 16) : "";
}
