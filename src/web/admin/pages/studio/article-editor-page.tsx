import type { ReactNode } from "react";
import type { AdminPagePropsOf, ArticleEditorView } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { CONTENT_LIMITS } from "#shared/content/documents.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { presenceText } from "../../studio/words.ts";
import { Field, SelectField } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import {
  ARTICLE_FIELD_LABELS,
  ARTICLE_FIELD_NAMES,
  type ArticleFieldName,
  fieldId,
  formValuesOf,
} from "./article-fields.ts";
import { ConflictPanel } from "./conflict-panel.tsx";
import { EditorBody } from "./editor-body.tsx";
import { PreviewAndShare, TakeDown, TrashNotice } from "./editor-actions.tsx";
import { revisionLine } from "./revision-text.ts";
import { StatusBadge } from "./status-badge.tsx";

// The editor of one article (decision 038): one form whose fields are exactly those of
// articleFields (src/shared/admin/schemas.ts) and the revision they are based on. Without
// JavaScript every button is a plain post; the script (src/web/admin/studio/editor.ts) adds the
// toolbar, the live preview, autosave, the browser's copy and presence.

type Props = AdminPagePropsOf<"article-editor">;

/** A select's options, keeping a value that is not among them (so a refused form shows what was sent). */
function withValue(options: { value: string; label: string }[], value: string) {
  return value && !options.some((option) => option.value === value) ? [...options, { value, label: value }] : options;
}

