import type { FastifyReply, FastifyRequest } from "fastify";
import { attributionLabel } from "../analytics/counting.ts";
import { aliasedTable, and, asc, desc, eq, gte, inArray, isNull, lt, ne, type SQL, sql } from "drizzle-orm";
import {
  adminPaths,
  type EnquiryView,
  type InboxFilter,
  type InboxRowView,
  type PromiseFigures,
} from "#shared/admin/pages.ts";
import {
  CLOSED_STATUSES,
  dueAt,
  ENQUIRY_STATUSES,
  type EnquiryStatus,
  isEnquiryStatus,
  REPLY_WITHIN_MS,
  replyState,
  statusLabels,
} from "#shared/inbox.ts";
import { DAY_MS, indiaDay, nextIndiaDay, parseIndiaDate, startOfIndiaDay } from "#shared/india-time.ts";
import { hasControlCharacters } from "#shared/schemas/text-rules.ts";
import { serviceLabel, serviceValues } from "#shared/site.ts";
import { type Database, queryRows } from "../db/client.ts";
import { enquiryReference } from "../db/contact-repository.ts";
import {
  type ContactSubmissionRow,
  contactSubmissions,
  enquiryNotes,
  enquirySearchText,
  mailOutbox,
  staff,
} from "../db/schema.ts";
import { REMINDER_KIND } from "../enquiries/reply-reminders.ts";
import { toCsv } from "../export/export-format.ts";
import { isUuid } from "#shared/schemas/identifiers.ts";
import type { AdminPart } from "./admin-context.ts";

// The enquiry inbox (issue 14): the list at /admin with its filters, counts and the reply
// promise's figures; one enquiry at /admin/enquiries/:id with its status, owner, notes and
// "Mark replied"; "Not spam"; and the filtered list as CSV. Every change raises the enquiry's
// version and names who made it: a form posting an older version is refused with "changed by X
// meanwhile" (docs/decisions/028-conflicting-edits-by-version.md). Every change is audited.

export const INBOX_PAGE_SIZE = 50;
/** The most rows one CSV export carries. */
export const EXPORT_LIMIT = 100_000;
const NOTE_MAX = 5000;
const SEARCH_MAX = 200;

const notices: Record<string, string> = {
  saved: "Saved.",
  "note-added": "The note was added.",
  replied: "Marked replied: the clock has stopped.",
  "not-spam": "Moved to New. Its notification mail is on its way (once).",
};

export class BadFilter extends Error {}

