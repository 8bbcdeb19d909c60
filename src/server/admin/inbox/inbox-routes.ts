import { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import { and, aliasedTable, asc, eq, isNull, type SQL, sql } from "drizzle-orm";
import { formValues, parseForm } from "#shared/admin/forms.ts";
import type { EnquiryView, InboxFilter, PageMessages } from "#shared/admin/pages.ts";
import { pageNumberOf } from "#shared/admin/pagination.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { enquiryNoteForm, enquiryUpdateForm, enquiryVersionForm } from "#shared/admin/schemas.ts";
import {
  CLOSED_STATUSES,
  dueAt,
  type EnquiryStatus,
  REPLY_WITHIN_MS,
  replyState,
  statusLabels,
} from "#shared/inbox.ts";
import { indiaDay } from "#shared/india-time.ts";
import { isUuid } from "#shared/schemas/identifiers.ts";
import { serviceLabel } from "#shared/site.ts";
import { attributionLabel } from "../../analytics/counting.ts";
import { enquiryReference } from "../../db/contact-repository.ts";
import { type ContactSubmissionRow, contactSubmissions, enquiryNotes, mailOutbox, staff } from "../../db/schema.ts";
import { REMINDER_KIND } from "../../enquiries/reply-reminders.ts";
import { csvLines } from "../../export/export-format.ts";
import type { AdminContext, AdminHandlers, AdminRequest } from "../context.ts";
import {
  activeStaff,
  BadFilter,
  inboxExportBatches,
  inboxCounts,
  listInbox,
  parseInboxFilter,
  promiseFigures,
  rowView,
} from "./inbox-queries.ts";

// The enquiry inbox (issue 14): the list at /admin with its filters, counts and the reply
// promise's figures; one enquiry at /admin/enquiries/:id with its status, owner, notes and
// "Mark replied"; "Not spam"; and the filtered list as CSV. Every change raises the enquiry's
// version and names who made it: a form posting an older version is refused with "changed by X
// meanwhile" (docs/decisions/028-conflicting-edits-by-version.md). Every change is audited.

const owners = aliasedTable(staff, "owner");

export function inboxRoutes(
  context: AdminContext,
): AdminHandlers<
  | "inbox"
  | "enquiryList"
  | "inboxExport"
  | "enquiry"
  | "enquiryUpdate"
  | "enquiryNote"
  | "enquiryReplied"
  | "enquiryNotSpam"
> {
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

  async function inboxExport(request: FastifyRequest, reply: FastifyReply) {
    let filter: InboxFilter;
    try {
      filter = parseInboxFilter(request.query as Record<string, unknown>);
    } catch (error) {
      if (error instanceof BadFilter) return context.problem(request, reply, 400, "Bad Request", error.message);
      throw error;
    }
    const now = context.now();
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
    // A batch of rows at a time, read and written as CSV between turns of the event loop.
    const parts = ["\uFEFF", csvLines([columns])];
    let exported = 0;
    for await (const batch of inboxExportBatches(db, filter)) {
      exported += batch.length;
      parts.push(
        csvLines(
          batch.map(({ enquiry, owner }) => [
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
            replyState(
              { receivedAt: enquiry.createdAt, firstReplyAt: enquiry.firstReplyAt, status: enquiry.status },
              now,
            ).label,
            enquiry.message,
          ]),
        ),
      );
    }
    const session = context.sessionOf(request);
    await context.audit(request, {
      actor: context.actorOf(session),
      action: "enquiries-exported",
      target: { type: "export" },
      details: {
        rows: exported,
        filter: Object.fromEntries(Object.entries(filter).filter(([key, value]) => value && key !== "q")),
        searched: filter.q !== "",
      },
    });
    const stamp = indiaDay(now);
    return (
      reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="enquiries-${stamp}.csv"`)
        // Sent part by part: 3,000 enquiries of 5,000 characters joined into one string, then encoded
        // and compressed whole, held the event loop over 600 ms (the event-loop kit, decision 046).
        .send(Readable.from(parts, { objectMode: false }))
    );
  }

  /** The enquiry a path names, or undefined after answering 404. */
  async function findEnquiry(request: AdminRequest<"enquiry">, reply: FastifyReply) {
    const id = request.params.id;
    if (!isUuid(id)) {
      await context.notFound(request, reply, "There is no such enquiry.");
      return undefined;
    }
    const [row] = await db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id.toLowerCase()));
    if (!row) await context.notFound(request, reply, "There is no such enquiry.");
    return row;
  }

  async function enquiryPage(
    request: FastifyRequest,
    reply: FastifyReply,
    enquiry: ContactSubmissionRow,
    extra: PageMessages = {},
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
      noticeVersion: enquiry.noticeVersion,
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

  /** The version a form posted: the enquiry as the person saw it. Undefined after answering 400. */
  async function postedVersion(request: FastifyRequest, reply: FastifyReply, enquiry: ContactSubmissionRow) {
    const parsed = parseForm(enquiryVersionForm, request.body);
    if (!parsed.ok) {
      await enquiryPage(request, reply, enquiry, { error: parsed.form.errors.version, form: parsed.form }, 400);
      return undefined;
    }
    return Number(parsed.data.version);
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
      await context.notFound(request, reply, "There is no such enquiry: it was deleted meanwhile.");
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

  return {
    inbox: inboxPage,

    async enquiryList(request, reply) {
      const search = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
      return context.seeOther(reply, `${adminHref("inbox")}${search}`);
    },

    inboxExport,

    async enquiry(request, reply) {
      const enquiry = await findEnquiry(request, reply);
      if (!enquiry) return reply;
      return enquiryPage(request, reply, enquiry);
    },

    async enquiryUpdate(request, reply) {
      const enquiry = await findEnquiry(request, reply);
      if (!enquiry) return reply;
      const parsed = parseForm(enquiryUpdateForm, request.body);
      if (!parsed.ok) {
        const { errors } = parsed.form;
        const error = errors.version ?? errors.status ?? errors.owner;
        return enquiryPage(request, reply, enquiry, { error, form: parsed.form, formName: "update" }, 400);
      }
      const version = Number(parsed.data.version);
      const status = parsed.data.status ?? (enquiry.status as EnquiryStatus);
      const ownerText = parsed.data.owner ?? enquiry.ownerId ?? "";
      let ownerId: string | null = null;
      if (ownerText !== "") {
        const members = await activeStaff(db);
        const owner = isUuid(ownerText) ? members.find((member) => member.id === ownerText.toLowerCase()) : undefined;
        if (!owner)
          return enquiryPage(
            request,
            reply,
            enquiry,
            {
              error: "Owner must be an active member of staff, or nobody.",
              form: {
                values: formValues(request.body),
                errors: { owner: "Owner must be an active member of staff, or nobody." },
              },
              formName: "update",
            },
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
      return context.seeOther(reply, adminHref("enquiry", { id: enquiry.id }, { notice: "saved" }));
    },

    async enquiryNote(request, reply) {
      const enquiry = await findEnquiry(request, reply);
      if (!enquiry) return reply;
      const parsed = parseForm(enquiryNoteForm, request.body);
      if (!parsed.ok) {
        return enquiryPage(
          request,
          reply,
          enquiry,
          { error: parsed.form.errors.note, form: parsed.form, formName: "note" },
          400,
        );
      }
      const body = parsed.data.note;
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
      return context.seeOther(reply, adminHref("enquiry", { id: enquiry.id }, { notice: "note-added" }));
    },

    async enquiryReplied(request, reply) {
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
      return context.seeOther(reply, adminHref("enquiry", { id: enquiry.id }, { notice: "replied" }));
    },

    async enquiryNotSpam(request, reply) {
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
      return context.seeOther(reply, adminHref("enquiry", { id: enquiry.id }, { notice: "not-spam" }));
    },
  };
}
