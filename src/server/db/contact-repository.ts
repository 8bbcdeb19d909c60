import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { ContactSubmission } from "#shared/api-types.ts";
import { PRIVACY_NOTICE_VERSION } from "#shared/privacy-notice.ts";
import type { ContactSubmissionData } from "#shared/schemas/contact-submission.ts";
import type { Database } from "./client.ts";
import type { Attribution } from "../analytics/counting.ts";
import { hitRateLimit } from "../enquiries/rate-limit.ts";
import { countSpam, shortenedSpam, useFormToken } from "../enquiries/spam.ts";
import { type ContactSubmissionRow, contactSubmissions, mailOutbox } from "./schema.ts";

export type MailPlan = { configured: boolean; acknowledge: boolean };

export type StoreEnquiryInput = {
  data: ContactSubmissionData;
  idempotencyKey: string;
  /** The version of the privacy notice the form showed (src/shared/privacy-notice.ts); the current one when not given. */
  noticeVersion?: string;
  /** Where the enquiry came from (analytics); stored with an enquiry that is not spam. */
  attribution?: Attribution;
  /** When it was sent, by the app's clock when the app has one of its own (tests); else the database's. */
  createdAt?: Date;
  /** Why the post is spam before the database is asked (honeypot, forged or too-fast token), or null. */
  spamReason: string | null;
  mail: MailPlan;
  /** The post's genuine form token, recorded as used: a second enquiry with it is spam. */
  formToken?: { signature: string; issuedAt: Date };
  /**
   * The rate-limit key of the visitor's address, for the acknowledgement: at most one a day goes
   * to an address. Without one, no acknowledgement is sent.
   */
  acknowledgementKey?: string;
  /**
   * For an enquiry without a form token: the rate-limit key of the client's address and how many
   * such enquiries it may send a day; more are spam. Repeats of a stored enquiry are not counted.
   */
  tokenlessLimit?: { key: string; perDay: number };
};

export type StoredEnquiry =
  /** Stored now (spam too, shortened), its mail queued unless it is spam. */
  | {
      outcome: "created";
      submission: ContactSubmission;
      isSpam: boolean;
      spamReason: string | null;
      acknowledged: boolean;
    }
  /** Spam over the hourly cap: counted, not stored. */
  | { outcome: "spam-counted"; spamReason: string }
  /** The idempotency key was used before: the same enquiry sent again, or (sameBody false) another one. */
  | { outcome: "repeat"; submission: ContactSubmission; isSpam: boolean; sameBody: boolean };

const ACKNOWLEDGEMENTS_PER_DAY = 1;
const DAY_SECONDS = 24 * 60 * 60;

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

/** SHA-256 of an enquiry's fields as the schema leaves them: the same enquiry sent again has the same one. */
type EnquiryFields = {
  firstName: string;
  lastName: string;
  email: string;
  company?: string | null;
  service?: string | null;
  message: string;
};

export function enquiryDigest(data: EnquiryFields): string {
  const fields = [data.firstName, data.lastName, data.email, data.company || null, data.service || null, data.message];
  return createHash("sha256").update(JSON.stringify(fields)).digest("hex");
}

/**
 * Stores an enquiry once per idempotency key and, in the same transaction, queues its mail: a
 * committed enquiry always has its outbox rows, and a repeated key changes nothing. In the same
 * transaction too: the form token is recorded as used (a token already used by another enquiry
 * makes this one spam), spam is counted against the hourly cap, and the acknowledgement is
 * counted against its recipient's daily one.
 */
export async function storeEnquiry(db: Database, input: StoreEnquiryInput): Promise<StoredEnquiry> {
  const digest = enquiryDigest(input.data);
  return db.transaction(async (tx) => {
    const earlier = async (): Promise<StoredEnquiry | undefined> => {
      const [existing] = await tx
        .select()
        .from(contactSubmissions)
        .where(eq(contactSubmissions.idempotencyKey, input.idempotencyKey));
      if (!existing) return undefined;
      // Rows stored before digests were kept have their fields whole (only spam is shortened).
      const storedDigest = existing.bodyDigest ?? enquiryDigest(existing);
      return {
        outcome: "repeat",
        submission: toContactSubmission(existing),
        isSpam: existing.isSpam,
        sameBody: storedDigest === digest,
      };
    };
    const repeat = await earlier();
    if (repeat) return repeat;

    let spamReason = input.spamReason;
    if (input.formToken) {
      const firstUser = await useFormToken(tx, input.formToken, input.idempotencyKey);
      if (firstUser !== input.idempotencyKey) spamReason ??= "form-token-reused";
    }
    if (spamReason === null && input.tokenlessLimit) {
      const { key, perDay } = input.tokenlessLimit;
      if (!(await hitRateLimit(tx, key, perDay, DAY_SECONDS)).allowed) spamReason = "no-token-over-daily-limit";
    }
    if (spamReason !== null && !(await countSpam(tx)).store) return { outcome: "spam-counted", spamReason };

    const data = spamReason === null ? input.data : shortenedSpam(input.data);
    const [inserted] = await tx
      .insert(contactSubmissions)
      .values({
        firstName: data.firstName,
        lastName: data.lastName,
        email: data.email,
        company: data.company || null,
        service: data.service || null,
        message: data.message,
        idempotencyKey: input.idempotencyKey,
        isSpam: spamReason !== null,
        status: spamReason !== null ? "spam" : "new",
        spamReason,
        bodyDigest: digest,
        noticeVersion: input.noticeVersion ?? PRIVACY_NOTICE_VERSION,
        ...(spamReason === null ? input.attribution : undefined),
        ...(input.createdAt ? { createdAt: input.createdAt } : {}),
      })
      .onConflictDoNothing({ target: contactSubmissions.idempotencyKey })
      .returning();
    if (!inserted) {
      // Another request with the same key committed first.
      const raced = await earlier();
      if (!raced) throw new Error("idempotency conflict without a stored row");
      return raced;
    }
    let acknowledged = false;
    if (!inserted.isSpam) {
      const status = input.mail.configured ? "pending" : "unconfigured";
      const kinds = ["notification"];
      if (input.mail.acknowledge && input.acknowledgementKey) {
        acknowledged = (await hitRateLimit(tx, input.acknowledgementKey, ACKNOWLEDGEMENTS_PER_DAY, DAY_SECONDS))
          .allowed;
        if (acknowledged) kinds.push("acknowledgement");
      }
      await tx.insert(mailOutbox).values(kinds.map((kind) => ({ submissionId: inserted.id, kind, status })));
    }
    return {
      outcome: "created",
      submission: toContactSubmission(inserted),
      isSpam: inserted.isSpam,
      spamReason,
      acknowledged,
    };
  });
}

/** A short reference a visitor can quote: ENQ- and the first eight hex digits of the id. */
export function enquiryReference(id: string): string {
  return `ENQ-${id.replace(/-/g, "").slice(0, 8).toUpperCase()}`;
}
