// Dates read like "January 5, 2025", in India's time zone so that the server's HTML and the
// browser's hydration agree wherever either runs.
const longDate = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "Asia/Kolkata",
});

export function formatLongDate(iso: string): string {
  return longDate.format(new Date(iso));
}
