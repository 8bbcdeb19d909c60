// The counts of a newsletter being sent (docs/back-office.md, "Newsletters"): while its state is
// "Sending", the JSON route is asked every 2 seconds and the numbers in the page's live region are
// replaced, so a screen reader hears them change; it stops once the state is "Sent", or when the
// session has ended (the route answers 401). Without this script the page shows the counts of the
// moment it was made, and its "Refresh" link reloads them.

import { adminNotices } from "#shared/admin/notices.ts";
import { NEWSLETTER_BADGE_CLASS, NEWSLETTER_STATUS_LABELS, NEWSLETTER_STATUS_TONES } from "./newsletter-status.ts";

type Progress = {
  status: "draft" | "sending" | "sent";
  recipients: number;
  queued: number;
  sent: number;
  failed: number;
};

const INTERVAL_MS = 2000;

/**
 * Everything on the page that says the state follows it: the line in the section, every badge
 * (the page's header has one), and the "Sending: …" notice of the send goes once it is sent.
 */
function showState(status: Progress["status"]): void {
  for (const badge of document.querySelectorAll<HTMLElement>("[data-newsletter-status]")) {
    if (badge.dataset.newsletterStatus === status) continue;
    const tone = NEWSLETTER_STATUS_TONES[status];
    badge.dataset.newsletterStatus = status;
    badge.className = `${NEWSLETTER_BADGE_CLASS} ${tone.className}`;
    const mark = document.createElement("span");
    mark.setAttribute("aria-hidden", "true");
    mark.textContent = tone.mark;
    badge.replaceChildren(mark, NEWSLETTER_STATUS_LABELS[status]);
  }
  if (status !== "sending") {
    for (const notice of document.querySelectorAll<HTMLElement>('main p[role="status"]')) {
      if (notice.textContent === adminNotices["newsletter-sent"]) notice.remove();
    }
  }
}

export function startProgress(section: HTMLElement): void {
  const url = section.dataset.newsletterProgress;
  if (!url || section.dataset.status !== "sending") return;
  const show = (progress: Progress) => {
    for (const key of ["queued", "sent", "failed"] as const) {
      const cell = section.querySelector<HTMLElement>(`[data-newsletter-count="${key}"]`);
      if (cell && cell.textContent !== String(progress[key])) cell.textContent = String(progress[key]);
    }
    const state = section.querySelector<HTMLElement>("[data-newsletter-state]");
    const label = NEWSLETTER_STATUS_LABELS[progress.status];
    if (state && state.textContent !== label) state.textContent = label;
    showState(progress.status);
    section.dataset.status = progress.status;
  };
  const poll = async () => {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.status === 401 || response.status === 403 || response.status === 404) return;
      if (response.ok) {
        const progress = (await response.json()) as Progress;
        show(progress);
        if (progress.status !== "sending") return;
      }
    } catch {
      // The network failed for a moment: the next poll tries again.
    }
    window.setTimeout(() => void poll(), INTERVAL_MS);
  };
  window.setTimeout(() => void poll(), INTERVAL_MS);
}
