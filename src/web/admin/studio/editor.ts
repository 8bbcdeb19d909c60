import { adminHref } from "#shared/admin/routes.ts";
import { STUDIO_DOCUMENT_BODY_LIMIT } from "#shared/content/documents.ts";
import { type AutosaveOutcome, autosaveOutcome, byteLength, tooLargeMessage } from "./autosave-answer.ts";
import { AutosaveSchedule, debounce } from "./autosave-schedule.ts";
import {
  changedFields,
  copiesOf,
  copyKey,
  describeDifference,
  type FieldValues,
  type FoundCopy,
  sweepCopies,
  writeCopy,
} from "./browser-copy.ts";
import { NEW_ITEM, NO_BASE } from "./copy-keys.ts";
import { STUDIO_FIELDS } from "./fields.ts";
import { setupLivePreview } from "./live-preview.ts";
import { startPictureFields } from "../media/picture-field.ts";
import { pictureLine, setupPastePictures } from "./paste-pictures.ts";
import { setupPresence } from "./presence.ts";
import { setupShareLink } from "./share-link.ts";
import { slugAfterTitle, slugFollows } from "./slug-follow.ts";
import { setupVisualEditor } from "./visual-editor.ts";
import { setShown } from "./visibility.ts";
import { indiaDateTimeText, savedAtText } from "./words.ts";
import { element } from "../dom.ts";

// The studio's editor, on top of a form that works without it (src/web/admin/pages/studio/
// article-editor-page.tsx, project-editor-page.tsx: data-studio-editor names the kind, whose fields
// are in fields.ts). Loaded by admin-client.ts only on a page with the editor, as a chunk of its own. It adds: the toolbar and the live preview, the slug following the title, the cover's
// thumbnail, the publish checklist as you type, autosave with its answers, the browser's copy,
// presence, Ctrl+S, and a warning before leaving unsaved changes. Decision 038, section 4, says
// what autosave and the copy must do; decision 056 why the Body is a visual editor over its Markdown
// textarea (visual-editor.ts).

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const COPY_PAUSE_MS = 500;
const CHECKLIST_PAUSE_MS = 300;

