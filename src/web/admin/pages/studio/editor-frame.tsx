import type { ReactNode } from "react";
import type { FormState } from "#shared/admin/forms.ts";
import type { AdminViewer, RevisionView, StudioEditorCommon } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import type { ChecklistItem } from "#shared/content/documents.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { presenceText } from "../../studio/words.ts";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { ConflictPanel } from "./conflict-panel.tsx";
import { PreviewAndShare, TakeDown, TrashNotice } from "./editor-actions.tsx";
import type { StudioPageKind } from "./kinds.ts";
import { revisionLine } from "./revision-text.ts";
import { StatusBadge } from "./status-badge.tsx";

// The editor of one item, an article or a project (decision 038; 042): everything but the kind's
// own fields, which the kind's page gives as children. One form whose fields are exactly the
// kind's schema's and the revision they are based on; without JavaScript every button is a plain
// post, and the script (src/web/admin/studio/editor.ts) adds autosave, the browser's copy,
// presence and the checklist as one types (and, for an article, the toolbar and live preview).

export type EditorFrameProps = {
  kind: StudioPageKind;
  viewer: AdminViewer;
  editor: StudioEditorCommon & {
    document: { title: string; excerpt?: string; description?: string };
    checklist: { blockers: ChecklistItem<string>[]; warnings: string[] };
    /** A save refused because someone saved first: their revision and its document. */
    conflict?: { current: RevisionView; currentDocument: object; yours?: boolean };
  };
  notice?: string;
  error?: string;
  form?: FormState;
  /** The names of the form's fields: a refused form's problem at another name is the whole form's. */
  fieldNames: readonly string[];
  fieldId: (name: string) => string;
  /** The fields' labels, and the values the form shows (what was typed, after a refusal). */
  labels: Readonly<Record<string, string>>;
  values: Readonly<Record<string, string>>;
  /** A stored document as the form would show it, and a value as people read it (a picture by its name). */
  formValuesOf: (document: never) => Readonly<Record<string, string>>;
  readable: (name: string, value: string) => string;
  /** The Publish date field, in the "Save and publish" section. */
  dateField: ReactNode;
  /** The heading of the checklist's warnings. */
  warningsHeading: string;
  /** The kind's fields, in sections, inside the form's fieldset. */
  children: ReactNode;
};

/** Where the item stands for visitors, in a line. */
function PublicState({ editor }: { editor: StudioEditorCommon }) {
  const { status, publicPath, publishedAt, publishedRevision, head } = editor;
  const pending =
    publishedRevision && head && publishedRevision.id !== head.id && (status === "published" || status === "scheduled")
      ? ` Visitors read revision ${publishedRevision.number}; the draft has changes not yet published.`
      : "";
  if (status === "published" && publicPath) {
    return (
      <p className="text-sm text-slate-700" data-studio-public-state>
        On the site at{" "}
        <a href={publicPath} className="admin-link">
          {publicPath}
        </a>
        {publishedAt ? ` since ${formatIndiaDateTime(publishedAt)}` : ""}.{pending}
      </p>
    );
  }
  if (status === "scheduled" && publishedAt) {
    return (
      <p className="text-sm text-slate-700" data-studio-public-state>
        Goes public {formatIndiaDateTime(publishedAt)}.{pending}
      </p>
    );
  }
  return (
    <p className="text-sm text-slate-700" data-studio-public-state>
      {status === "unpublished" ? "Unpublished: not on the site." : "Not on the site."}
    </p>
  );
}

