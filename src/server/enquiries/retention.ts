import { and, eq, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import { retention } from "#shared/retention.ts";
import { type Database, queryRows } from "../db/client.ts";
import { auditEvents, contactSubmissions } from "../db/schema.ts";
import { purgeTrashedArticles, thinAutosaves } from "../content/content-retention.ts";
import { askLegacySubscribers, deleteUnconfirmedSubscribers } from "../newsletter/subscriptions.ts";

// The privacy notice's promise made true: spam after SPAM_RETENTION_DAYS, closed enquiries (Won,
// Lost) ENQUIRY_RETENTION_DAYS after they closed, and any enquiry once it is older than the outer
// bound the notice states, are deleted (their notes and queued mail go with them: both cascade;
// their audit events lose their labels); so are newsletter addresses never confirmed, 7 days on.
// The delete is idempotent; the site runs it once a day on one instance (claimDailyRun).

export type RetentionResult = { enquiries: number; spam: number };
export type RetentionPeriods = { spamDays: number; closedEnquiryDays: number };

export const defaultRetentionPeriods: RetentionPeriods = {
  spamDays: retention.spamDays,
  closedEnquiryDays: retention.closedEnquiryDays,
};

export async function deleteExpiredEnquiries(
  db: Database,
  now: Date = new Date(),
  periods: RetentionPeriods = defaultRetentionPeriods,
): Promise<RetentionResult> {
  const enquiryCutoff = new Date(now);
  enquiryCutoff.setUTCMonth(enquiryCutoff.getUTCMonth() - retention.enquiryMonths);
  const spamCutoff = new Date(now.getTime() - periods.spamDays * 86_400_000);
  const closedCutoff = new Date(now.getTime() - periods.closedEnquiryDays * 86_400_000);
  const deleted = await db
    .delete(contactSubmissions)
    .where(
      or(
        and(eq(contactSubmissions.isSpam, false), lt(contactSubmissions.createdAt, enquiryCutoff)),
        and(
          eq(contactSubmissions.isSpam, false),
          inArray(contactSubmissions.status, ["won", "lost"]),
          isNotNull(contactSubmissions.closedAt),
          lt(contactSubmissions.closedAt, closedCutoff),
        ),
        and(eq(contactSubmissions.isSpam, true), lt(contactSubmissions.createdAt, spamCutoff)),
      ),
    )
    .returning({ id: contactSubmissions.id, isSpam: contactSubmissions.isSpam });
  await blankAuditLabels(
    db,
    deleted.map((row) => row.id),
  );
  const spam = deleted.filter((row) => row.isSpam).length;
  return { enquiries: deleted.length - spam, spam };
}

/** Ids per statement: a first purge can delete many enquiries, and a statement takes 65,535 parameters at most. */
const LABEL_BATCH = 1000;

/**
 * Blanks the audit trail's labels of deleted enquiries, as erasure does: events written before
 * 2026-11-25 name the visitor ("ENQ-… First Last"), and the audit trail outlives the enquiry
 * (retention.auditMonths). The events keep their action, time and the enquiry's id.
 */
async function blankAuditLabels(db: Database, enquiryIds: string[]): Promise<void> {
  for (let from = 0; from < enquiryIds.length; from += LABEL_BATCH) {
    await db
      .update(auditEvents)
      .set({ targetLabel: null })
      .where(
        and(
          eq(auditEvents.targetType, "enquiry"),
          inArray(auditEvents.targetId, enquiryIds.slice(from, from + LABEL_BATCH)),
          isNotNull(auditEvents.targetLabel),
        ),
      );
  }
}

/**
 * Claims today's run of a daily job for this instance: true for exactly one caller per day (in
 * UTC) however many instances ask at once. The row in app_settings holds the last day claimed;
 * the conditional update lets one transaction move it forward, and the others find it moved.
 */
export async function claimDailyRun(db: Database, job: string, now: Date = new Date()): Promise<boolean> {
  const day = now.toISOString().slice(0, 10);
  const rows = await queryRows<{ key: string }>(
    db,
    sql`insert into app_settings (key, value) values (${`daily:${job}`}, ${day})
        on conflict (key) do update set value = excluded.value where app_settings.value < excluded.value
        returning key`,
  );
  return rows.length === 1;
}

export type DailyPurgeResult = RetentionResult & {
  articlesPurged: number;
  autosavesThinned: number;
  /** Newsletter addresses never confirmed, deleted 7 days after they last changed. */
  unconfirmedSubscribers: number;
  /** Addresses collected before confirmation existed, asked (once) to confirm. */
  legacySubscribersAsked: number;
};

/**
 * What the daily job needs to ask the addresses collected before confirmation existed to confirm
 * (docs/decisions/044-newsletter-double-opt-in.md): the site's address for the links. Given only
 * when mail is configured: without it nobody would be asked, and the addresses are kept unasked
 * until it is (still deleted after their week).
 */
export type LegacySubscriberAsking = { siteUrl: string };

/**
 * The daily purge: on the first call of a day (UTC) across all instances, deletes what is past
 * its retention period (enquiries, spam, articles in the trash, old autosaves); on every other
 * call, nothing (null). Claim and delete are one transaction, so a purge that fails leaves the
 * day unclaimed for the next try.
 */
export async function dailyRetentionPurge(
  db: Database,
  now: Date,
  periods: RetentionPeriods,
  newsletter?: LegacySubscriberAsking,
): Promise<DailyPurgeResult | null> {
  return db.transaction(async (tx) => {
    const t = tx;
    if (!(await claimDailyRun(t, "retention", now))) return null;
    const enquiries = await deleteExpiredEnquiries(t, now, periods);
    const articlesPurged = await purgeTrashedArticles(t, now);
    const autosavesThinned = await thinAutosaves(t, now);
    // Deleted first: an address past its week is not asked on its way out.
    const unconfirmedSubscribers = await deleteUnconfirmedSubscribers(t, now);
    const legacySubscribersAsked = newsletter ? await askLegacySubscribers(t, { siteUrl: newsletter.siteUrl, now }) : 0;
    return { ...enquiries, articlesPurged, autosavesThinned, unconfirmedSubscribers, legacySubscribersAsked };
  });
}
