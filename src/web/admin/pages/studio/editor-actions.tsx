import type { ShareLinkView, StudioEditorCommon } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { formatIndiaDateTime } from "../../format.ts";
import type { StudioPageKind } from "./kinds.ts";

// The editor's small forms, each posting on its own beside the item's form: Preview, Share
// preview and the share links, Unpublish and Move to trash, Restore from the trash. Those that
// change the item carry the revision shown (the script keeps it current after an autosave). The
// same for articles and projects, each posting to its own routes.

type Props = { kind: StudioPageKind; editor: StudioEditorCommon; id: string };

/** The revision the page shows, which a change is based on. */
function Base({ editor }: { editor: StudioEditorCommon }) {
  return editor.head ? <input type="hidden" name="baseRevisionId" value={editor.head.id} data-studio-base /> : null;
}

const linkStates: Record<ShareLinkView["state"], string> = {
  active: "Active",
  expired: "Expired",
  revoked: "Revoked",
};

export function PreviewAndShare({ kind, editor, id }: Props) {
  const links = editor.shareLinks;
  return (
    <section aria-labelledby="share-heading" className="admin-card" data-studio-share>
      <h2 id="share-heading" className="text-lg font-semibold text-navy-900">
        Preview and share
      </h2>
      <div className="mt-3 flex flex-wrap gap-2">
        <form
          method="post"
          action={adminHref(kind.routes.previewLink, { id })}
          target="_blank"
          data-studio-preview-form
        >
          <button type="submit" className="admin-button-secondary" aria-describedby="preview-hint">
            Preview
          </button>
        </form>
        <form method="post" action={adminHref(kind.routes.shareLink, { id })} data-studio-share-form>
          <input type="hidden" name="requestKey" value={editor.shareRequestKey} />
          <button type="submit" className="admin-button-secondary" aria-describedby="share-hint">
            Share preview
          </button>
        </form>
      </div>
      <IssuedShareLink editor={editor} />
      <p id="preview-hint" className="mt-2 text-xs text-slate-600">
        Preview opens the saved draft in a new tab, as the {kind.noun} page will show it, for an hour.
      </p>
      <p id="share-hint" className="mt-1 text-xs text-slate-600">
        Share preview makes a link for someone without an account: it shows the draft as it is when opened, for 7 days,
        until revoked.
      </p>
      {links.length ? (
        <>
          <h3 className="mt-4 text-sm font-semibold text-slate-800">Share links</h3>
          <ul className="mt-2 grid gap-2 text-sm" aria-label="Share links">
            {links.map((link) => (
              <li key={link.id} className="flex flex-wrap items-center justify-between gap-2 border-t pt-2">
                <span>
                  <span className="font-medium">{linkStates[link.state]}</span>: made by {link.createdBy},{" "}
                  {formatIndiaDateTime(link.createdAt)}; {link.state === "expired" ? "expired" : "expires"}{" "}
                  {formatIndiaDateTime(link.expiresAt)}
                </span>
                {link.state === "active" && link.mayRevoke ? (
                  <form
                    method="post"
                    action={adminHref(kind.routes.shareLinkRevoke, { id, linkId: link.id })}
                    data-confirm="Revoke this share link? Whoever has it can no longer open the draft."
                  >
                    <button type="submit" className="admin-button-danger">
                      Revoke
                      <span className="sr-only">
                        {" "}
                        the link made by {link.createdBy} on {formatIndiaDateTime(link.createdAt)}
                      </span>
                    </button>
                  </form>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/**
 * The share link Share preview just made, where the button is (the page's address ends in
 * #share-link): to copy, with a Copy button the script shows (src/web/admin/studio/share-link.ts);
 * or, when this browser no longer holds it, what to do instead.
 */
function IssuedShareLink({ editor }: { editor: StudioEditorCommon }) {
  if (editor.issuedShareLink)
    return (
      <div
        id="share-link"
        tabIndex={-1}
        className="mt-3 rounded-md border border-green-300 bg-green-50 p-3"
        data-studio-issued-link
      >
        <label htmlFor="issued-share-link" className="admin-label text-green-900">
          Share link: copy it now
        </label>
        <div className="mt-1 flex flex-wrap gap-2">
          <input
            id="issued-share-link"
            type="text"
            readOnly
            value={editor.issuedShareLink}
            aria-describedby="issued-share-link-hint"
            className="admin-input min-w-0 flex-1 font-mono"
            data-select-on-focus
          />
          <button type="button" className="admin-button hidden" data-studio-copy="issued-share-link">
            Copy
          </button>
        </div>
        <p id="issued-share-link-hint" className="mt-1 text-xs text-green-900">
          Shown here for 10 minutes, in this browser only; the list below keeps it without its address.
        </p>
        <p className="mt-1 min-h-5 text-sm font-medium text-green-900" aria-live="polite" data-studio-copy-status />
      </div>
    );
  if (editor.shareLinkGone)
    return (
      <p
        id="share-link"
        tabIndex={-1}
        className="mt-3 rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950"
        data-studio-issued-link
      >
        That share link is no longer shown here: its address is shown for 10 minutes, in the browser that made it. If it
        was not copied, revoke it below and make a new one.
      </p>
    );
  return null;
}

/** Unpublish and Move to trash, for those who may publish. */
export function TakeDown({ kind, editor, id }: Props) {
  const isPublic = editor.status === "published" || editor.status === "scheduled";
  return (
    <section aria-labelledby="take-down-heading" className="admin-card">
      <h2 id="take-down-heading" className="text-lg font-semibold text-navy-900">
        Take down
      </h2>
      <div className="mt-3 flex flex-wrap gap-2">
        {isPublic ? (
          <form
            method="post"
            action={adminHref(kind.routes.unpublish, { id })}
            data-confirm={
              editor.status === "scheduled"
                ? `Unpublish this ${kind.noun}? It will not go public at its publish date.`
                : `Unpublish this ${kind.noun}? It leaves the site at once; its address answers “not found”.`
            }
          >
            <Base editor={editor} />
            <button type="submit" className="admin-button-danger">
              Unpublish
            </button>
          </form>
        ) : null}
        <form
          method="post"
          action={adminHref(kind.routes.trash, { id })}
          data-confirm={`Move this ${kind.noun} to the trash? It leaves the site, and ${kind.trashRestorable}.`}
        >
          <Base editor={editor} />
          <button type="submit" className="admin-button-danger">
            Move to trash
          </button>
        </form>
      </div>
      <p className="mt-2 text-xs text-slate-600">
        {isPublic ? `Unpublish keeps the ${kind.noun} as it is, off the site. ` : ""}The trash keeps it, and its
        history, {kind.trashKeeps}.
      </p>
    </section>
  );
}

/** A trashed item: when, and "Restore" for those who may. */
export function TrashNotice({ kind, editor, id }: Props) {
  return (
    <section
      aria-labelledby="trash-heading"
      className="admin-card mb-4 border-red-300 bg-red-50"
      data-studio-trash-notice
    >
      <h2 id="trash-heading" className="text-lg font-semibold text-red-900">
        In the trash{editor.trashedAt ? ` since ${formatIndiaDateTime(editor.trashedAt)}` : ""}
      </h2>
      <p className="mt-1 text-sm text-red-900">
        It is not on the site and cannot be edited. Restoring it makes it a draft again.
      </p>
      {editor.canPublish ? (
        <form method="post" action={adminHref(kind.routes.untrash, { id })} className="mt-3">
          <Base editor={editor} />
          <button type="submit" className="admin-button">
            Restore
          </button>
        </form>
      ) : (
        <p className="mt-2 text-sm text-red-900">Ask an admin, or someone who can publish, to restore it.</p>
      )}
    </section>
  );
}
