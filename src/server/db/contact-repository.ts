import { eq } from "drizzle-orm";
import type { ContactSubmission } from "#shared/api-types.ts";
import type { ContactSubmissionData } from "#shared/schemas/contact-submission.ts";
import type { Database } from "./client.ts";
import { type ContactSubmissionRow, contactSubmissions, mailOutbox } from "./schema.ts";

export type MailPlan = { configured: boolean; acknowledge: boolean };

export type StoredEnquiry = { submission: ContactSubmission; created: boolean; isSpam: boolean };

function toContactSubmission(row: ContactSubmissionRow): ContactSubmission {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    company: row.company,
    service: row.service,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Stores an enquiry once per idempotency key and, in the same transaction, queues its mail: a
 * committed enquiry always has its outbox rows, and a repeated key changes nothing.
 */
export async function storeEnquiry(
  db: Database,
  input: {
    data: ContactSubmissionData;
    idempotencyKey: string;
    spamReason: string | null;
    mail: MailPlan;
  },
): Promise<StoredEnquiry> {
  return db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(contactSubmissions)
      .values({
        firstName: input.data.firstName,
        lastName: input.data.lastName,
        email: input.data.email,
        company: input.data.company || null,
        service: input.data.service || null,
        message: input.data.message,
        idempotencyKey: input.idempotencyKey,
        isSpam: input.spamReason !== null,
        spamReason: input.spamReason,
      })
      .onConflictDoNothing({ target: contactSubmissions.idempotencyKey })
      .returning();
    if (!inserted) {
      const [existing] = await tx
        .select()
        .from(contactSubmissions)
        .where(eq(contactSubmissions.idempotencyKey, input.idempotencyKey));
      if (!existing) throw new Error("idempotency conflict without a stored row");
      return { submission: toContactSubmission(existing), created: false, isSpam: existing.isSpam };
    }
    if (!inserted.isSpam) {
      const status = input.mail.configured ? "pending" : "unconfigured";
      const kinds = input.mail.acknowledge ? ["notification", "acknowledgement"] : ["notification"];
      await tx.insert(mailOutbox).values(kinds.map((kind) => ({ submissionId: inserted.id, kind, status })));
    }
    return { submission: toContactSubmission(inserted), created: true, isSpam: inserted.isSpam };
  });
}

/** A short reference a visitor can quote: ENQ- and the first eight hex digits of the id. */
export function enquiryReference(id: string): string {
  return `ENQ-${id.replace(/-/g, "").slice(0, 8).toUpperCase()}`;
}
