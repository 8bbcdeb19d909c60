import type { AdminPagePropsOf, NewsletterEditorView, NewsletterFieldsView } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { NEWSLETTER_LIMITS } from "#shared/admin/schemas.ts";
import { formatIndiaDate, formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { Field } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { NEWSLETTER_STATUS_LABELS, NewsletterCounts, NewsletterStatusBadge } from "./newsletter-parts.tsx";

// One newsletter, or a new one (docs/back-office.md, "Newsletters"). A draft: the compose form
// (Subject, Introduction in Markdown, Articles to feature) with "Save draft", "Send test" (to the
// viewer's own address) and "Send to N subscribers" (a question first, for those who may send);
// the mail as it will look, HTML in sandboxed frames (the preview route serves it under a policy
// of its own) and the text part. Once sent: read-only, with the counts of its mail, which a small
// script refreshes every 2 seconds while it is sending (src/web/admin/newsletters/progress.ts);
// without script, the counts are those of the moment the page was made, and "Refresh" reloads.

type Props = AdminPagePropsOf<"newsletter">;

function Conflict({ newsletter }: { newsletter: NewsletterEditorView }) {
  const { by, at, version, fields } = newsletter.conflict!;
  const titles = new Map(newsletter.articles.map((article) => [article.id, article.title]));
  return (
    <section aria-labelledby="conflict-heading" className="admin-card mb-4 border-amber-400 bg-amber-50">
      <h2 id="conflict-heading" className="text-lg font-semibold text-amber-950">
        Changed by {by ?? "someone"} at {formatIndiaDateTime(at)}
      </h2>
      <p className="mt-1 text-sm text-amber-950">
        {by ?? "Someone"} saved version {version} while you were editing, so your change was not saved. Your text is
        kept in the form below; theirs is here. Make the form say what it should, then save again: your save will
        replace version {version}.
      </p>
      <dl className="mt-3 grid gap-2 text-sm">
        <dt className="font-semibold">Their subject</dt>
        <dd data-conflict-theirs="subject">{fields.subject}</dd>
        <dt className="font-semibold">Their introduction</dt>
        <dd className="whitespace-pre-wrap" data-conflict-theirs="introduction">
          {fields.introduction || "(empty)"}
        </dd>
        <dt className="font-semibold">Their articles</dt>
        <dd data-conflict-theirs="articles">
          {fields.articleIds.map((id) => titles.get(id) ?? "(no longer public)").join("; ") || "(none)"}
        </dd>
      </dl>
    </section>
  );
}

function ComposeForm({ newsletter, form }: { newsletter: NewsletterEditorView; form: Props["form"] }) {
  const { id, fields } = newsletter;
  const chosen = new Set(fields.articleIds);
  const articlesError = form?.errors.articleIds;
  const common = (name: keyof NewsletterFieldsView, label: string) => ({
    id: `newsletter-${name}`,
    name,
    label,
    form,
    defaultValue: fields[name] as string,
  });
  return (
    <form
      method="post"
      action={id === null ? adminHref("newsletterCreate") : adminHref("newsletterSave", { id })}
      aria-label={id === null ? "New newsletter" : "Newsletter"}
      className="admin-card grid min-w-0 gap-4"
    >
      {id !== null ? <input type="hidden" name="version" value={newsletter.version} /> : null}
      <Field
        {...common("subject", "Subject")}
        type="text"
        required
        maxLength={NEWSLETTER_LIMITS.subject}
        autoComplete="off"
        hint="The mail's subject line."
      />
      <Field
        {...common("introduction", "Introduction")}
        rows={8}
        maxLength={NEWSLETTER_LIMITS.introduction}
        hint="Markdown: a few lines before the articles. **bold**, *italic*, [a link](https://…), blank lines between paragraphs."
      />
      <fieldset
        className="min-w-0"
        aria-describedby={
          articlesError ? "newsletter-articles-error newsletter-articles-hint" : "newsletter-articles-hint"
        }
      >
        <legend className="admin-label">Articles to feature</legend>
        <p id="newsletter-articles-hint" className="mt-1 text-xs text-slate-600">
          Public articles, newest first; at most {NEWSLETTER_LIMITS.articles}. A new newsletter starts with those
          published since the last one was sent.
        </p>
        {newsletter.articles.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700">No article is public yet.</p>
        ) : (
          <ul className="mt-2 grid gap-1">
            {newsletter.articles.map((article) => (
              <li key={article.id}>
                <label className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    name="articleIds"
                    value={article.id}
                    defaultChecked={chosen.has(article.id)}
                    className="mt-1"
                  />
                  <span>
                    {article.title} <span className="text-slate-600">({formatIndiaDate(article.publishedAt)})</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {articlesError ? (
          <p id="newsletter-articles-error" className="mt-1 text-sm font-medium text-red-700">
            {articlesError}
          </p>
        ) : null}
      </fieldset>
      <div>
        <button type="submit" className="admin-button">
          Save draft
        </button>
      </div>
    </form>
  );
}

/** "Send test" and "Send to N subscribers", each with the reason when it cannot be used. */
function SendActions({ newsletter, id }: { newsletter: NewsletterEditorView; id: string }) {
  const n = newsletter.subscribers;
  const sendLabel = `Send to ${n} ${n === 1 ? "subscriber" : "subscribers"}`;
  const sendBlocked = !newsletter.mailConfigured
    ? "Mail is not configured on this site (SMTP_URL), so nothing can be sent."
    : n === 0
      ? "There are no confirmed subscribers to send to yet."
      : !newsletter.canSend
        ? "Sending needs an admin, or a member of staff an admin has allowed to publish."
        : null;
  return (
    <section aria-labelledby="send-heading" className="admin-card mt-4">
      <h2 id="send-heading" className="text-lg font-semibold text-navy-900">
        Send
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Both send the newsletter as last saved. A test goes to your own address, as often as you like; the newsletter
        goes to each confirmed subscriber once, and can then no longer be changed.
      </p>
      <div className="mt-3 flex flex-wrap items-start gap-2">
        <form method="post" action={adminHref("newsletterTest", { id })}>
          <button
            type="submit"
            className="admin-button-secondary"
            disabled={!newsletter.mailConfigured}
            aria-describedby={!newsletter.mailConfigured ? "send-blocked" : undefined}
          >
            Send test
          </button>
        </form>
        {sendBlocked ? (
          <button type="button" className="admin-button" disabled aria-describedby="send-blocked">
            {sendLabel}
          </button>
        ) : (
          <a href={adminHref("newsletterSendConfirm", { id })} className="admin-button">
            {sendLabel}
          </a>
        )}
      </div>
      {sendBlocked ? (
        <p id="send-blocked" className="mt-2 text-sm text-slate-700">
          {sendBlocked}
        </p>
      ) : null}
    </section>
  );
}

function Progress({ newsletter, id }: { newsletter: NewsletterEditorView; id: string }) {
  const sent = newsletter.sent!;
  return (
    <section
      aria-labelledby="progress-heading"
      className="admin-card mt-4"
      data-newsletter-progress={adminHref("newsletterProgress", { id })}
      data-status={newsletter.status}
    >
      <h2 id="progress-heading" className="text-lg font-semibold text-navy-900">
        Delivery
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Sent {formatIndiaDateTime(sent.at)}
        {sent.by ? ` by ${sent.by}` : ""} to {sent.counts.recipients}{" "}
        {sent.counts.recipients === 1 ? "subscriber" : "subscribers"}.
      </p>
      <div aria-live="polite" className="mt-3">
        <p className="mb-2 text-sm">
          State: <strong data-newsletter-state>{NEWSLETTER_STATUS_LABELS[newsletter.status]}</strong>
        </p>
        <NewsletterCounts counts={sent.counts} />
      </div>
      <p className="mt-2 text-sm">
        <a href={adminHref("newsletter", { id })} className="admin-link" data-newsletter-refresh>
          Refresh
        </a>{" "}
        <span className="text-slate-600">the counts (they follow by themselves while the page is open).</span>
      </p>
    </section>
  );
}

function SentContent({ newsletter }: { newsletter: NewsletterEditorView }) {
  const titles = new Map(newsletter.articles.map((article) => [article.id, article.title]));
  return (
    <section aria-labelledby="content-heading" className="admin-card mt-4">
      <h2 id="content-heading" className="text-lg font-semibold text-navy-900">
        What was sent
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        A sent newsletter can no longer be changed. The preview below is the mail.
      </p>
      <dl className="mt-3 grid gap-1 text-sm">
        <dt className="font-semibold">Subject</dt>
        <dd>{newsletter.fields.subject}</dd>
        <dt className="font-semibold">Articles featured</dt>
        <dd>
          {newsletter.fields.articleIds.map((id) => titles.get(id) ?? "(no longer public)").join("; ") || "(none)"}
        </dd>
      </dl>
    </section>
  );
}

function Preview({ newsletter, id }: { newsletter: NewsletterEditorView; id: string }) {
  const preview = newsletter.preview!;
  const src = adminHref("newsletterPreview", { id });
  return (
    <section aria-labelledby="preview-heading" className="mt-6">
      <h2 id="preview-heading" className="text-lg font-semibold text-navy-900">
        Preview
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        The mail as subscribers will get it{newsletter.status === "draft" ? " (as last saved)" : ""}. Subject:{" "}
        <strong>{preview.subject}</strong>. Its links carry utm_campaign={newsletter.campaign}; the unsubscribe link
        here is a test one.
      </p>
      <div className="mt-3 flex flex-wrap items-start gap-4">
        {/* No allow-scripts: nothing in the mail runs or navigates the back office (the route's own policy says the
            same); allow-same-origin so the site's pictures load (they are same-origin only). */}
        <iframe
          title="HTML preview"
          src={src}
          sandbox="allow-same-origin"
          loading="lazy"
          className="h-[640px] w-full max-w-[600px] rounded-md border border-slate-300 bg-white"
        />
        <iframe
          title="HTML preview at 375 pixels"
          src={src}
          sandbox="allow-same-origin"
          loading="lazy"
          className="h-[640px] w-[375px] max-w-full rounded-md border border-slate-300 bg-white"
        />
      </div>
      <section aria-label="Plain-text preview" className="admin-card mt-4 min-w-0">
        <h3 className="text-sm font-semibold text-slate-900">Plain-text part</h3>
        <pre className="mt-2 overflow-x-auto text-sm whitespace-pre-wrap" tabIndex={0}>
          {preview.text}
        </pre>
      </section>
    </section>
  );
}

export function NewsletterPage({ viewer, newsletter, notice, error, form }: Props) {
  const { id } = newsletter;
  const draft = newsletter.status === "draft";
  const otherProblems = Object.entries(form?.errors ?? {}).filter(
    ([field, message]) => message && !["subject", "introduction", "articleIds"].includes(field),
  );
  return (
    <AdminLayout viewer={viewer} current="newsletters">
      <p className="text-sm">
        <a href={adminHref("newsletters")} className="admin-link">
          Newsletters
        </a>
      </p>
      <div className="mt-2">
        <PageHeader
          title={id === null ? "New newsletter" : newsletter.fields.subject || "Untitled newsletter"}
          meta={id === null ? null : <NewsletterStatusBadge status={newsletter.status} />}
          description={
            id === null
              ? "Not saved yet."
              : `Campaign ${newsletter.campaign}. Last saved${newsletter.updatedBy ? ` by ${newsletter.updatedBy}` : ""} ${newsletter.updatedAt ? formatIndiaDateTime(newsletter.updatedAt) : ""} (version ${newsletter.version}).`
          }
        />
      </div>
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      {otherProblems.length ? (
        <div role="alert" className="mb-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
          {otherProblems.map(([field, message]) => (
            <p key={field}>{message}</p>
          ))}
        </div>
      ) : null}
      {newsletter.conflict ? <Conflict newsletter={newsletter} /> : null}
      {draft ? <ComposeForm newsletter={newsletter} form={form} /> : null}
      {id !== null && draft ? <SendActions newsletter={newsletter} id={id} /> : null}
      {id !== null && !draft ? <Progress newsletter={newsletter} id={id} /> : null}
      {id !== null && !draft ? <SentContent newsletter={newsletter} /> : null}
      {id !== null && newsletter.preview ? <Preview newsletter={newsletter} id={id} /> : null}
    </AdminLayout>
  );
}
