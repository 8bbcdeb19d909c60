import type { AutosaveAnswer, RevisionView } from "#shared/admin/pages.ts";

// What an autosave's answer means for the editor (decision 038, section 4), read from its status
// and JSON alone, so every case is tested without a server or a browser.

export type AutosaveOutcome =
  | { kind: "saved"; revision: RevisionView; unchanged: boolean }
  /** Someone else saved first: autosave stops, the text stays, the comparison is one link away. */
  | { kind: "conflict"; message: string; compareHref: string | undefined; yours: boolean }
  /** The session has ended: keep the text, sign in in another tab, try again with the same base. */
  | { kind: "signed-out"; message: string }
  | { kind: "too-large"; message: string }
  /**
   * Too many autosaves from this session for now (429): nothing was saved; the text stays in the
   * editor and in this browser, and autosave tries again once `retryAfterSeconds` have passed.
   */
  | { kind: "later"; message: string; retryAfterSeconds: number }
  /** Refused: the problems at their fields. */
  | { kind: "invalid"; message: string; fields: Record<string, string> }
  | { kind: "failed"; message: string };

export const SIGNED_OUT_MESSAGE = "Your session has ended: sign in in a new tab, then save.";

export const tooLargeMessage = (limit: number) =>
  `This is too large to save: the studio takes at most ${Math.floor(limit / 1024).toLocaleString("en-IN")} KB. Shorten the body; your text is kept in this browser.`;

/** What the editor says while autosave waits out the session's limit. */
export const laterMessage = (seconds: number) =>
  `Autosave is waiting: it saves again in ${seconds} ${seconds === 1 ? "second" : "seconds"}. Your text stays here and in this browser.`;

/** How long to wait before a request refused with 429 is sent again: its Retry-After, within 1 s to 5 minutes. */
export function retryAfterSeconds(header: string | null | undefined): number {
  const seconds = Number(header);
  if (!header || !Number.isFinite(seconds) || seconds < 1) return 10;
  return Math.min(Math.ceil(seconds), 300);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** The outcome of an answer: its status, its JSON, and for a 429 its Retry-After header. */
export function autosaveOutcome(
  status: number,
  body: unknown,
  limit: number,
  retryAfter?: string | null,
): AutosaveOutcome {
  const answer = isRecord(body) ? body : {};
  const message = text(answer.message);
  if (status >= 200 && status < 300 && answer.saved === true && isRecord(answer.revision)) {
    const saved = answer as Extract<AutosaveAnswer, { saved: true }>;
    return { kind: "saved", revision: saved.revision, unchanged: saved.unchanged === true };
  }
  if (status === 409) {
    return {
      kind: "conflict",
      message: message ?? "Someone else saved this article first, so your change was not saved.",
      compareHref: text(answer.compareHref),
      yours: answer.yours === true,
    };
  }
  if (status === 401) return { kind: "signed-out", message: SIGNED_OUT_MESSAGE };
  if (status === 413) return { kind: "too-large", message: tooLargeMessage(limit) };
  if (status === 429) {
    const seconds = retryAfterSeconds(retryAfter);
    return { kind: "later", message: laterMessage(seconds), retryAfterSeconds: seconds };
  }
  if ((status === 400 || status === 422) && isRecord(answer.problems)) {
    const fields = Object.fromEntries(
      Object.entries(answer.problems).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
    return { kind: "invalid", message: message ?? "Some fields need attention.", fields };
  }
  return {
    kind: "failed",
    message: message ?? (status ? `The site answered ${status}.` : "The site could not be reached."),
  };
}

/** The size of a request's body in bytes (UTF-8). */
export const byteLength = (body: string) => new TextEncoder().encode(body).length;
