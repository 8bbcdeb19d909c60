// India Standard Time is UTC+05:30 all year (no daylight saving), so a moment's date and time in
// India is plain arithmetic, with no time-zone database: the site's dates are the firm's dates.

export const INDIA_UTC_OFFSET = "+05:30";
const INDIA_OFFSET_MS = (5 * 60 + 30) * 60_000;

/** The moment shifted so that its UTC fields (getUTCDate and the rest) read India's wall clock. */
export function inIndia(moment: Date): Date {
  return new Date(moment.getTime() + INDIA_OFFSET_MS);
}