/** The publish checklist: what blocks publishing, at its field, and what is worth a second look. */
function Checklist({
  editor,
  fieldId,
  warningsHeading,
}: Pick<EditorFrameProps, "editor" | "fieldId" | "warningsHeading">) {
  const { blockers, warnings } = editor.checklist;
  return (
    <div className="mt-4" data-studio-checklist>
      <h3 className="text-sm font-semibold text-slate-800">Before publishing</h3>
      <ul className="mt-1 grid gap-1 text-sm" data-studio-blockers>
        {blockers.length ? (
          blockers.map((item) => (
            <li key={`${item.field}:${item.message}`} className="text-red-800">
              <span aria-hidden="true">✗ </span>
              <a href={`#${fieldId(item.field)}`} className="underline underline-offset-2">
                {item.message}
              </a>
            </li>
          ))
        ) : (
          <li className="text-green-900">
            <span aria-hidden="true">✓ </span>Nothing is missing.
          </li>
        )}
      </ul>
      {warnings.length ? (
        <>
          <h4 className="mt-2 text-sm font-semibold text-slate-800">{warningsHeading}</h4>
          <ul className="mt-1 grid gap-1 text-sm text-amber-900" data-studio-warnings>
            {warnings.map((warning) => (
              <li key={warning}>
                <span aria-hidden="true">! </span>
                {warning}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

/**
 * The draft's link-preview card as LinkedIn and WhatsApp will show it once published: the card the
 * public page will name (drawn by the server from the last saved draft, behind the back office's
 * door), with the words those apps set under or beside it.
 */
function LinkPreview({ kind, editor, id }: { kind: StudioPageKind; editor: EditorFrameProps["editor"]; id: string }) {
  const title = editor.document.title || kind.untitled;
  const words = (editor.document.excerpt ?? editor.document.description ?? "").slice(0, 160);
  // The head revision in the address: a new save shows its own card, not the browser's last one.
  const src = `${adminHref(kind.routes.card, { id })}?revision=${editor.head?.id ?? 0}`;
  const alt = `The link-preview card of this ${kind.noun}: ${title}`;
  return (
    <div className="mt-4" data-studio-link-preview>
      <h3 className="text-sm font-semibold text-slate-800">When the link is shared</h3>
      <p className="mt-1 text-xs text-slate-600">
        The card LinkedIn and WhatsApp will show, from the last saved draft (1200 × 627 JPEG).
      </p>
      <div className="mt-2 grid gap-4 md:grid-cols-2">
        <figure className="overflow-hidden rounded-md border border-slate-300 bg-white shadow-sm">
          <img src={src} alt={alt} width={1200} height={627} className="block h-auto w-full" />
          <figcaption className="border-t border-slate-200 px-3 py-2">
            <span className="block text-sm font-semibold text-slate-900">{title}</span>
            <span className="block text-xs text-slate-600">LinkedIn</span>
          </figcaption>
        </figure>
        <figure className="rounded-lg bg-[#d9fdd3] p-1.5 shadow-sm">
          <div className="overflow-hidden rounded-md bg-[#f0f2f5]">
            <img src={src} alt="" width={1200} height={627} className="block h-auto w-full" />
            <div className="px-2 py-1.5">
              <span className="block text-sm font-semibold text-slate-900">{title}</span>
              {words ? <span className="block text-xs text-slate-700">{words}</span> : null}
            </div>
          </div>
          <figcaption className="px-1 pt-1 text-xs text-slate-700">WhatsApp</figcaption>
        </figure>
      </div>
    </div>
  );
}

/**
 * After a restore: the restored text is the draft, and what visitors read is not it. Publish is
 * right here (a button of the editor's form, so it publishes what the form holds, as the one at
 * the foot does) for those who may.
 */
function RestoreOffer({ kind, editor, id }: { kind: StudioPageKind; editor: StudioEditorCommon; id: string }) {
  const { restoredFrom, live } = editor.restoreOffer!;
  const restored = `Restored revision ${restoredFrom} as the draft.`;
  let text: string;
  if (live !== null && editor.status === "published")
    text = `${restored} The live page still shows revision ${live}: press Publish to make this version live.`;
  else if (live !== null)
    text = `${restored} Revision ${live} is still the one scheduled to go public: press Publish to make this version live now instead.`;
  else if (editor.status === "published") text = `${restored} It is the version the live page shows already.`;
  else
    text = `${restored} The ${kind.noun} is not on the site: the restored text is the draft, and stays a draft until it is published.`;
  const offer = live !== null;
  return (
    <div
      className="admin-card mb-4 flex flex-wrap items-center gap-3 border-amber-400 bg-amber-50"
      data-studio-restore-offer
    >
      <p className="min-w-0 flex-1 text-sm text-amber-950">{text}</p>
      {offer && editor.canPublish ? (
        <button
          type="submit"
          form={`${kind.kind}-form`}
          formAction={adminHref(kind.routes.publish, { id })}
          name="when"
          value="now"
          className="admin-button"
        >
          Publish
        </button>
      ) : offer ? (
        <p className="text-sm text-amber-950">Ask an admin, or someone who can publish, to publish it.</p>
      ) : null}
    </div>
  );
}

/** What the problems at the top of the editor stopped, in a line above them. */
const PROBLEMS_HEADINGS: Record<NonNullable<StudioEditorCommon["refused"]>, string> = {
  save: "Not saved. Put these right, then save again:",
  publish: "Not published. Your text is saved as a draft; put these right, then publish again:",
  "publish-unsaved": "Not saved or published. Put these right, then publish again:",
};

/**
 * A refused post's problems, every one, at the top of the page where the person lands (the first
 * may be far down on a phone), each a link to its field; focus starts on the first, so the
 * keyboard and a screen reader begin there too.
 */
function Problems({ heading, problems }: { heading: string; problems: { message: string; href?: string }[] }) {
  return (
    <div
      role="alert"
      className="mb-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900"
      data-studio-problems
    >
      <p className="font-semibold">{heading}</p>
      <ul className="mt-1 grid gap-1">
        {problems.map(({ message, href }, index) => (
          <li key={`${index}-${message}`}>
            {href ? (
              <a href={href} className="underline underline-offset-2" autoFocus={index === 0 ? true : undefined}>
                {message}
              </a>
            ) : (
              <span tabIndex={index === 0 ? -1 : undefined} autoFocus={index === 0 ? true : undefined}>
                {message}
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function EditorFrame(props: EditorFrameProps) {
  const { kind, viewer, editor, notice, error, form, fieldNames, fieldId, children } = props;
  const { id } = editor;
  const trashed = editor.status === "trash";
  const problems = Object.entries(form?.errors ?? {}).filter((entry): entry is [string, string] => Boolean(entry[1]));
  const presence = presenceText(editor.presence);
  // The revision the refused text was based on, as the refused form said.
  const base = form?.values.baseRevisionId;
  const publishable = id !== null && editor.canPublish && !trashed;
  const newTitle = `New ${kind.noun}`;
  return (
    <AdminLayout viewer={viewer} current={kind.routes.list}>
      <p className="text-sm">
        <a href={adminHref(kind.routes.list)} className="admin-link">
          {kind.plural}
        </a>
      </p>
      <div className="mt-2">
        <PageHeader
          title={id === null ? newTitle : editor.document.title || kind.untitled}
          meta={<StatusBadge status={editor.status} />}
          actions={
            id === null ? null : (
              <a href={adminHref(kind.routes.history, { id })} className="admin-button-secondary">
                History
              </a>
            )
          }
          description={editor.head ? revisionLine(editor.head) : "Not saved yet."}
        />
      </div>
      <p
        role="status"
        className={`mt-2 text-sm font-medium text-amber-900 ${presence ? "" : "hidden"}`}
        data-studio-presence
      >
        {presence}
      </p>
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      {problems.length ? (
        <Problems
          heading={PROBLEMS_HEADINGS[editor.refused ?? "save"]}
          problems={problems.map(([field, message]) => ({
            message,
            href: fieldNames.includes(field) ? `#${fieldId(field)}` : undefined,
          }))}
        />
      ) : null}
      {id !== null && editor.restoreOffer && !trashed ? <RestoreOffer kind={kind} editor={editor} id={id} /> : null}
      {id !== null && trashed ? <TrashNotice kind={kind} editor={editor} id={id} /> : null}
      {editor.conflict ? (
        <ConflictPanel
          compareHref={
            id && base && base !== String(editor.conflict.current.id)
              ? adminHref(kind.routes.compare, { id }, { from: base, to: editor.conflict.current.id })
              : undefined
          }
          current={editor.conflict.current}
          names={fieldNames}
          labels={props.labels}
          mine={props.values}
          theirs={props.formValuesOf(editor.conflict.currentDocument as never)}
          readable={props.readable}
          yours={editor.conflict.yours}
        />
      ) : null}
      <div className="admin-card mb-4 hidden border-amber-400 bg-amber-50" data-studio-copy-offer />

      <EditorForm
        kind={kind}
        editor={editor}
        id={`${kind.kind}-form`}
        aria-label={id === null ? newTitle : kind.noun.charAt(0).toUpperCase() + kind.noun.slice(1)}
        data-item-id={id ?? undefined}
        data-body-limit={editor.bodyLimit}
        data-head-number={editor.head?.number}
        data-head-by={editor.head?.by}
        data-ever-public={editor.publishedRevision || editor.publishedAt ? "true" : undefined}
        data-unsaved={editor.unsaved ? "true" : undefined}
      >
        {editor.head ? <input type="hidden" name="baseRevisionId" value={editor.head.id} data-studio-base /> : null}
        <fieldset disabled={trashed} className="grid min-w-0 gap-4">
          <legend className="sr-only">The {kind.noun}</legend>
          {children}

          <section aria-labelledby="publish-heading" className="admin-card">
            <h2 id="publish-heading" className="text-lg font-semibold text-navy-900">
              Save and publish
            </h2>
            <div className="mt-1">
              <PublicState editor={editor} />
            </div>
            {props.dateField}
            {id === null ? null : (
              <Checklist editor={editor} fieldId={fieldId} warningsHeading={props.warningsHeading} />
            )}
            {id === null || !editor.head || trashed ? null : <LinkPreview kind={kind} editor={editor} id={id} />}
            {trashed ? null : (
              <div className="mt-4 flex flex-wrap items-center gap-2">
                <button type="submit" className="admin-button" data-studio-save>
                  Save draft
                </button>
                {publishable ? (
                  <>
                    <button
                      type="submit"
                      formAction={adminHref(kind.routes.publish, { id })}
                      name="when"
                      value="now"
                      className="admin-button"
                    >
                      Publish
                    </button>
                    {editor.status === "published" ? null : (
                      <button
                        type="submit"
                        formAction={adminHref(kind.routes.publish, { id })}
                        name="when"
                        value="scheduled"
                        className="admin-button-secondary"
                      >
                        Schedule
                      </button>
                    )}
                  </>
                ) : null}
              </div>
            )}
            {id === null ? (
              <p className="mt-2 text-xs text-slate-600">
                Save the draft first; then you can preview, share and publish it.
              </p>
            ) : !editor.canPublish && !trashed ? (
              <p className="mt-2 text-xs text-slate-600">
                Publishing needs an admin, or someone an admin has allowed to publish: ask them when the draft is ready.
              </p>
            ) : null}
          </section>
        </fieldset>
      </EditorForm>

      {id !== null && !trashed ? (
        <div className="mt-4 grid gap-4 lg:grid-cols-2">
          <PreviewAndShare kind={kind} editor={editor} id={id} />
          {editor.canPublish ? <TakeDown kind={kind} editor={editor} id={id} /> : null}
        </div>
      ) : null}
    </AdminLayout>
  );
}

/**
 * The item's form, posting to create or save; a trashed item's fields are shown in a plain block
 * instead, since nothing can be sent from them.
 */
function EditorForm({
  kind,
  editor,
  children,
  ...attributes
}: {
  kind: StudioPageKind;
  editor: StudioEditorCommon;
  children: ReactNode;
  id: string;
  "aria-label": string;
} & { [data: `data-${string}`]: string | number | undefined }) {
  if (editor.status === "trash") {
    const { "aria-label": _name, ...block } = attributes;
    return <div {...block}>{children}</div>;
  }
  return (
    <form
      method="post"
      action={editor.id === null ? adminHref(kind.routes.create) : adminHref(kind.routes.save, { id: editor.id })}
      data-studio-editor={kind.kind}
      {...attributes}
    >
      {children}
    </form>
  );
}

/** A select's options, keeping a value that is not among them (so a refused form shows what was sent). */
export function withValue(options: { value: string; label: string }[], value: string) {
  return value && !options.some((option) => option.value === value) ? [...options, { value, label: value }] : options;
}

/** The fields of a refused form's values that are the kind's (everything else it sent is left out). */
export function pickFields<Name extends string>(
  names: readonly Name[],
  values: Record<string, string> | undefined,
): Partial<Record<Name, string>> {
  if (!values) return {};
  return Object.fromEntries(
    names.filter((name) => values[name] !== undefined).map((name) => [name, values[name]!]),
  ) as Partial<Record<Name, string>>;
}

/** Where autosave says how it went ("Saved at 14:32") and what went wrong: the editor's script writes here. */
export function SaveStatus() {
  return (
    <>
      <p className="min-h-5 text-sm text-slate-700" aria-live="polite" data-studio-save-status />
      <div
        role="alert"
        className="mb-2 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 empty:hidden"
        data-studio-save-problem
      />
    </>
  );
}
