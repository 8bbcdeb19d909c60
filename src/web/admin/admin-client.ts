import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from "@simplewebauthn/browser";
import { ADMIN_HOME, adminHref } from "#shared/admin/routes.ts";
import { forgetAllCopies } from "./studio/copy-keys.ts";
import "./admin.css";

// The back office's one script. Its pages work as plain HTML forms; this adds what needs
// JavaScript: the passkey ceremonies (sign in, accept an invitation, add a passkey), a question
// before a destructive form is sent, selecting a one-time link for copying, and the content
// studio's editor, loaded as a chunk of its own only on a page that has one.

type ApiAnswer = { redirect?: string; message?: string };

async function post(url: string, body: unknown): Promise<ApiAnswer & Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const answer = (await response.json().catch(() => ({}))) as ApiAnswer & Record<string, unknown>;
  if (!response.ok) throw new Error(answer.message ?? `The server answered ${response.status}.`);
  return answer;
}

function say(button: HTMLElement, text: string, kind: "progress" | "error") {
  const status = button.parentElement?.querySelector<HTMLElement>("[data-passkey-status]");
  if (!status) return;
  status.textContent = text;
  status.setAttribute("role", kind === "error" ? "alert" : "status");
  status.classList.toggle("text-red-800", kind === "error");
}

/**
 * Where a person without a passkey on this device goes: the sign-in page's emailed link when mail
 * is set up (the form is on the page), an admin otherwise.
 */
function withoutPasskey(): string {
  return document.querySelector(`form[action="${adminHref("signInEmail")}"]`)
    ? "No passkey was used. On a new phone or another device without your passkey, sign in with an emailed link: enter your staff email address under “Lost your device?” below."
    : "No passkey was used. On a new phone or another device without your passkey, ask an admin for a sign-in link.";
}

/** What to tell a person whose ceremony failed: the browser's reason, in words. */
function explain(error: unknown, action: string | undefined): string {
  // Signing in, a closed or refused prompt is also what a device without the person's passkey gives:
  // the browser does not say which, so the words point to the way in that needs no passkey.
  const refused =
    (error instanceof WebAuthnError && error.code === "ERROR_CEREMONY_ABORTED") ||
    (error instanceof Error && error.name === "NotAllowedError");
  if (refused && action === "sign-in") return withoutPasskey();
  if (error instanceof WebAuthnError && error.code === "ERROR_CEREMONY_ABORTED")
    return "The passkey prompt was closed. Try again when you are ready.";
  if (error instanceof Error && error.name === "NotAllowedError")
    return "The passkey prompt was closed or timed out. Try again when you are ready.";
  if (error instanceof WebAuthnError && error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED")
    return "This device already has a passkey for your account.";
  return error instanceof Error ? error.message : "Something went wrong. Try again.";
}

async function runCeremony(button: HTMLButtonElement) {
  const action = button.dataset.passkeyAction;
  if (!browserSupportsWebAuthn()) {
    say(button, "This browser cannot use passkeys. Use a current browser, or ask for a sign-in link.", "error");
    return;
  }
  button.disabled = true;
  say(button, "Waiting for your passkey…", "progress");
  try {
    let answer: ApiAnswer;
    if (action === "sign-in") {
      const optionsJSON = await post(adminHref("signInOptions"), {});
      const response = await startAuthentication({ optionsJSON: optionsJSON as never });
      answer = await post(adminHref("signInVerify"), { response, next: button.dataset.next });
    } else {
      const invitation = action === "register-invitation" ? button.dataset.invitation : undefined;
      const optionsJSON = await post(adminHref("registrationOptions"), { invitation });
      const response = await startRegistration({ optionsJSON: optionsJSON as never });
      answer = await post(adminHref("registration"), { invitation, response });
    }
    say(button, "Signed in. Opening the back office…", "progress");
    window.location.assign(answer.redirect ?? ADMIN_HOME);
  } catch (error) {
    say(button, explain(error, action), "error");
    button.disabled = false;
  }
}

for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-passkey-action]")) {
  button.addEventListener("click", () => void runCeremony(button));
}

// The navigation is one row that scrolls on a narrow screen: the current entry is shown in it (by
// the row's own scroll, never the page's: a reload halfway down the page stays there).
const currentEntry = document.querySelector<HTMLElement>('nav[aria-label="Back office"] [aria-current="page"]');
const navigationRow = currentEntry?.closest("ul");
if (currentEntry && navigationRow && navigationRow.scrollWidth > navigationRow.clientWidth)
  navigationRow.scrollLeft +=
    currentEntry.getBoundingClientRect().left -
    navigationRow.getBoundingClientRect().left -
    (navigationRow.clientWidth - currentEntry.offsetWidth) / 2;

for (const form of document.querySelectorAll<HTMLFormElement>("form[data-confirm]")) {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm ?? "Are you sure?")) event.preventDefault();
  });
}

for (const input of document.querySelectorAll<HTMLInputElement>("input[data-select-on-focus]")) {
  input.addEventListener("focus", () => input.select());
}

// The studio's editor (src/web/admin/studio/): its code reaches no other page.
const studioEditor = document.querySelector<HTMLFormElement>("form[data-studio-editor]");
if (studioEditor) void import("./studio/editor.ts").then(({ startEditor }) => startEditor(studioEditor));

// The team (src/web/admin/team/): dragging rows to reorder, on the team list. A chunk only it loads.
const teamOrder = document.querySelector<HTMLTableSectionElement>("tbody[data-team-order]");
if (teamOrder) void import("./team/drag-order.ts").then(({ startDragOrder }) => startDragOrder(teamOrder));
// The picture fields outside the studio's editor (a member's photo): "Choose picture", the chooser.
if (!studioEditor && document.querySelector("[data-picture-field]"))
  void import("./media/picture-field.ts").then(({ startPictureFields }) => startPictureFields(document));
// The media library's uploads (src/web/admin/media/): dropping, several files, progress.
const mediaUploader = document.querySelector<HTMLElement>("[data-media-uploader]");
if (mediaUploader) void import("./media/uploader.ts").then(({ startUploader }) => startUploader(mediaUploader));

// Newsletters (src/web/admin/newsletters/): the counts of one being sent, on its page only.
const newsletterProgress = document.querySelector<HTMLElement>("[data-newsletter-progress]");
if (newsletterProgress)
  void import("./newsletters/progress.ts").then(({ startProgress }) => startProgress(newsletterProgress));

// Signing out forgets the studio's copies of unsaved text kept in this browser (decision 038).
for (const form of document.querySelectorAll<HTMLFormElement>(`form[action="${adminHref("signOut")}"]`)) {
  form.addEventListener("submit", () => {
    try {
      forgetAllCopies(window.localStorage);
    } catch {
      // No storage, no copies.
    }
  });
}

document.documentElement.dataset.ready = "true";
