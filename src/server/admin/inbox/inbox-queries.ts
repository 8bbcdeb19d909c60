import { attributionLabel } from "../../analytics/counting.ts";
import { and, asc, desc, eq, gte, inArray, isNull, lt, ne, type SQL, sql } from "drizzle-orm";
import { type InboxFilter, type InboxRowView, type PromiseFigures } from "#shared/admin/pages.ts";
import { REPLY_WITHIN_MS, replyState } from "#shared/inbox.ts";
import { firstProblem, parseForm } from "#shared/admin/forms.ts";
import { inboxFilterForm } from "#shared/admin/schemas.ts";
import { DAY_MS, nextIndiaDay, startOfIndiaDay } from "#shared/india-time.ts";
import { serviceLabel } from "#shared/site.ts";
import { type Database, queryRows } from "../../db/client.ts";
import { enquiryReference } from "../../db/contact-repository.ts";
import { type ContactSubmissionRow, contactSubmissions, enquirySearchText, staff } from "../../db/schema.ts";

// The enquiry inbox's queries: the filter a query string asks for, the list, its counts and the
// reply promise's figures. The routes are in inbox-routes.ts.

export const INBOX_PAGE_SIZE = 50;
/** The most rows one CSV export carries. */
export const EXPORT_LIMIT = 100_000;

export class BadFilter extends Error {}

/** The filter a query string asks for; a value that cannot be one throws BadFilter naming it. */
export function parseInboxFilter(query: Record<string, unknown>): InboxFilter {
  const parsed = parseForm(inboxFilterForm, query);
  if (!parsed.ok) throw new BadFilter(firstProblem(parsed.form, "The filter is not one."));
  return parsed.data;
}

