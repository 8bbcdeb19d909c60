// Pages of a back-office list: ?page=N, from 1 to MAX_PAGE; anything else is page 1. Each list
// reads one row more than it shows, to know whether there is a next page.

export const MAX_PAGE = 10_000;

export function pageNumberOf(query: unknown): number {
  const value = typeof query === "object" && query !== null ? (query as Record<string, unknown>).page : undefined;
  const parsed = typeof value === "string" && /^\d{1,6}$/.test(value) ? Number(value) : 1;
  return Math.min(Math.max(1, parsed), MAX_PAGE);
}

/** The rows of one page from `size + 1` rows read, and whether there are more. */
export function pageOf<Row>(rows: Row[], size: number): { rows: Row[]; more: boolean } {
  return { rows: rows.slice(0, size), more: rows.length > size };
}
