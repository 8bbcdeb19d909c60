import { and, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import { retention } from "#shared/retention.ts";
import { AUDIT_ACTIONS, type AuditAction } from "#shared/admin/audit-actions.ts";
import type { Database } from "../../db/client.ts";

export { AUDIT_ACTIONS, type AuditAction };
import { auditEvents, type AuditEventRow } from "../../db/schema.ts";

// The audit trail: an append-only record of who did what in the back office, and when, from
// which address. Nothing updates or deletes a row, except erasure (which blanks a visitor's name
// or address in the labels, keeping the action and time). No visitor's message ever goes in.

export type AuditActor = { id: string | null; label: string };
export type AuditEventInput = {
  actor: AuditActor;
  action: AuditAction;
  target?: { type: string; id?: string | null; label?: string | null };
  clientAddress?: string | null;
  details?: Record<string, unknown>;
};

/** The command line as an actor: someone with shell access on the server. */
export const COMMAND_LINE: AuditActor = { id: null, label: "command line" };

export async function recordAudit(db: Database, event: AuditEventInput, at: Date = new Date()): Promise<void> {
  await db.insert(auditEvents).values({
    at,
    actorId: event.actor.id,
    actorLabel: event.actor.label.slice(0, 200),
    action: event.action,
    targetType: event.target?.type ?? null,
    targetId: event.target?.id ?? null,
    targetLabel: event.target?.label?.slice(0, 200) ?? null,
    clientAddress: event.clientAddress ?? null,
    details: event.details ?? null,
  });
}

export type AuditFilter = { action?: string; actorId?: string; from?: Date; to?: Date; targetType?: string };
export const AUDIT_PAGE_SIZE = 50;

/** One page of events, newest first, and whether there are more. */
export async function listAudit(
  db: Database,
  filter: AuditFilter,
  page: number,
): Promise<{ events: AuditEventRow[]; more: boolean }> {
  const conditions: (SQL | undefined)[] = [
    filter.action ? eq(auditEvents.action, filter.action) : undefined,
    filter.actorId ? eq(auditEvents.actorId, filter.actorId) : undefined,
    filter.targetType ? eq(auditEvents.targetType, filter.targetType) : undefined,
    filter.from ? gte(auditEvents.at, filter.from) : undefined,
    filter.to ? lt(auditEvents.at, filter.to) : undefined,
  ];
  const rows = await db
    .select()
    .from(auditEvents)
    .where(and(...conditions))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(AUDIT_PAGE_SIZE + 1)
    .offset((page - 1) * AUDIT_PAGE_SIZE);
  return { events: rows.slice(0, AUDIT_PAGE_SIZE), more: rows.length > AUDIT_PAGE_SIZE };
}

/** Deletes events older than the period the privacy notice states; returns how many. */
export async function pruneAudit(db: Database, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - retention.auditMonths);
  const deleted = await db.delete(auditEvents).where(lt(auditEvents.at, cutoff)).returning({ id: auditEvents.id });
  return deleted.length;
}