/** The filter a query string asks for; a value that cannot be one throws BadFilter naming it. */
export function parseInboxFilter(query: Record<string, unknown>): InboxFilter {
  const text = (name: string) => {
    const value = query[name];
    if (value === undefined) return "";
    if (typeof value !== "string") throw new BadFilter(`Give ${name} once.`);
    return value.trim();
  };
  const filter: InboxFilter = {
    status: text("status"),
    owner: text("owner"),
    service: text("service"),
    from: text("from"),
    to: text("to"),
    q: text("q"),
  };
  if (filter.status && filter.status !== "all" && !isEnquiryStatus(filter.status))
    throw new BadFilter(`Status must be one of ${ENQUIRY_STATUSES.join(", ")} (or empty).`);
  if (filter.owner && filter.owner !== "none" && !isUuid(filter.owner))
    throw new BadFilter("Owner must be a member of staff or none.");
  if (filter.service && !(serviceValues as readonly string[]).includes(filter.service))
    throw new BadFilter(`Service must be one of ${serviceValues.join(", ")} (or empty).`);
  if (filter.from && !parseIndiaDate(filter.from)) throw new BadFilter("From must be a date like 2026-11-23.");
  if (filter.to && !parseIndiaDate(filter.to)) throw new BadFilter("To must be a date like 2026-11-23.");
  if (filter.q.length > SEARCH_MAX || hasControlCharacters(filter.q))
    throw new BadFilter(`Search must be one line of at most ${SEARCH_MAX} characters.`);
  return filter;
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

const owners = aliasedTable(staff, "owner");

/** One page of the filtered inbox, newest first, and whether there are more. */
export async function listInbox(db: Database, filter: InboxFilter, page: number, limit = INBOX_PAGE_SIZE) {
  // The page first, then its owners' names: joined in one query, the planner sorts every row
  // that matches instead of reading the newest through the index.
  const enquiries = await db
    .select()
    .from(contactSubmissions)
    .where(and(...inboxConditions(filter)))
    .orderBy(desc(contactSubmissions.createdAt), desc(contactSubmissions.id))
    .limit(limit + 1)
    .offset((page - 1) * limit);
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

function rowView(row: { enquiry: ContactSubmissionRow; owner: string | null }, now: Date): InboxRowView {
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
    median: number | string | null;
  }>(
    db,
    sql`select count(*) filter (where first_reply_at is not null or created_at <= ${dueBefore}::timestamptz) as counted,
               count(*) filter (where first_reply_at is not null and first_reply_at - created_at <= ${within}::interval) as answered,
               percentile_cont(0.5) within group (order by extract(epoch from first_reply_at - created_at))
                 filter (where first_reply_at is not null) as median
        from contact_submissions
        where status <> 'spam' and created_at >= ${since}::timestamptz and created_at <= ${now.toISOString()}::timestamptz`,
  );
  return {
    counted: Number(row?.counted ?? 0),
    answered: Number(row?.answered ?? 0),
    medianReplyMs: row?.median === null || row?.median === undefined ? null : Math.round(Number(row.median) * 1000),
  };
}

/** Active staff, who may own an enquiry. */
async function activeStaff(db: Database) {
  return db
    .select({ id: staff.id, name: staff.name })
    .from(staff)
    .where(isNull(staff.disabledAt))
    .orderBy(asc(staff.name));
}

function field(body: unknown, name: string): string | undefined {
  const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === "string" ? value : undefined;
}

function pageNumberOf(query: Record<string, unknown>): number {
  const value = typeof query.page === "string" ? Number.parseInt(query.page, 10) : 1;
  return Math.min(Math.max(1, Number.isFinite(value) ? value : 1), 10_000);
}

export const registerInbox: AdminPart = (admin, context) => {
  const { db } = context;

  async function inboxPage(request: FastifyRequest, reply: FastifyReply) {
    const query = request.query as Record<string, unknown>;
    let filter: InboxFilter;
    try {
      filter = parseInboxFilter(query);
    } catch (error) {
      if (error instanceof BadFilter) return context.problem(request, reply, 400, "Bad Request", error.message);
      throw error;
    }
    const pageNumber = pageNumberOf(query);
    const now = context.now();
    const [{ rows, more }, counts, promise, members] = await Promise.all([
      listInbox(db, filter, pageNumber),
      inboxCounts(db, now),
      promiseFigures(db, now),
      activeStaff(db),
    ]);
    return context.render(reply, {
      page: "inbox",
      viewer: context.viewerOf(context.sessionOf(request)),
      rows: rows.map((row) => rowView(row, now)),
      filter,
      counts,
      promise,
      staff: members,
      pageNumber,
      more,
    });
  }

  admin.get("/", context.route("staff"), inboxPage);
  admin.get("/enquiries", context.route("staff"), async (request, reply) => {
    const search = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
    return reply.code(303).header("location", `${adminPaths.home}${search}`).send();
  });

  admin.get("/enquiries/export.csv", context.route("staff"), async (request, reply) => {
    let filter: InboxFilter;
    try {
      filter = parseInboxFilter(request.query as Record<string, unknown>);
    } catch (error) {
      if (error instanceof BadFilter) return context.problem(request, reply, 400, "Bad Request", error.message);
      throw error;
    }
    const now = context.now();
    const { rows } = await listInbox(db, filter, 1, EXPORT_LIMIT);
    const columns = [
      "Reference",
      "Received",
      "First name",
      "Last name",
      "Email",
      "Company",
      "Service",
      "Status",
      "Owner",
      "First reply",
      "Reply state",
      "Message",
    ];
    const csv = toCsv(
      columns,
      rows.map(({ enquiry, owner }) => [
        enquiryReference(enquiry.id),
        enquiry.createdAt.toISOString(),
        enquiry.firstName,
        enquiry.lastName,
        enquiry.email,
        enquiry.company,
        serviceLabel(enquiry.service) ?? enquiry.service,
        statusLabels[enquiry.status as EnquiryStatus] ?? enquiry.status,
        owner,
        enquiry.firstReplyAt?.toISOString() ?? null,
        replyState({ receivedAt: enquiry.createdAt, firstReplyAt: enquiry.firstReplyAt, status: enquiry.status }, now)
          .label,
        enquiry.message,
      ]),
    );
    const session = context.sessionOf(request);
    await context.audit(request, {
      actor: context.actorOf(session),
      action: "enquiries-exported",
      target: { type: "export" },
      details: {
        rows: rows.length,
        filter: Object.fromEntries(Object.entries(filter).filter(([key, value]) => value && key !== "q")),
        searched: filter.q !== "",
      },
    });
    const stamp = indiaDay(now);
    return reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="enquiries-${stamp}.csv"`)
      .send(`\uFEFF${csv}`);
  });

  /** The enquiry a path names, or undefined after answering 404. */
  async function findEnquiry(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
    const id = request.params.id;
    if (!isUuid(id)) {
      await context.problem(request, reply, 404, "Not Found", "There is no such enquiry.");
      return undefined;
    }
    const [row] = await db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id.toLowerCase()));
    if (!row) await context.problem(request, reply, 404, "Not Found", "There is no such enquiry.");
    return row;
  }

  async function enquiryPage(
    request: FastifyRequest,
    reply: FastifyReply,
    enquiry: ContactSubmissionRow,
    extra: { notice?: string; error?: string } = {},
    status = 200,
  ) {
    const now = context.now();
    const firstReplier = aliasedTable(staff, "replier");
    const [people] = await db
      .select({ owner: owners.name, replier: firstReplier.name })
      .from(contactSubmissions)
      .leftJoin(owners, eq(owners.id, contactSubmissions.ownerId))
      .leftJoin(firstReplier, eq(firstReplier.id, contactSubmissions.firstReplyById))
      .where(eq(contactSubmissions.id, enquiry.id));
    const [notes, mail, members] = await Promise.all([
      db
        .select()
        .from(enquiryNotes)
        .where(eq(enquiryNotes.submissionId, enquiry.id))
        .orderBy(asc(enquiryNotes.createdAt), asc(enquiryNotes.id)),
      db.select().from(mailOutbox).where(eq(mailOutbox.submissionId, enquiry.id)).orderBy(asc(mailOutbox.createdAt)),
      activeStaff(db),
    ]);
    const view: EnquiryView = {
      id: enquiry.id,
      reference: enquiryReference(enquiry.id),
      firstName: enquiry.firstName,
      lastName: enquiry.lastName,
      email: enquiry.email,
      company: enquiry.company,
      service: serviceLabel(enquiry.service) ?? enquiry.service,
      message: enquiry.message,
      receivedAt: enquiry.createdAt.toISOString(),
      dueAt: dueAt(enquiry.createdAt).toISOString(),
      status: enquiry.status,
      ownerId: enquiry.ownerId,
      owner: people?.owner ?? null,
      firstReplyAt: enquiry.firstReplyAt?.toISOString() ?? null,
      firstReplyBy: enquiry.firstReplyAt ? (people?.replier ?? "a former member of staff") : null,
      spamReason: enquiry.spamReason,
      attribution: attributionLabel(enquiry),
      version: enquiry.version,
      reply: replyState(
        { receivedAt: enquiry.createdAt, firstReplyAt: enquiry.firstReplyAt, status: enquiry.status },
        now,
      ),
    };
    return context.render(
      reply,
      {
        page: "enquiry",
        viewer: context.viewerOf(context.sessionOf(request)),
        enquiry: view,
        notes: notes.map((note) => ({
          id: note.id,
          author: note.authorLabel,
          at: note.createdAt.toISOString(),
          body: note.body,
        })),
        mail: mail.map((row) => ({
          kind: row.kind,
          status: row.status,
          attempts: row.attempts,
          nextAttemptAt: row.nextAttemptAt.toISOString(),
          sentAt: row.sentAt?.toISOString() ?? null,
          lastError: row.lastError,
        })),
        staff: members,
        ...extra,
      },
      status,
    );
  }

  admin.get<{ Params: { id: string } }>("/enquiries/:id", context.route("staff"), async (request, reply) => {
    const enquiry = await findEnquiry(request, reply);
    if (!enquiry) return reply;
    const key = (request.query as Record<string, unknown>).notice;
    return enquiryPage(request, reply, enquiry, { notice: typeof key === "string" ? notices[key] : undefined });
  });

  /** The version a form posted: the enquiry as the person saw it. Undefined after answering 400. */
  async function postedVersion(request: FastifyRequest, reply: FastifyReply, enquiry: ContactSubmissionRow) {
    const text = field(request.body, "version") ?? "";
    if (!/^\d{1,9}$/.test(text)) {
      await enquiryPage(
        request,
        reply,
        enquiry,
        { error: "The form did not say which version of the enquiry it changes: reload the page and try again." },
        400,
      );
      return undefined;
    }
    return Number(text);
  }

  /**
   * Applies a change if the enquiry is still at the version the form showed, raising the version
   * and naming who made it; otherwise answers 409 with the current state and who changed it.
   */
  async function applyChange(
    request: FastifyRequest,
    reply: FastifyReply,
    enquiry: ContactSubmissionRow,
    version: number,
    set: Partial<typeof contactSubmissions.$inferInsert>,
    extraCondition?: SQL,
  ): Promise<ContactSubmissionRow | undefined> {
    const session = context.sessionOf(request);
    const [updated] = await db
      .update(contactSubmissions)
      .set({
        ...set,
        version: sql`${contactSubmissions.version} + 1`,
        updatedAt: context.now(),
        updatedByLabel: session.staff.name.slice(0, 200),
      })
      .where(and(eq(contactSubmissions.id, enquiry.id), eq(contactSubmissions.version, version), extraCondition))
      .returning();
    if (updated) return updated;
    const [current] = await db.select().from(contactSubmissions).where(eq(contactSubmissions.id, enquiry.id));
    if (!current) {
      await context.problem(request, reply, 404, "Not Found", "There is no such enquiry: it was deleted meanwhile.");
      return undefined;
    }
    const who = current.updatedByLabel ?? "someone else";
    await enquiryPage(
      request,
      reply,
      current,
      {
        error: `This enquiry was changed by ${who} meanwhile, so your change was not saved. Its current state is below: make your change again if it still applies.`,
      },
      409,
    );
    return undefined;
  }

  const targetOf = (enquiry: ContactSubmissionRow) => ({
    type: "enquiry",
    id: enquiry.id,
    label: enquiryReference(enquiry.id),
  });

  admin.post<{ Params: { id: string } }>("/enquiries/:id", context.route("staff"), async (request, reply) => {
    const enquiry = await findEnquiry(request, reply);
    if (!enquiry) return reply;
    const version = await postedVersion(request, reply, enquiry);
    if (version === undefined) return reply;
    const status = field(request.body, "status") ?? enquiry.status;
    const ownerText = field(request.body, "owner") ?? enquiry.ownerId ?? "";
    if (!isEnquiryStatus(status)) {
      return enquiryPage(
        request,
        reply,
        enquiry,
        { error: `Status must be one of ${ENQUIRY_STATUSES.map((value) => statusLabels[value]).join(", ")}.` },
        400,
      );
    }
    let ownerId: string | null = null;
    if (ownerText !== "") {
      const members = await activeStaff(db);
      const owner = isUuid(ownerText) ? members.find((member) => member.id === ownerText.toLowerCase()) : undefined;
      if (!owner)
        return enquiryPage(
          request,
          reply,
          enquiry,
          { error: "Owner must be an active member of staff, or nobody." },
          400,
        );
      ownerId = owner.id;
    }
    if (enquiry.status === "spam" && status !== "spam") {
      return enquiryPage(
        request,
        reply,
        enquiry,
        {
          error:
            'This enquiry is marked as spam: press "Not spam" to move it to New (which also sends its notification).',
        },
        409,
      );
    }
    const closing = (CLOSED_STATUSES as readonly string[]).includes(status);
    const set: Partial<typeof contactSubmissions.$inferInsert> = { status, ownerId };
    if (status !== enquiry.status) {
      set.closedAt = closing ? context.now() : null;
      if (status === "spam") {
        set.isSpam = true;
        set.spamReason = "marked as spam in the back office";
      }
    }
    const updated = await applyChange(request, reply, enquiry, version, set);
    if (!updated) return reply;
    const actor = context.actorOf(context.sessionOf(request));
    if (status !== enquiry.status) {
      await context.audit(request, {
        actor,
        action: "enquiry-status-changed",
        target: targetOf(enquiry),
        details: { from: enquiry.status, to: status },
      });
    }
    if (ownerId !== enquiry.ownerId) {
      await context.audit(request, {
        actor,
        action: "enquiry-assigned",
        target: targetOf(enquiry),
        details: { from: enquiry.ownerId, to: ownerId },
      });
    }
    return reply
      .code(303)
      .header("location", `${adminPaths.enquiry(enquiry.id)}?notice=saved`)
      .send();
  });

  admin.post<{ Params: { id: string } }>("/enquiries/:id/notes", context.route("staff"), async (request, reply) => {
    const enquiry = await findEnquiry(request, reply);
    if (!enquiry) return reply;
    const body = (field(request.body, "note") ?? "").replace(/\r\n?/g, "\n").trim();
    if (body === "" || body.length > NOTE_MAX || hasControlCharacters(body.replace(/[\n\t]/g, ""))) {
      return enquiryPage(
        request,
        reply,
        enquiry,
        { error: `A note must have text: at most ${NOTE_MAX} characters, without control characters.` },
        400,
      );
    }
    const session = context.sessionOf(request);
    await db.insert(enquiryNotes).values({
      submissionId: enquiry.id,
      authorId: session.staff.id,
      authorLabel: session.staff.name.slice(0, 200),
      body,
      createdAt: context.now(),
    });
    await context.audit(request, {
      actor: context.actorOf(session),
      action: "enquiry-note-added",
      target: targetOf(enquiry),
      details: { characters: body.length },
    });
    return reply
      .code(303)
      .header("location", `${adminPaths.enquiry(enquiry.id)}?notice=note-added`)
      .send();
  });

  admin.post<{ Params: { id: string } }>("/enquiries/:id/replied", context.route("staff"), async (request, reply) => {
    const enquiry = await findEnquiry(request, reply);
    if (!enquiry) return reply;
    const version = await postedVersion(request, reply, enquiry);
    if (version === undefined) return reply;
    if (enquiry.firstReplyAt)
      return enquiryPage(request, reply, enquiry, { error: "The first reply is already recorded." }, 409);
    const session = context.sessionOf(request);
    const updated = await applyChange(
      request,
      reply,
      enquiry,
      version,
      { firstReplyAt: context.now(), firstReplyById: session.staff.id },
      isNull(contactSubmissions.firstReplyAt),
    );
    if (!updated) return reply;
    // A reminder still waiting to go out is no longer needed.
    await db
      .update(mailOutbox)
      .set({ status: "cancelled", lastError: "no longer needed: replied", payload: null })
      .where(
        and(
          eq(mailOutbox.submissionId, enquiry.id),
          eq(mailOutbox.kind, REMINDER_KIND),
          eq(mailOutbox.status, "pending"),
        ),
      );
    const took = updated.firstReplyAt!.getTime() - enquiry.createdAt.getTime();
    await context.audit(request, {
      actor: context.actorOf(session),
      action: "enquiry-replied",
      target: targetOf(enquiry),
      details: { withinPromise: took <= REPLY_WITHIN_MS, minutes: Math.floor(took / 60_000) },
    });
    return reply
      .code(303)
      .header("location", `${adminPaths.enquiry(enquiry.id)}?notice=replied`)
      .send();
  });

  admin.post<{ Params: { id: string } }>("/enquiries/:id/not-spam", context.route("staff"), async (request, reply) => {
    const enquiry = await findEnquiry(request, reply);
    if (!enquiry) return reply;
    const version = await postedVersion(request, reply, enquiry);
    if (version === undefined) return reply;
    if (enquiry.status !== "spam")
      return enquiryPage(request, reply, enquiry, { error: "This enquiry is not marked as spam." }, 409);
    const updated = await applyChange(
      request,
      reply,
      enquiry,
      version,
      { status: "new", isSpam: false, spamReason: null, closedAt: null },
      eq(contactSubmissions.status, "spam"),
    );
    if (!updated) return reply;
    // The notification it missed, once: the outbox holds one mail of a kind per enquiry.
    const queued = await db
      .insert(mailOutbox)
      .values({
        submissionId: enquiry.id,
        kind: "notification",
        status: context.mailConfigured ? "pending" : "unconfigured",
      })
      .onConflictDoNothing()
      .returning({ id: mailOutbox.id });
    if (queued.length && context.mailConfigured) context.onMailQueued?.();
    await context.audit(request, {
      actor: context.actorOf(context.sessionOf(request)),
      action: "enquiry-not-spam",
      target: targetOf(enquiry),
      details: { reason: enquiry.spamReason, notificationQueued: queued.length > 0 },
    });
    return reply
      .code(303)
      .header("location", `${adminPaths.enquiry(enquiry.id)}?notice=not-spam`)
      .send();
  });
};
