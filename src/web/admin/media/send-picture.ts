import type { MediaAltAnswer, MediaUploadAnswer } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { MEDIA_LIMITS } from "#shared/media.ts";

// Sending pictures to the library from the browser (the library's page: drop, several files; the
// article editor: paste and drop), through its JSON routes. XMLHttpRequest rather than fetch, for
// the upload's progress. Every failure comes back as words to show, never as an exception.

export type SendOutcome = { ok: true; answer: MediaUploadAnswer } | { ok: false; message: string };

const LIMIT_MB = MEDIA_LIMITS.bytes / 1024 / 1024;

/** What the browser can say before sending: a file larger than the library takes. */
export function tooLargeBeforeSending(file: File): string | undefined {
  if (file.size <= MEDIA_LIMITS.bytes) return undefined;
  return `“${file.name}” is ${(file.size / 1024 / 1024).toFixed(1)} MB; a picture may be at most ${LIMIT_MB} MB.`;
}

/** The words of a refused request: the server's message, or what its status means. */
function failure(status: number, body: unknown): string {
  const message =
    typeof body === "object" && body !== null && typeof (body as { message?: unknown }).message === "string"
      ? (body as { message: string }).message
      : undefined;
  if (status === 401) return "Your session has ended: sign in again in a new tab, then try again.";
  if (status === 0) return "The picture did not reach the server. Check the connection and try again.";
  return message ?? `The server answered ${status}. Try again.`;
}

/** Sends one picture; `onProgress` hears the fraction sent (0 to 1). */
export function sendPicture(file: File, onProgress: (fraction: number) => void = () => {}): Promise<SendOutcome> {
  const early = tooLargeBeforeSending(file);
  if (early) return Promise.resolve({ ok: false, message: early });
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open("POST", adminHref("mediaUploadApi"));
    request.setRequestHeader("Accept", "application/json");
    request.responseType = "json";
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      if (request.status === 200 || request.status === 201) {
        onProgress(1);
        resolve({ ok: true, answer: request.response as MediaUploadAnswer });
      } else resolve({ ok: false, message: failure(request.status, request.response) });
    });
    request.addEventListener("error", () => resolve({ ok: false, message: failure(0, undefined) }));
    request.addEventListener("abort", () => resolve({ ok: false, message: "The upload was stopped." }));
    const body = new FormData();
    body.append("file", file, file.name || "pasted-picture");
    request.send(body);
  });
}

/** Stores a picture's alt text, or marks it decorative. */
export async function sendAltText(
  id: string,
  value: { alt: string; decorative: boolean },
): Promise<{ ok: true; answer: MediaAltAnswer } | { ok: false; message: string; field?: string }> {
  try {
    const response = await fetch(adminHref("mediaAltApi", { id }), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ alt: value.alt, decorative: value.decorative ? "true" : "false" }),
      credentials: "same-origin",
    });
    const body = (await response.json().catch(() => undefined)) as unknown;
    if (response.ok) return { ok: true, answer: body as MediaAltAnswer };
    return { ok: false, message: failure(response.status, body) };
  } catch {
    return { ok: false, message: failure(0, undefined) };
  }
}

/** The image files of a paste or a drop (pictures only; text is left to the browser). */
export function picturesOf(data: DataTransfer | null): File[] {
  if (!data) return [];
  const files = [...data.files];
  const fromItems = [...data.items]
    .filter((item) => item.kind === "file")
    .map((item) => item.getAsFile())
    .filter((file): file is File => file !== null);
  return (files.length ? files : fromItems).filter((file) => file.type.startsWith("image/") || file.type === "");
}