/** localStorage, or undefined where the browser refuses it (then there is no copy, and nothing else changes). */
function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function startEditor(form: HTMLFormElement): void {
  const kind = form.dataset.studioEditor === "project" ? "project" : "article";
  const fields = STUDIO_FIELDS[kind];
  const id = form.dataset.itemId || null;
  const limit = Number(form.dataset.bodyLimit) || STUDIO_DOCUMENT_BODY_LIMIT;
  const everPublic = form.dataset.everPublic === "true";
  let headNumber = Number(form.dataset.headNumber) || null;
  const headBy = form.dataset.headBy ?? "";

  const control = (name: string) => form.elements.namedItem(name) as Control;
  const body = control(fields.text) as HTMLTextAreaElement;
  const title = control("title");
  const slug = control("slug");
  const cover = control("imageUrl");
  const baseInput = form.querySelector<HTMLInputElement>('input[name="baseRevisionId"]');
  const base = () => baseInput?.value ?? NO_BASE;
  const status = form.querySelector<HTMLElement>("[data-studio-save-status]");
  const problem = form.querySelector<HTMLElement>("[data-studio-save-problem]");
  const saveButton = form.querySelector<HTMLButtonElement>("button[data-studio-save]");
  const values = (): FieldValues => Object.fromEntries(fields.names.map((name) => [name, control(name).value]));

  // Changes: `version` counts them; `savedVersion` is the one the server has. A refused save's page
  // (data-unsaved) shows text the server does not have: unsaved from the start.
  let version = 0;
  let savedVersion = form.dataset.unsaved === "true" ? -1 : 0;
  const dirty = () => version !== savedVersion;
  let leaving = false;

  // The Body's view shown (the visual editor's, once it has started) takes focus back.
  let focusBody = () => body.focus();
  const say = (text: string) => {
    if (status) status.textContent = text;
  };
  const showProblem = (text: string, ...extras: Node[]) => {
    problem?.replaceChildren(element("p", { text }), ...extras);
  };
  const clearProblem = () => {
    // "Try again" leaves with the problem: focus goes back to the text rather than nowhere.
    const hadFocus = problem?.contains(document.activeElement) ?? false;
    problem?.replaceChildren();
    if (hadFocus) focusBody();
  };

  // ---- Problems at their fields, as the server's refused form shows them (src/web/admin/ui/field.tsx).
  const fieldProblems = (problems: Record<string, string>) => {
    for (const name of fields.names) {
      const input = control(name);
      const errorId = `${fields.id(name)}-error`;
      const message = problems[name];
      let note = document.getElementById(errorId);
      const describedBy = (input.getAttribute("aria-describedby") ?? "")
        .split(" ")
        .filter((part) => part && part !== errorId);
      if (!message) {
        note?.remove();
        input.removeAttribute("aria-invalid");
        input.classList.remove("border-red-700");
        if (describedBy.length) input.setAttribute("aria-describedby", describedBy.join(" "));
        else input.removeAttribute("aria-describedby");
        continue;
      }
      if (!note) {
        note = element("p", { className: "mt-1 text-sm font-medium text-red-700" });
        note.id = errorId;
        input.closest("div")?.append(note);
      }
      note.textContent = message;
      input.setAttribute("aria-invalid", "true");
      input.classList.add("border-red-700");
      input.setAttribute("aria-describedby", [errorId, ...describedBy].join(" "));
    }
  };

  // ---- The slug follows the title until written by hand.
  let following = slugFollows(title.value, slug.value, everPublic);
  title.addEventListener("input", () => {
    slug.value = slugAfterTitle(title.value, slug.value, following);
  });
  slug.addEventListener("input", () => {
    following = slugFollows(title.value, slug.value, everPublic);
  });

  // ---- The cover's thumbnail.
  const thumbnail = form.querySelector<HTMLImageElement>("img[data-studio-cover]");
  const showCover = () => {
    if (!thumbnail) return;
    // A chooser's option may name a small copy of its picture (data-thumbnail) to show instead.
    const small = cover instanceof HTMLSelectElement ? cover.selectedOptions[0]?.dataset.thumbnail : undefined;
    if (cover.value) thumbnail.src = small || cover.value;
    setShown(thumbnail, Boolean(cover.value));
  };
  cover.addEventListener("input", showCover);
  // "Choose picture" beside the cover or image (the picture chooser); an article's cover takes its
  // alt text from the library with it, which the writer may still change.
  startPictureFields(form, (select, picture) => {
    const alt = form.elements.namedItem("imageAlt");
    if (select !== cover || !(alt instanceof HTMLInputElement) || !picture.alt) return;
    alt.value = picture.alt;
    alt.dispatchEvent(new Event("input", { bubbles: true }));
  });

  // ---- The publish checklist, as the document now stands.
  const blockerList = form.querySelector<HTMLElement>("[data-studio-blockers]");
  const updateChecklist = debounce(() => {
    if (!blockerList) return;
    const blockers = fields.blockers(values());
    blockerList.replaceChildren(
      ...(blockers.length
        ? blockers.map((item) => {
            const link = element("a", { className: "underline underline-offset-2", text: item.message });
            link.href = `#${fields.id(item.field)}`;
            return element("li", { className: "text-red-800" }, element("span", { text: "✗ " }), link);
          })
        : [element("li", { className: "text-green-900" }, element("span", { text: "✓ " }), "Nothing is missing.")]),
    );
    for (const mark of blockerList.querySelectorAll("li > span:first-child")) mark.setAttribute("aria-hidden", "true");
  }, CHECKLIST_PAUSE_MS);

  // ---- The browser's copy: half a second after each change, under the revision it is based on.
  const store = storage();
  const itemId = id ?? NEW_ITEM;
  const currentKey = () => copyKey(kind, itemId, id ? base() : NO_BASE);
  const writeCopyNow = () => {
    if (store && dirty())
      writeCopy(store, currentKey(), { savedAt: Date.now(), baseNumber: headNumber, values: values() });
  };
  const writeCopyLater = debounce(writeCopyNow, COPY_PAUSE_MS);

  // ---- Autosave (an article that exists): 2 s after the last change, at least every 10 s.
  let stopped = false;
  let inFlight: Promise<void> | undefined;
  let again = false;
  // Refused for now (429, too many autosaves from this session): nothing is sent until `waitUntil`,
  // then the text as it is then is (decision 048).
  let waitUntil = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const retryButton = () => {
    const button = element("button", { className: "admin-button-secondary mt-2", text: "Try again" });
    button.type = "button";
    button.addEventListener("click", () => void save());
    return button;
  };

  const handle = (outcome: AutosaveOutcome, sent: number, sentBase: string) => {
    switch (outcome.kind) {
      case "saved": {
        const next = String(outcome.revision.id);
        for (const input of document.querySelectorAll<HTMLInputElement>("input[data-studio-base]")) input.value = next;
        headNumber = outcome.revision.number;
        savedVersion = sent;
        store?.removeItem(copyKey(kind, itemId, sentBase));
        if (dirty()) writeCopyNow();
        fieldProblems({});
        clearProblem();
        say(savedAtText(new Date()));
        return;
      }
      case "conflict": {
        stopped = true;
        schedule?.cancel();
        say("");
        const extras: Node[] = [
          element("p", {
            className: "mt-1",
            text: "Autosave has stopped. Your text stays here, and in this browser. Save draft shows both texts side by side, so you can decide.",
          }),
        ];
        if (outcome.compareHref?.startsWith("/")) {
          const link = element("a", {
            className: "admin-link",
            text: outcome.yours ? "See what changed in your newer version" : "See what they changed",
          });
          link.href = outcome.compareHref;
          link.target = "_blank";
          extras.push(element("p", { className: "mt-1" }, link));
        }
        showProblem(outcome.message, ...extras);
        return;
      }
      case "invalid": {
        fieldProblems(outcome.fields);
        const others = Object.entries(outcome.fields)
          .filter(([name]) => !fields.names.includes(name))
          .map(([, message]) => message);
        say("");
        showProblem(`Not saved: ${[outcome.message, ...others].join(" ")}`);
        return;
      }
      case "signed-out":
        say("");
        showProblem(outcome.message, retryButton());
        return;
      case "too-large":
        say("");
        showProblem(outcome.message);
        return;
      case "later": {
        const wait = outcome.retryAfterSeconds * 1000;
        waitUntil = Date.now() + wait;
        clearTimeout(retryTimer);
        retryTimer = setTimeout(() => {
          waitUntil = 0;
          void save();
        }, wait);
        writeCopyNow();
        say(outcome.message);
        return;
      }
      case "failed":
        say("");
        showProblem(
          `Not saved: ${outcome.message} Your text is kept in this browser; it is saved again at your next change.`,
          retryButton(),
        );
    }
  };

  async function save(): Promise<void> {
    if (!id || stopped || leaving) return;
    if (inFlight) {
      again = true;
      return inFlight;
    }
    if (!dirty()) return;
    // Waiting out the limit: the text is kept in this browser, and sent when the wait ends.
    if (Date.now() < waitUntil) {
      writeCopyNow();
      return;
    }
    const sent = version;
    const sentBase = base();
    const payload = JSON.stringify({ ...values(), baseRevisionId: sentBase });
    if (byteLength(payload) > limit) {
      showProblem(tooLargeMessage(limit));
      return;
    }
    say("Saving…");
    inFlight = (async () => {
      let outcome: AutosaveOutcome;
      try {
        const response = await fetch(adminHref(kind === "article" ? "articleAutosave" : "projectAutosave", { id }), {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: payload,
          credentials: "same-origin",
        });
        outcome = autosaveOutcome(
          response.status,
          await response.json().catch(() => undefined),
          limit,
          response.headers.get("retry-after"),
        );
      } catch {
        outcome = autosaveOutcome(0, undefined, limit);
      }
      handle(outcome, sent, sentBase);
    })();
    try {
      await inFlight;
    } finally {
      inFlight = undefined;
    }
    if (again) {
      again = false;
      if (dirty()) await save();
    }
  }

  const schedule = id ? new AutosaveSchedule(() => void save()) : undefined;

  /** Saves what is waiting, now, and waits for it (Ctrl+S, before a preview or a change of state). */
  const flush = async () => {
    schedule?.cancel();
    if (inFlight) await inFlight.catch(() => {});
    if (dirty()) await save();
  };

  const changed = () => {
    version++;
    writeCopyLater();
    updateChecklist();
    schedule?.changed();
  };
  form.addEventListener("input", changed);

  // ---- Submitting: never more than the route takes; wait for an autosave under way, whose
  // revision the post must be based on; then stop autosaving, the page is leaving.
  form.addEventListener("submit", (event) => {
    const encoded = new URLSearchParams(
      [...new FormData(form)].map(([key, value]) => [key, typeof value === "string" ? value : ""]),
    ).toString();
    if (encoded.length > limit) {
      event.preventDefault();
      showProblem(tooLargeMessage(limit));
      return;
    }
    if (inFlight) {
      event.preventDefault();
      const submitter = event.submitter as HTMLButtonElement | null;
      void inFlight.finally(() => form.requestSubmit(submitter));
      return;
    }
    leaving = true;
    schedule?.cancel();
    writeCopyLater.flush();
    keepScroll(kind);
  });

  // The page's other forms that change the article (Unpublish, Move to trash) carry the revision
  // shown: save what is waiting first, so they are based on it.
  for (const other of document.querySelectorAll<HTMLFormElement>("form")) {
    if (other === form || !other.querySelector("input[data-studio-base]")) continue;
    other.addEventListener("submit", (event) => {
      if (event.defaultPrevented || (!dirty() && !inFlight)) return;
      event.preventDefault();
      void flush().finally(() => {
        leaving = true;
        other.submit();
      });
    });
  }

  // "Preview" shows the saved draft: save first, into a tab opened now (a tab opened after the
  // save would be a pop-up the browser blocks).
  const previewForm = document.querySelector<HTMLFormElement>("form[data-studio-preview-form]");
  previewForm?.addEventListener("submit", (event) => {
    if (!dirty() && !inFlight) return;
    event.preventDefault();
    const name = `studio-preview-${id}`;
    window.open("about:blank", name);
    previewForm.target = name;
    void flush().finally(() => previewForm.submit());
  });

  // Ctrl+S (Cmd+S) saves now.
  document.addEventListener("keydown", (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || event.key.toLowerCase() !== "s") return;
    event.preventDefault();
    if (id) void flush();
    else if (saveButton) form.requestSubmit(saveButton);
  });

  // Leaving with changes the server does not have yet.
  window.addEventListener("beforeunload", (event) => {
    if (!dirty() || leaving) return;
    writeCopyLater.flush();
    event.preventDefault();
    event.returnValue = "";
  });

  // ---- The copy offered back on opening. A refused save's text is kept in this browser at once
  // (the copy written before it was sent matched it and has just been let go), so closing the tab
  // without a word loses nothing.
  if (store) offerCopy(store);
  if (dirty()) writeCopyNow();

  function offerCopy(store: Storage) {
    sweepCopies(store, Date.now());
    const current = values();
    const same = (found: FoundCopy) => changedFields(found.copy.values, current, fields.names).length === 0;
    // The new article this page shows was made from the copy of "New article": it has done its work.
    if (id && new URLSearchParams(window.location.search).get("notice") === fields.created) {
      for (const found of copiesOf(store, kind, NEW_ITEM)) if (same(found)) store.removeItem(found.key);
    }
    const copies = copiesOf(store, kind, itemId).filter((found) => {
      if (!same(found)) return true;
      store.removeItem(found.key);
      return false;
    });
    const newest = copies[0];
    const offer = document.querySelector<HTMLElement>("[data-studio-copy-offer]");
    if (!newest || !offer) return;
    const older = id !== null && newest.baseRevisionId !== base();
    const heading = element("h2", {
      className: "text-lg font-semibold text-amber-950",
      text: "Your browser kept changes you had not saved",
    });
    heading.id = "copy-offer-heading";
    const parts: Node[] = [
      heading,
      element("p", {
        className: "mt-1 text-sm",
        text: `Kept ${indiaDateTimeText(new Date(newest.copy.savedAt))}. ${describeDifference(newest.copy.values, current, fields.labels)}`,
      }),
    ];
    if (older) {
      const based = newest.copy.baseNumber ? `revision ${newest.copy.baseNumber}` : "an older revision";
      const now = headNumber ? `revision ${headNumber} is by ${headBy}` : "someone has saved since";
      parts.push(
        element("p", {
          className: "mt-1 text-sm",
          text: `They are based on ${based}; ${now}. The kept text is below; the current text is in the editor. Restoring puts the kept text in the editor, in place of the current one.`,
        }),
      );
      for (const name of changedFields(newest.copy.values, current, fields.names)) {
        parts.push(
          element("h3", {
            className: "mt-3 text-sm font-semibold",
            text: fields.labels[name],
          }),
          element("div", { className: "studio-text", text: newest.copy.values[name] ?? "" }),
        );
      }
    }
    const restore = element("button", { className: "admin-button", text: "Restore your unsaved changes" });
    const discard = element("button", { className: "admin-button-secondary", text: "Discard" });
    restore.type = discard.type = "button";
    parts.push(element("div", { className: "mt-3 flex flex-wrap gap-2" }, restore, discard));
    offer.replaceChildren(...parts);
    offer.setAttribute("role", "region");
    offer.setAttribute("aria-labelledby", heading.id);
    setShown(offer, true);

    const close = () => {
      for (const found of copies) store.removeItem(found.key);
      setShown(offer, false);
      offer.replaceChildren();
      title.focus();
    };
    discard.addEventListener("click", close);
    restore.addEventListener("click", () => {
      for (const name of fields.names) {
        const value = newest.copy.values[name];
        if (value === undefined) continue;
        const input = control(name);
        if (input instanceof HTMLSelectElement && value && ![...input.options].some((option) => option.value === value))
          input.add(new Option(value, value));
        input.value = value;
      }
      following = slugFollows(title.value, slug.value, everPublic);
      showCover();
      close();
      body.dispatchEvent(new Event("input", { bubbles: true }));
    });
  }

  // ---- The rest: toolbar, preview, presence.
  const toolbar = form.querySelector<HTMLElement>("[data-studio-toolbar]");
  // Pictures pasted or dropped into the Body go to the media library, then into the text.
  const pictures = pictureLine(body);
  setupPastePictures(body, pictures);
  // The visual editor ("Write") in front of the textarea, which its toolbar's "Markdown" shows
  // again (decision 056); where the page has no toolbar (a trashed article), the textarea alone.
  const visual = toolbar && !body.disabled ? setupVisualEditor({ textarea: body, toolbar, pictures }) : undefined;
  if (visual) focusBody = () => visual.focusTarget().focus();
  const bodyRoot = form.querySelector<HTMLElement>("[data-studio-body]");
  if (bodyRoot) setupLivePreview(bodyRoot, body, limit, visual);
  const presence = document.querySelector<HTMLElement>("[data-studio-presence]");
  if (id && presence)
    setupPresence(adminHref(kind === "article" ? "articlePresence" : "projectPresence", { id }), presence);

  // Back from Save draft or Publish: where the writer was, not the top of the page; what the
  // top's notice says is said beside the Body too, when the notice is out of sight.
  const notice = document.querySelector<HTMLElement>("main [role=status]:not([data-studio-presence])");
  if (returnToScroll(kind) && notice?.textContent?.trim() && notice.getBoundingClientRect().bottom < 0)
    say(notice.textContent.trim());

  // Share preview in place, and its Copy button.
  setupShareLink();

  form.dataset.studioReady = "true";
}

const SCROLL_KEY = "studio-scroll";
const SCROLL_FRESH_MS = 60_000;

/** Notes where the page is scrolled as the editor's form is sent (this tab only). */
function keepScroll(kind: string) {
  try {
    window.sessionStorage.setItem(SCROLL_KEY, JSON.stringify({ kind, y: Math.round(window.scrollY), at: Date.now() }));
  } catch {
    // No storage: the page opens at the top, as without JavaScript.
  }
}

/** Scrolls back to where the form was sent from, when this page is its answer (a notice); true if it did. */
function returnToScroll(kind: string): boolean {
  let kept: { kind?: unknown; y?: unknown; at?: unknown } | undefined;
  try {
    kept = JSON.parse(window.sessionStorage.getItem(SCROLL_KEY) ?? "null") as typeof kept;
    window.sessionStorage.removeItem(SCROLL_KEY);
  } catch {
    return false;
  }
  if (!kept || kept.kind !== kind || typeof kept.y !== "number" || typeof kept.at !== "number") return false;
  if (Date.now() - kept.at > SCROLL_FRESH_MS || !new URLSearchParams(window.location.search).has("notice"))
    return false;
  window.scrollTo({ top: kept.y });
  return true;
}
