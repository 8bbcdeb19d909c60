import { CheckCircle2, Mail } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import type { PostedFormState } from "#shared/page-rendering.ts";
import { CONSENT_PAGE_FIELD, NEWSLETTER_BOX_TEXT, SUBSCRIPTION_ANSWER } from "#shared/newsletter-consent.ts";
import { apiPaths, formPaths, paths } from "#shared/paths.ts";
import { isPlausibleEmail } from "#shared/schemas/email.ts";
import { apiRequest, describeApiError } from "../lib/api-client.ts";
import { Spinner } from "../ui/spinner.tsx";

type Status = { kind: "idle" } | { kind: "sending" } | { kind: "done" } | { kind: "error"; message: string };

/**
 * The 'Stay Updated' box: a real form that also works without JavaScript, and an island. Its
 * wording is the one the server stores as consented to (#shared/newsletter-consent.ts). A form
 * post without JavaScript comes back to /blog?subscribed=1 (`subscribed`), or, when it failed,
 * gets this page again from the server with the typed address and the problem (`posted`).
 */
export function NewsletterSignup({
  subscribed,
  posted,
  noticeVersion,
}: {
  subscribed: boolean;
  posted?: PostedFormState;
  /**
   * The version of the privacy notice's lines the page draws under the box's button
   * (#newsletter-notice), posted with the address (NOTICE_VERSION_FIELD, #shared/privacy-notice.ts).
   */
  noticeVersion: string;
}) {
  const id = useId();
  const [status, setStatus] = useState<Status>(() => {
    const problem = posted?.errors.email ?? posted?.formError;
    if (problem) return { kind: "error", message: problem };
    return subscribed ? { kind: "done" } : { kind: "idle" };
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    // A quick check here; the server validates with the shared schema and names any problem.
    if (!isPlausibleEmail(email)) {
      setStatus({ kind: "error", message: email.trim() ? "Enter a valid email address" : "Email is required" });
      return;
    }
    setStatus({ kind: "sending" });
    try {
      await apiRequest("POST", apiPaths.newsletter, {
        email: email.trim(),
        "bot-field": String(form.get("bot-field") ?? ""),
        [CONSENT_PAGE_FIELD]: String(form.get(CONSENT_PAGE_FIELD) ?? ""),
        noticeVersion,
      });
      setStatus({ kind: "done" });
    } catch (error) {
      setStatus({ kind: "error", message: describeApiError(error, { withStatus: false }) });
    }
  }

  return (
    <div>
      <Mail aria-hidden="true" className="size-8 text-amber-accent" />
      <h2 id="newsletter-heading" className="mt-4 text-2xl font-bold">
        Stay Updated
      </h2>
      <p className="mt-2 text-slate-200">{NEWSLETTER_BOX_TEXT}</p>
      {status.kind === "done" ? (
        <p role="status" className="mt-6 flex items-center gap-2 rounded-md bg-white/10 p-4 font-medium">
          <CheckCircle2 aria-hidden="true" className="size-5 text-green-300" />
          {SUBSCRIPTION_ANSWER}
        </p>
      ) : (
        <form method="post" action={formPaths.newsletter} noValidate onSubmit={onSubmit} className="mt-6">
          <input type="hidden" name="form-name" value="newsletter" />
          <input type="hidden" name={CONSENT_PAGE_FIELD} value={paths.blog} />
          <input type="hidden" name="noticeVersion" value={noticeVersion} />
          <p className="hidden" aria-hidden="true">
            <label>
              Don&apos;t fill this out if you&apos;re human:{" "}
              <input type="text" name="bot-field" tabIndex={-1} autoComplete="off" />
            </label>
          </p>
          <div className="flex flex-col gap-3 sm:flex-row">
            <label htmlFor={`${id}-email`} className="sr-only">
              Email address
            </label>
            <input
              id={`${id}-email`}
              name="email"
              type="email"
              autoComplete="email"
              required
              defaultValue={posted?.values.email}
              placeholder="you@company.com"
              aria-invalid={status.kind === "error" ? true : undefined}
              aria-describedby={status.kind === "error" ? `${id}-error` : undefined}
              className="min-h-11 flex-1 rounded-md border border-white/30 bg-white px-3 text-base text-slate-900 placeholder:text-slate-500"
            />
            <button
              type="submit"
              className="btn-accent"
              disabled={status.kind === "sending"}
              aria-describedby="newsletter-notice"
            >
              {status.kind === "sending" ? <Spinner className="size-4" /> : null}
              Subscribe
            </button>
          </div>
          <p id={`${id}-error`} role="alert" className="mt-2 min-h-6 text-sm font-medium text-amber-200">
            {status.kind === "error" ? status.message : ""}
          </p>
        </form>
      )}
    </div>
  );
}