/** The SQL conditions of a filter. Without a status, the inbox shows everything but spam. */
export function inboxConditions(filter: InboxFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.status === "") conditions.push(ne(contactSubmissions.status, "spam"));
  else if (filter.status !== "all") conditions.push(eq(contactSubmissions.status, filter.status));
  if (filter.owner === "none") conditions.push(isNull(contactSubmissions.ownerId));
  else if (filter.owner) conditions.push(eq(contactSubmissions.ownerId, filter.owner));
  if (filter.service) conditions.push(eq(contactSubmissions.service, filter.service));
  const from = filter.from ? startOfIndiaDay(filter.from) : undefined;
  const to = filter.to ? startOfIndiaDay(nextIndiaDay(filter.to)) : undefined;
  if (from) conditions.push(gte(contactSubmissions.createdAt, from));
  if (to) conditions.push(lt(contactSubmissions.createdAt, to));
  if (filter.q) {
    const pattern = `%${filter.q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    // One expression over all four: the one the trigram index is built on (schema.ts).
    conditions.push(sql`(${enquirySearchText}) ilike ${pattern}`);
  }
  return conditions;
}

/** One page of the filtered inbox, newest first, and whether there are more. */
/** Rows one query of an export reads: the export's work is done a batch at a time (EXPORT_LIMIT in all). */
export const EXPORT_BATCH_ROWS = 200;

export async function listInbox(db: Database, filter: InboxFilter, page: number, limit = INBOX_PAGE_SIZE) {
  return withOwners(
    db,
    limit,
    await db
      .select()
      .from(contactSubmissions)
      .where(and(...inboxConditions(filter)))
      .orderBy(desc(contactSubmissions.createdAt), desc(contactSubmissions.id))
      .limit(limit + 1)
      .offset((page - 1) * limit),
  );
}

/**
 * The enquiries a filter matches, as the list orders them, EXPORT_BATCH_ROWS at a time, each
 * batch read after the last one's final row (its exact time and id, read by the database) with a
 * turn of the event loop between: on the embedded database a query runs on the event loop, and
 * one of 3,000 enquiries held it over a second (the event-loop kit). EXPORT_LIMIT in all.
 */
export async function* inboxExportBatches(db: Database, filter: InboxFilter) {
  let last: string | undefined;
  for (let read = 0; read < EXPORT_LIMIT;) {
    const after = last
      ? sql`(${contactSubmissions.createdAt}, ${contactSubmissions.id}) < (select created_at, id from contact_submissions where id = ${last})`
      : undefined;
    const limit = Math.min(EXPORT_BATCH_ROWS, EXPORT_LIMIT - read);
    const enquiries = await db
      .select()
      .from(contactSubmissions)
      .where(and(...inboxConditions(filter), after))
      .orderBy(desc(contactSubmissions.createdAt), desc(contactSubmissions.id))
      .limit(limit);
    const { rows } = await withOwners(db, limit, enquiries);
    yield rows;
    if (enquiries.length < limit) return;
    read += enquiries.length;
    last = enquiries.at(-1)!.id;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Enquiries with their owners' names, the first `limit`, and whether there were more. */
async function withOwners(db: Database, limit: number, enquiries: ContactSubmissionRow[]) {
  // The enquiries first, then their owners' names: joined in one query, the planner sorts every
  // row that matches instead of reading the newest through the index.
  const ownerIds = [...new Set(enquiries.flatMap((row) => (row.ownerId ? [row.ownerId] : [])))];
  const names = new Map(
    ownerIds.length
      ? (await db.select({ id: staff.id, name: staff.name }).from(staff).where(inArray(staff.id, ownerIds))).map(
          (row) => [row.id, row.name],
        )
      : [],
  );
  const rows = enquiries.map((enquiry) => ({
    enquiry,
    owner: enquiry.ownerId ? (names.get(enquiry.ownerId) ?? null) : null,
  }));
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

export function rowView(row: { enquiry: ContactSubmissionRow; owner: string | null }, now: Date): InboxRowView {
  const { enquiry } = row;
  return {
    id: enquiry.id,
    reference: enquiryReference(enquiry.id),
    name: `${enquiry.firstName} ${enquiry.lastName}`,
    email: enquiry.email,
    company: enquiry.company,
    service: serviceLabel(enquiry.service) ?? enquiry.service,
    receivedAt: enquiry.createdAt.toISOString(),
    status: enquiry.status,
    owner: row.owner,
    reply: replyState(
      { receivedAt: enquiry.createdAt, firstReplyAt: enquiry.firstReplyAt, status: enquiry.status },
      now,
    ),
    spamReason: enquiry.spamReason,
    attribution: attributionLabel(enquiry),
  };
}

/** The counts above the list: New, Overdue (open, unreplied, past due) and Unassigned (open). */
export async function inboxCounts(db: Database, now: Date) {
  const dueBefore = new Date(now.getTime() - REPLY_WITHIN_MS).toISOString();
  // Three counts, each the shape of an index: status (the list's), and the two partial indexes
  // of open enquiries (schema.ts).
  const [row] = await queryRows<{ new: number | string; overdue: number | string; unassigned: number | string }>(
    db,
    sql`select (select count(*) from contact_submissions where status = 'new') as new,
               (select count(*) from contact_submissions
                 where first_reply_at is null and status not in ('spam', 'won', 'lost') and created_at <= ${dueBefore}::timestamptz) as overdue,
               (select count(*) from contact_submissions where owner_id is null and status not in ('spam', 'won', 'lost')) as unassigned`,
  );
  return { new: Number(row?.new ?? 0), overdue: Number(row?.overdue ?? 0), unassigned: Number(row?.unassigned ?? 0) };
}

/**
 * The last 30 days against the promise: of the enquiries whose outcome is known (replied, or
 * past due unreplied), how many were answered within it; and the median time to a first reply.
 */
export async function promiseFigures(db: Database, now: Date): Promise<PromiseFigures> {
  const since = new Date(now.getTime() - 30 * DAY_MS).toISOString();
  const dueBefore = new Date(now.getTime() - REPLY_WITHIN_MS).toISOString();
  const within = `${REPLY_WITHIN_MS / 1000} seconds`;
  const [row] = await queryRows<{
    counted: number | string;
    answered: number | string;
    pending: number | string;
    median: number | string | null;
  }>(
    db,
    sql`select count(*) filter (where first_reply_at is not null or created_at <= ${dueBefore}::timestamptz) as counted,
               count(*) filter (where first_reply_at is not null and first_reply_at - created_at <= ${within}::interval) as answered,
               count(*) filter (where first_reply_at is null and created_at > ${dueBefore}::timestamptz) as pending,
               percentile_cont(0.5) within group (order by extract(epoch from first_reply_at - created_at))
                 filter (where first_reply_at is not null) as median
        from contact_submissions
        where status <> 'spam' and created_at >= ${since}::timestamptz and created_at <= ${now.toISOString()}::timestamptz`,
  );
  return {
    counted: Number(row?.counted ?? 0),
    answered: Number(row?.answered ?? 0),
    pending: Number(row?.pending ?? 0),
    medianReplyMs: row?.median === null || row?.median === undefined ? null : Math.round(Number(row.median) * 1000),
  };
}

/** Active staff, who may own an enquiry. */
export async function activeStaff(db: Database) {
  return db
    .select({ id: staff.id, name: staff.name })
    .from(staff)
    .where(isNull(staff.disabledAt))
    .orderBy(asc(staff.name));
}
