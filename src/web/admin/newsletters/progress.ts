// The counts of a newsletter being sent (docs/back-office.md, "Newsletters"): while its state is
// "Sending", the JSON route is asked every 2 seconds and the numbers in the page's live region are
// replaced, so a screen reader hears them change; it stops once the state is "Sent", or when the
// session has ended (the route answers 401). Without this script the page shows the counts of the
// moment it was made, and its "Refresh" link reloads them.

type Progress = {
  status: "draft" | "sending" | "sent";
  recipients: number;
  queued: number;
  sent: number;
  failed: number;
};

const INTERVAL_MS = 2000;
const STATE_LABELS: Record<Progress["status"], string> = { draft: "Draft", sending: "Sending", sent: "Sent" };

export function startProgress(section: HTMLElement): void {
  const url = section.dataset.newsletterProgress;
  if (!url || section.dataset.status !== "sending") return;
  const show = (progress: Progress) => {
    for (const key of ["queued", "sent", "failed"] as const) {
      const cell = section.querySelector<HTMLElement>(`[data-newsletter-count="${key}"]`);
      if (cell && cell.textContent !== String(progress[key])) cell.textContent = String(progress[key]);
    }
    const state = section.querySelector<HTMLElement>("[data-newsletter-state]");
    if (state && state.textContent !== STATE_LABELS[progress.status]) state.textContent = STATE_LABELS[progress.status];
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
