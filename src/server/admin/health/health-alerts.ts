import { and, eq, isNull } from "drizzle-orm";
import type { HealthLineKey } from "#shared/admin/health.ts";
import { adminHref } from "#shared/admin/routes.ts";
import type { Database } from "../../db/client.ts";
import { healthAlerts, mailOutbox, staff } from "../../db/schema.ts";
import { HEALTH_ALERT_KIND, type HealthAlertPayload } from "../../mail/health-email.ts";
import { type AlertMail, alertMail } from "./health-rules.ts";

// The Health page's alerts: each evaluation's lines recorded in health_alerts, and the admins
// mailed through the outbox when a line turns red, once a day while it stays red, and when it is
// clear again (health-rules.ts, alertMail, says when). Every instance evaluates every minute, over
// one database: a line's row decides. Its transaction inserts the row if there is none, locks it
// (SELECT … FOR UPDATE), decides from what it holds, queues the mails and updates it; a second
// instance evaluating at the same moment waits on the lock and then finds the row already changed,
// so each mail is queued once. docs/decisions/052-the-health-page-and-alerts.md.

export type HealthLine = { line: HealthLineKey; red: boolean; reason: string };

/** What one recording did: the mails each line queued (one per admin). */
export type AlertsRecorded = { line: HealthLineKey; mail: AlertMail; recipients: number }[];

/**
 * Records each line's state and queues its alert mails, one transaction a line. Without mail
 * (SMTP settings unset) the state is kept and nothing is queued: a line still red is mailed once
 * mail works (its last mail is none).
 */
export async function recordHealthAlerts(
  db: Database,
  lines: HealthLine[],
  options: { now: Date; siteUrl: string; mailConfigured: boolean },
): Promise<AlertsRecorded> {
  const { now } = options;
  const recorded: AlertsRecorded = [];
  for (const { line, red, reason } of lines) {
    const queued = await db.transaction(async (tx) => {
      await tx.insert(healthAlerts).values({ line, red: false, reason: "", since: now }).onConflictDoNothing();
      const [row] = await tx.select().from(healthAlerts).where(eq(healthAlerts.line, line)).for("update");
      const mail = alertMail(row!, red, now);
      let recipients = 0;
      if (mail && options.mailConfigured) {
        const admins = await tx
          .select({ email: staff.email })
          .from(staff)
          .where(and(eq(staff.role, "admin"), isNull(staff.disabledAt)));
        const payload: HealthAlertPayload = {
          line,
          state: mail,
          reason,
          link: `${options.siteUrl}${adminHref("health")}`,
        };
        if (admins.length)
          await tx
            .insert(mailOutbox)
            .values(admins.map((admin) => ({ kind: HEALTH_ALERT_KIND, recipient: admin.email, payload })));
        recipients = admins.length;
      }
      const turned = row!.red !== red;
      // Nothing new (the same state, the same words, no mail): the row stays as it is.
      if (!turned && recipients === 0 && row!.reason === reason) return undefined;
      await tx
        .update(healthAlerts)
        .set({
          red,
          reason,
          ...(turned ? { since: now } : {}),
          ...(recipients > 0 ? { lastMailedAt: now } : {}),
        })
        .where(eq(healthAlerts.line, line));
      return mail && recipients > 0 ? { mail, recipients } : undefined;
    });
    if (queued) recorded.push({ line, ...queued });
  }
  return recorded;
}

/**
 * The reason mail is failing, when the Mail line is red, for the banner on every back-office page:
 * one read of health_alerts by its key, as the last evaluation left it (within a minute).
 */
export async function mailFailingReason(db: Database): Promise<string | undefined> {
  const [row] = await db
    .select({ red: healthAlerts.red, reason: healthAlerts.reason })
    .from(healthAlerts)
    .where(eq(healthAlerts.line, "mail"));
  return row?.red ? row.reason : undefined;
}
