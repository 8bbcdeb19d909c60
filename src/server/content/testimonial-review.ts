import { and, asc, eq, isNull, lte, sql } from "drizzle-orm";
import { adminHref } from "#shared/admin/routes.ts";
import { indiaDay } from "#shared/india-time.ts";
import { type Database, queryRows } from "../db/client.ts";
import { clientLogos, mailOutbox, staff, testimonials } from "../db/schema.ts";
import { TESTIMONIAL_REVIEW_KIND, type TestimonialReviewItem } from "../mail/testimonial-review-email.ts";
import type { TestimonialKind } from "./testimonials.ts";

// The permissions' monthly review (docs/decisions/061-testimonials-and-client-logos.md): once a
// month, on whichever instance claims the month first, every admin gets one mail through the
// outbox listing each testimonial and client logo (not in the trash) whose permission's review date
// has come (on or before today, in India). None due: no mail. The claim and the mails are one
// transaction, as the daily purge's (enquiries/retention.ts, claimDailyRun): a run that fails leaves
// the month unclaimed for the next try.

/** The back office's page of an item, from its route table. */
export function testimonialAdminPath(kind: TestimonialKind, id: string): string {
  return kind === "testimonial" ? adminHref("testimonial", { id }) : adminHref("clientLogo", { id });
}

/** The key of the month claimed last, in app_settings. */
export const TESTIMONIAL_REVIEW_CLAIM_KEY = "monthly:testimonial-review";

/** True for exactly one caller per month (in India) however many instances ask at once. */
async function claimMonth(db: Database, month: string): Promise<boolean> {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`insert into app_settings (key, value) values (${TESTIMONIAL_REVIEW_CLAIM_KEY}, ${month})
        on conflict (key) do update set value = excluded.value where app_settings.value < excluded.value
        returning key`,
  );
  return rows.length === 1;
}

/** Every item whose review is due at `today` (YYYY-MM-DD), testimonials first, each oldest review first. */
export async function permissionsDueForReview(
  db: Database,
  today: string,
  siteUrl: string,
): Promise<TestimonialReviewItem[]> {
  const quoted = await db
    .select({
      id: testimonials.id,
      anonymised: testimonials.anonymised,
      personName: testimonials.personName,
      organisation: testimonials.organisation,
      description: testimonials.description,
      review: testimonials.permissionReview,
    })
    .from(testimonials)
    .where(and(isNull(testimonials.deletedAt), lte(testimonials.permissionReview, today)))
    .orderBy(asc(testimonials.permissionReview), asc(testimonials.id));
  const logos = await db
    .select({ id: clientLogos.id, organisation: clientLogos.organisation, review: clientLogos.permissionReview })
    .from(clientLogos)
    .where(and(isNull(clientLogos.deletedAt), lte(clientLogos.permissionReview, today)))
    .orderBy(asc(clientLogos.permissionReview), asc(clientLogos.id));
  return [
    ...quoted.map((row) => ({
      kind: "testimonial" as const,
      who: row.personName ?? "(no name)",
      // Admins know who said it; an anonymised one is named by what it shows too.
      what: row.anonymised
        ? `${row.organisation ?? ""} (shown as: ${row.description ?? ""})`.trim()
        : (row.organisation ?? ""),
      review: row.review!,
      link: `${siteUrl}${testimonialAdminPath("testimonial", row.id)}`,
    })),
    ...logos.map((row) => ({
      kind: "client-logo" as const,
      who: row.organisation ?? "",
      what: "Client logo",
      review: row.review!,
      link: `${siteUrl}${testimonialAdminPath("client-logo", row.id)}`,
    })),
  ];
}

/**
 * The month's review: on the first call of a month (India) across all instances, queues one mail
 * per admin when some permission is due, and returns how many items it listed (0: none due, no
 * mail); null on every other call.
 */
export async function queueMonthlyPermissionReview(
  db: Database,
  options: { now: Date; siteUrl: string },
): Promise<number | null> {
  const today = indiaDay(options.now);
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    if (!(await claimMonth(t, today.slice(0, 7)))) return null;
    const items = await permissionsDueForReview(t, today, options.siteUrl);
    if (items.length === 0) return 0;
    const admins = await tx
      .select({ email: staff.email })
      .from(staff)
      .where(and(eq(staff.role, "admin"), isNull(staff.disabledAt)));
    if (admins.length)
      await tx.insert(mailOutbox).values(
        admins.map((admin) => ({
          kind: TESTIMONIAL_REVIEW_KIND,
          recipient: admin.email,
          payload: { month: today.slice(0, 7), items: JSON.stringify(items) },
        })),
      );
    return items.length;
  });
}
