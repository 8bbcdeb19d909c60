import { inIndia } from "#shared/india-time.ts";

// Dates read like "January 5, 2025", in India's time zone so that the server's HTML and the
// browser's hydration agree wherever either runs. Not an Intl.DateTimeFormat with a time zone:
// building one costs a mid-range phone about 25 ms, in the middle of hydration.

const months = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

export function formatLongDate(iso: string): string {
  const date = inIndia(new Date(iso));
  return `${months[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}
