import type { FormState } from "#shared/admin/forms.ts";
import { CONTENT_LIMITS } from "#shared/content/documents.ts";
import { keyShortcuts, TOOLS } from "../../studio/markdown-tools.ts";
import { controlState } from "../../ui/field.tsx";
import { SaveStatus } from "./editor-frame.tsx";

// The Body field: a Markdown textarea that works as it is without JavaScript. The editor's script
// (src/web/admin/studio/) shows the toolbar, puts the visual editor ("Write", decision 056) in
// front of the textarea (which its "Markdown" toggle shows again), and shows the live preview
// beside the text from 1024 px wide, or behind a "Write" / "Preview" tab pair below that; all are
// hidden until it does.

/** The Write view's table tools, shown while the caret is in a table. */
const TABLE_TOOLS = [
  { name: "row-add", label: "Add row" },
  { name: "row-remove", label: "Remove row" },
  { name: "column-add", label: "Add column" },
  { name: "column-remove", label: "Remove column" },
  { name: "table-remove", label: "Remove table" },
] as const;

export function EditorBody({ form, value, disabled }: { form?: FormState; value: string; disabled: boolean }) {
  const hint = (
    <>
      Markdown: <code>## Heading</code>, <code>**bold**</code>, <code>_italic_</code>, <code>[words](/contact)</code>,{" "}
      <code>- list</code>, tables. Pictures: the Picture button, or paste or drop one here. At most{" "}
      {CONTENT_LIMITS.body.toLocaleString("en-IN")} characters.
    </>
  );
  const state = controlState({ id: "article-body", name: "body", label: "Body", hint, form, defaultValue: value });
  return (
    <div data-studio-body>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <label htmlFor="article-body" className="admin-label">
          Body
        </label>
        <div role="tablist" aria-label="Body" className="studio-tabs hidden" data-studio-tabs>
          <button type="button" role="tab" id="body-tab-write" aria-controls="body-write" data-studio-tab="write">
            Write
          </button>
          <button type="button" role="tab" id="body-tab-preview" aria-controls="body-preview" data-studio-tab="preview">
            Preview
          </button>
        </div>
      </div>
      {disabled ? null : (
        <noscript>
          <p className="mb-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
            JavaScript is off: nothing is saved until you press Save draft, and Preview shows the last saved draft.
          </p>
        </noscript>
      )}
      {/* What autosave says (the script writes here): where the writer is looking. */}
      <SaveStatus />
      <div className="studio-panes" data-studio-panes>
        <div id="body-write" className="min-w-0" data-studio-pane="write">
          {disabled ? null : (
            <div
              role="toolbar"
              aria-label="Formatting"
              aria-controls="article-body"
              className="studio-toolbar hidden"
              data-studio-toolbar
            >
              {TOOLS.map((tool, index) => (
                <button
                  key={tool.name}
                  type="button"
                  tabIndex={index === 0 ? 0 : -1}
                  aria-label={tool.label}
                  title={tool.key ? `${tool.label} (Ctrl+${tool.key})` : tool.label}
                  aria-keyshortcuts={tool.key ? keyShortcuts(tool.key) : undefined}
                  data-tool={tool.name}
                  className={`studio-tool ${tool.name === "bold" ? "font-bold" : tool.name === "italic" ? "italic" : ""}`}
                >
                  <span aria-hidden="true">{tool.text}</span>
                </button>
              ))}
              {/* The Write view's own: a table's rows and columns, shown while the caret is in one. */}
              {TABLE_TOOLS.map((tool) => (
                <button
                  key={tool.name}
                  type="button"
                  tabIndex={-1}
                  data-tool={tool.name}
                  className="studio-tool hidden"
                >
                  {tool.label}
                </button>
              ))}
              <button type="button" tabIndex={-1} data-tool="picture" className="studio-tool">
                Picture
              </button>
              {/* Write (the article as it reads) or the Markdown source: a toggle, pressed in Markdown. */}
              <button
                type="button"
                tabIndex={-1}
                aria-pressed="false"
                data-tool="markdown-view"
                className="studio-tool studio-view-toggle"
              >
                Markdown
              </button>
            </div>
          )}
          <textarea
            {...state.attributes}
            className={`${state.attributes.className} studio-textarea`}
            rows={24}
            maxLength={CONTENT_LIMITS.body}
            spellCheck
            defaultValue={state.value}
          />
          <p id={state.hintId} className="mt-1 text-xs text-slate-600">
            {hint}
          </p>
          {state.error ? (
            <p id={state.errorId} className="mt-1 text-sm font-medium text-red-700">
              {state.error}
            </p>
          ) : null}
        </div>
        <section
          id="body-preview"
          aria-label="Preview of the body"
          className="studio-preview-pane hidden min-w-0"
          data-studio-pane="preview"
        >
          <p className="text-xs text-slate-600" data-studio-preview-status>
            The preview appears here as visitors will read it.
          </p>
          <div className="article-body studio-preview" data-studio-preview />
        </section>
      </div>
    </div>
  );
}
