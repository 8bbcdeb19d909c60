import type { PresenceAnswer } from "#shared/admin/pages.ts";
import { setShown } from "./visibility.ts";
import { presenceText } from "./words.ts";

// Who else has the article or project open (decision 038, section 2): a beat every 15 s while the
// page is visible, one at once when it becomes visible again, and "leaving" as the page goes. It
// warns; it prevents nothing (the revision check does).

export const PRESENCE_EVERY_MS = 15_000;

/** Beats at `url` (the item's presence route), showing who else is there in `line`. */
export function setupPresence(url: string, line: HTMLElement): void {
  const send = (body: object, keepalive = false) =>
    fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
      keepalive,
    });
  const beat = async () => {
    if (document.visibilityState !== "visible") return;
    try {
      const response = await send({});
      if (!response.ok) return;
      const answer = (await response.json()) as PresenceAnswer;
      if (!Array.isArray(answer.others)) return;
      const text = presenceText(answer.others.filter((name) => typeof name === "string"));
      if (line.textContent !== text) line.textContent = text;
      setShown(line, Boolean(text));
    } catch {
      // A missed beat says nothing; the next one may.
    }
  };
  void beat();
  setInterval(() => void beat(), PRESENCE_EVERY_MS);
  document.addEventListener("visibilitychange", () => void beat());
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) void beat();
  });
  window.addEventListener("pagehide", () => void send({ leaving: true }, true).catch(() => {}));
}
