// Dates read like "January 5, 2025", in India's time zone so that the server's HTML and the
// browser's hydration agree wherever either runs. India Standard Time is UTC+05:30 all year (no
// daylight saving), so the date is plain arithmetic: an Intl.DateTimeFormat with a time zone
// costs the browser about 25 ms to build on a mid-range phone, in the middle of hydration.

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
const INDIA_OFFSET_MS = (5 * 60 + 30) * 60_000;

export function formatLongDate(iso: string): string {
  const inIndia = new Date(new Date(iso).getTime() + INDIA_OFFSET_MS);
  return `${months[inIndia.getUTCMonth()]} ${inIndia.getUTCDate()}, ${inIndia.getUTCFullYear()}`;
}