/** Where the article stands for visitors, in a line. */
function PublicState({ editor }: { editor: ArticleEditorView }) {
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

/** The publish checklist: what blocks publishing, at its field, and the links to pages that do not exist. */
function Checklist({ editor }: { editor: ArticleEditorView }) {
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
          <h4 className="mt-2 text-sm font-semibold text-slate-800">Links to check (in the saved text)</h4>
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

export function ArticleEditorPage(props: Props) {
  const { viewer, editor, notice, error, form } = props;
  const { id } = editor;
  const trashed = editor.status === "trash";
  const values = { ...formValuesOf(editor.document), ...pick(form?.values) };
  const wholeFormProblems = Object.entries(form?.errors ?? {}).filter(
    ([field, message]) => message && !ARTICLE_FIELD_NAMES.includes(field as ArticleFieldName),
  );
  const presence = presenceText(editor.presence);
  const common = (name: ArticleFieldName) => ({
    id: fieldId(name),
    name,
    label: ARTICLE_FIELD_LABELS[name],
    form,
    defaultValue: values[name],
  });
  const publishable = id !== null && editor.canPublish && !trashed;
  return (
    <AdminLayout viewer={viewer} current="articles">
      <p className="text-sm">
        <a href={adminHref("articles")} className="admin-link">
          Articles
        </a>
      </p>
      <div className="mt-2">
        <PageHeader
          title={id === null ? "New article" : editor.document.title || "Untitled article"}
          meta={<StatusBadge status={editor.status} />}
          actions={
            id === null ? null : (
              <a href={adminHref("articleHistory", { id })} className="admin-button-secondary">
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
      {wholeFormProblems.length ? (
        <div role="alert" className="mb-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
          {wholeFormProblems.map(([field, message]) => (
            <p key={field}>{message}</p>
          ))}
        </div>
      ) : null}
      {id !== null && trashed ? <TrashNotice editor={editor} id={id} /> : null}
      {editor.conflict ? <ConflictPanel editor={editor} mine={values} base={form?.values.baseRevisionId} /> : null}
      <div className="admin-card mb-4 hidden border-amber-400 bg-amber-50" data-studio-copy-offer />

      <EditorForm
        editor={editor}
        id="article-form"
        aria-label={id === null ? "New article" : "Article"}
        data-article-id={id ?? undefined}
        data-body-limit={editor.bodyLimit}
        data-head-number={editor.head?.number}
        data-head-by={editor.head?.by}
        data-ever-public={editor.publishedRevision || editor.publishedAt ? "true" : undefined}
      >
        {editor.head ? <input type="hidden" name="baseRevisionId" value={editor.head.id} data-studio-base /> : null}
        <fieldset disabled={trashed} className="grid min-w-0 gap-4">
          <legend className="sr-only">The article</legend>
          <section aria-labelledby="fields-heading" className="admin-card grid gap-4 sm:grid-cols-2">
            <h2 id="fields-heading" className="text-lg font-semibold text-navy-900 sm:col-span-2">
              The article
            </h2>
            <Field
              {...common("title")}
              type="text"
              required
              maxLength={CONTENT_LIMITS.title}
              className="sm:col-span-2"
            />
            <Field
              {...common("slug")}
              type="text"
              maxLength={CONTENT_LIMITS.slug}
              autoComplete="off"
              spellCheck={false}
              className="sm:col-span-2"
              hint={
                editor.publishedRevision
                  ? "Its address: /blog/<slug>. Changing it moves the article when published; the old address then leads to the new one."
                  : "Its address: /blog/<slug>, lower-case words joined by hyphens. It follows the title until you change it."
              }
            />
            <Field
              {...common("excerpt")}
              rows={3}
              maxLength={CONTENT_LIMITS.excerpt}
              className="sm:col-span-2"
              hint="The summary on /blog, in search results and when shared."
            />
            <div>
              <Field
                {...common("category")}
                type="text"
                maxLength={CONTENT_LIMITS.category}
                list="article-categories"
                autoComplete="off"
                hint="Choose one in use, or write a new one."
              />
              <datalist id="article-categories">
                {editor.categories.map((category) => (
                  <option key={category} value={category} />
                ))}
              </datalist>
            </div>
            <SelectField
              {...common("author")}
              options={withValue(
                [
                  { value: "", label: "None" },
                  ...editor.authors.map((author) => ({ value: author.slug, label: author.name })),
                ],
                values.author,
              )}
            />
            <SelectField
              {...common("imageUrl")}
              options={withValue(
                [
                  { value: "", label: "None" },
                  ...editor.images.map((image) => ({ value: image.url, label: image.label })),
                ],
                values.imageUrl,
              )}
            >
              <img
                src={values.imageUrl || undefined}
                alt=""
                width={160}
                height={90}
                loading="lazy"
                className={`mt-2 aspect-video w-40 rounded border border-slate-200 bg-slate-100 object-cover ${values.imageUrl ? "" : "hidden"}`}
                data-studio-cover
              />
            </SelectField>
            <Field
              {...common("imageAlt")}
              type="text"
              maxLength={CONTENT_LIMITS.imageAlt}
              hint="What the cover shows, for those who cannot see it."
            />
          </section>

          <section aria-labelledby="body-heading" className="admin-card">
            <h2 id="body-heading" className="sr-only">
              The text
            </h2>
            <EditorBody form={form} value={values.body} disabled={trashed} />
          </section>

          <section aria-labelledby="publish-heading" className="admin-card">
            <h2 id="publish-heading" className="text-lg font-semibold text-navy-900">
              Save and publish
            </h2>
            <div className="mt-1">
              <PublicState editor={editor} />
            </div>
            <Field
              {...common("publishedAt")}
              type="datetime-local"
              className="mt-4 max-w-xs"
              hint="India time (IST). Schedule makes the article public at this time; Publish puts it on the site now."
            />
            {id === null ? null : <Checklist editor={editor} />}
            {trashed ? null : (
              <div className="mt-4 flex flex-wrap items-center gap-2">
                <button type="submit" className="admin-button" data-studio-save>
                  Save draft
                </button>
                {publishable ? (
                  <>
                    <button
                      type="submit"
                      formAction={adminHref("articlePublish", { id })}
                      name="when"
                      value="now"
                      className="admin-button"
                    >
                      Publish
                    </button>
                    {editor.status === "published" ? null : (
                      <button
                        type="submit"
                        formAction={adminHref("articlePublish", { id })}
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
          <PreviewAndShare editor={editor} id={id} />
          {editor.canPublish ? <TakeDown editor={editor} id={id} /> : null}
        </div>
      ) : null}
    </AdminLayout>
  );
}

/**
 * The article's form, posting to create or save; a trashed article's fields are shown in a plain
 * block instead, since nothing can be sent from them.
 */
function EditorForm({
  editor,
  children,
  ...attributes
}: {
  editor: ArticleEditorView;
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
      action={editor.id === null ? adminHref("articleCreate") : adminHref("articleSave", { id: editor.id })}
      data-studio-editor="article"
      {...attributes}
    >
      {children}
    </form>
  );
}

/** The article's fields of a refused form's values (everything else it sent is left out). */
function pick(values: Record<string, string> | undefined): Partial<Record<ArticleFieldName, string>> {
  if (!values) return {};
  return Object.fromEntries(
    ARTICLE_FIELD_NAMES.filter((name) => values[name] !== undefined).map((name) => [name, values[name]!]),
  );
}
