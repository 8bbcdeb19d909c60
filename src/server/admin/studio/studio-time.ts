import { INDIA_UTC_OFFSET, inIndia, indiaDay } from "#shared/india-time.ts";
import { INDIA_DATETIME_PATTERN } from "#shared/admin/schemas.ts";

// The studio's times: a publish date is typed in India time (a datetime-local field) and stored
// in UTC, and the studio's messages give India times ("Changed by Meera Shah at 14:32").

export const PUBLISH_DATE_PROBLEM = "Publish date must be a date and time, like 2026-11-26T14:30";

/**
 * The moment of a datetime-local value typed in India time ("2026-11-26T14:30"), as a UTC ISO
 * string; undefined when it is no real moment (30 February).
 */
export function indiaLocalToIso(value: string): string | undefined {
  if (!INDIA_DATETIME_PATTERN.test(value)) return undefined;
  const moment = new Date(`${value}:00${INDIA_UTC_OFFSET}`);
  if (Number.isNaN(moment.getTime()) || isoToIndiaLocal(moment.toISOString()) !== value) return undefined;
  return moment.toISOString();
}

/** A stored moment as the editor's datetime-local field shows it, in India time; "" for none. */
export function isoToIndiaLocal(iso: string): string {
  if (!iso) return "";
  const moment = new Date(iso);
  return Number.isNaN(moment.getTime()) ? "" : inIndia(moment).toISOString().slice(0, 16);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The India time of a moment, "14:32", with its day when that is not today ("14:32 on 25 Nov"). */
export function indiaTimeLabel(moment: Date, now: Date): string {
  const time = inIndia(moment).toISOString().slice(11, 16);
  return indiaDay(moment) === indiaDay(now) ? time : `${time} on ${indiaDateLabel(moment, now)}`;
}

/** The India date of a moment, "3 Nov", with its year when that is not this year ("3 Nov 2025"). */
export function indiaDateLabel(moment: Date, now: Date): string {
  const local = inIndia(moment);
  const label = `${local.getUTCDate()} ${MONTHS[local.getUTCMonth()]}`;
  return local.getUTCFullYear() === inIndia(now).getUTCFullYear() ? label : `${label} ${local.getUTCFullYear()}`;
}
