// India Standard Time is UTC+05:30 all year (no daylight saving), so a moment's date and time in
// India is plain arithmetic, with no time-zone database: the site's dates are the firm's dates.
// Every India date the site reads or writes (a filter's "from", a report's days, the daily
// totals) goes through this module; a date from outside is read with parseIndiaDate alone.

export const INDIA_UTC_OFFSET = "+05:30";
export const INDIA_OFFSET_MS = (5 * 60 + 30) * 60_000;
export const DAY_MS = 86_400_000;

/**
 * The years a date typed by a person may name. Nothing the site holds is older than 2000, and a
 * year past 2099 is a typing slip or an attack: far years once made a day-by-day loop run for ever
 * (docs/back-office.md, "Dates").
 */
export const FIRST_YEAR = 2000;
export const LAST_YEAR = 2099;

/** The moment shifted so that its UTC fields (getUTCDate and the rest) read India's wall clock. */
export function inIndia(moment: Date): Date {
  return new Date(moment.getTime() + INDIA_OFFSET_MS);
}

/** The India date (YYYY-MM-DD) of a moment. */
export function indiaDay(moment: Date): string {
  return inIndia(moment).toISOString().slice(0, 10);
}

/** The moment an India date (YYYY-MM-DD) begins. */
export function startOfIndiaDay(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00${INDIA_UTC_OFFSET}`));
}

/** The India date `count` days after this one (before it, for a negative count). */
export function addIndiaDays(day: string, count: number): string {
  return indiaDay(new Date(startOfIndiaDay(day).getTime() + count * DAY_MS));
}

/** The India date after this one. */
export function nextIndiaDay(day: string): string {
  return addIndiaDays(day, 1);
}

/** How many days from one India date to another (0 for the same day; negative when `to` is earlier). */
export function indiaDaysBetween(from: string, to: string): number {
  return Math.round((startOfIndiaDay(to).getTime() - startOfIndiaDay(from).getTime()) / DAY_MS);
}

/**
 * A real calendar date written YYYY-MM-DD, in FIRST_YEAR..LAST_YEAR, or undefined. The one way a
 * date typed by a person (a query string, a form) becomes a date the site uses.
 */
export function parseIndiaDate(value: unknown): string | undefined {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const year = Number(value.slice(0, 4));
  if (year < FIRST_YEAR || year > LAST_YEAR) return undefined;
  const start = startOfIndiaDay(value);
  return !Number.isNaN(start.getTime()) && indiaDay(start) === value ? value : undefined;
}
