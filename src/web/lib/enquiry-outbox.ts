import { apiPaths } from "#shared/paths.ts";
import { OUTBOX_STORAGE_KEY } from "./enquiry-outbox-key.ts";

// Enquiries the server has not yet acknowledged, kept in localStorage and sent again with the
// same idempotency key on the next page load and when the browser comes back online, so an
// enquiry that met a network failure still arrives, and arrives once.

const STORAGE_KEY = OUTBOX_STORAGE_KEY;

export type OutboxEntry = { idempotencyKey: string; payload: Record<string, unknown>; queuedAt: number };

function read(): OutboxEntry[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "[]");
    return Array.isArray(parsed) ? (parsed as OutboxEntry[]) : [];
  } catch {
    return [];
  }
}

function write(entries: OutboxEntry[]): void {
  try {
    if (entries.length) localStorage.setItem(STORAGE_KEY, JSON.stringify(entries));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage full or disabled: the enquiry can still be sent now, just not kept.
  }
}

export function pendingEnquiries(): OutboxEntry[] {
  return read();
}

export function keepEnquiry(idempotencyKey: string, payload: Record<string, unknown>): void {
  write([
    ...read().filter((entry) => entry.idempotencyKey !== idempotencyKey),
    { idempotencyKey, payload, queuedAt: Date.now() },
  ]);
}

export function forgetEnquiry(idempotencyKey: string): void {
  write(read().filter((entry) => entry.idempotencyKey !== idempotencyKey));
}

/** A server answer after which sending again cannot help (stored, or rejected as invalid). */
export function isFinalAnswer(status: number): boolean {
  return (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 408 && status !== 429);
}

let flushing: Promise<void> | undefined;

/** Sends every kept enquiry once more; keeps those that still cannot reach the server. */
export function flushEnquiryOutbox(): Promise<void> {
  flushing ??= (async () => {
    for (const entry of read()) {
      try {
        const response = await fetch(apiPaths.contact, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ ...entry.payload, idempotencyKey: entry.idempotencyKey }),
          credentials: "include",
        });
        if (isFinalAnswer(response.status)) forgetEnquiry(entry.idempotencyKey);
      } catch {
        // Still offline: try again on the next load or `online` event.
      }
    }
  })().finally(() => {
    flushing = undefined;
  });
  return flushing;
}

/** A version 4 UUID, also on plain-HTTP pages where crypto.randomUUID is unavailable. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
