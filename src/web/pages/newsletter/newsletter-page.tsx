import { AlertCircle, CheckCircle2, Mail } from "lucide-react";
import type { ReactNode } from "react";
import { CONFIRMATION_PAGE_TEXT } from "#shared/newsletter-consent.ts";
import { newsletterPageKey, type NewsletterPageState, type PageMeta } from "#shared/page-rendering.ts";
import { paths } from "#shared/paths.ts";
import { site } from "#shared/site.ts";
import { usePageValue } from "../../lib/page-context.ts";

// The pages a newsletter's links open (docs/decisions/044-newsletter-double-opt-in.md): rendered
// by the server alone, no island, and the forms are plain posts, so they work without JavaScript.
// Opening a link changes nothing: only the page's button does, by POST.

const signUpLink = `${paths.blog}#newsletter`;

/** Each state's heading; the title and the h1 say the same. */
export function newsletterPageHeading(state: NewsletterPageState): string {
  switch (state.kind) {
    case "confirm":
      return "Confirm your subscription";
    case "confirmed":
      return "You're subscribed";
    case "unsubscribe":
      return "Unsubscribe from the newsletter";
    case "unsubscribed":
      return "You are unsubscribed";
    case "test":
      return "This was a test newsletter";
    case "unavailable":
      return "Please try again in a few minutes";
    case "invalid":
    case "expired":
      return "This link does not work";
  }
}

export function newsletterPageMeta(state: NewsletterPageState): PageMeta {
  return {
    title: `${newsletterPageHeading(state)} | ${site.name}`,
    description: `The ${site.shortName} newsletter.`,
    noindex: true,
  };
}

function Body({ state }: { state: NewsletterPageState }): ReactNode {
  switch (state.kind) {
    case "confirm":
      return (
        <>
          <p className="mt-4 text-slate-600">{CONFIRMATION_PAGE_TEXT}</p>
          <form method="post" action={state.action} className="mt-6">
            <button type="submit" className="btn-primary">
              Confirm subscription
            </button>
          </form>
        </>
      );
    case "confirmed":
      return (
        <p className="mt-4 text-slate-600">
          Thank you: your address is confirmed. The next newsletter will reach your inbox, about once a month. Each one
          has a link to unsubscribe in one click.
        </p>
      );
    case "unsubscribe":
      return (
        <>
          <p className="mt-4 text-slate-600">
            Press the button and we send this address no more newsletters. Nothing else is needed: no password, no
            reply.
          </p>
          <form method="post" action={state.action} className="mt-6">
            <button type="submit" className="btn-primary">
              Unsubscribe
            </button>
          </form>
        </>
      );
    case "unsubscribed":
      return (
        <p className="mt-4 text-slate-600">
          We will send this address no more newsletters. If you change your mind, subscribe again on{" "}
          <a href={signUpLink} className="font-medium text-navy-900 underline underline-offset-2">
            the Insights page
          </a>
          .
        </p>
      );
    case "test":
      return (
        <p className="mt-4 text-slate-600">
          The newsletter this link came from was a test, sent to a member of our staff before the newsletter went out.
          There is no subscription to stop.
        </p>
      );
    case "unavailable":
      return (
        <p className="mt-4 text-slate-600">
          We could not reach our records just now, so nothing was changed. Please open the link again in a few minutes.
        </p>
      );
    case "expired":
      return (
        <p className="mt-4 text-slate-600">
          This confirmation link has expired: each one works for 48 hours. To subscribe, enter your address again on{" "}
          <a href={signUpLink} className="font-medium text-navy-900 underline underline-offset-2">
            the Insights page
          </a>
          , and use the new link we send you.
        </p>
      );
    case "invalid":
      return state.link === "confirm" ? (
        <p className="mt-4 text-slate-600">
          This confirmation link was already used, or was never a valid link. If you confirmed already, you are
          subscribed. To subscribe, enter your address on{" "}
          <a href={signUpLink} className="font-medium text-navy-900 underline underline-offset-2">
            the Insights page
          </a>
          .
        </p>
      ) : (
        <p className="mt-4 text-slate-600">
          This unsubscribe link was never a valid link: check that it was copied whole from the newsletter, or write to{" "}
          <a href={`mailto:${site.email}`} className="font-medium text-navy-900 underline underline-offset-2">
            {site.email}
          </a>{" "}
          and we will unsubscribe you.
        </p>
      );
  }
}

export function NewsletterPage() {
  const state = usePageValue<NewsletterPageState>(newsletterPageKey) ?? { kind: "invalid", link: "confirm" };
  const good = state.kind === "confirmed" || state.kind === "unsubscribed";
  const bad = state.kind === "invalid" || state.kind === "expired" || state.kind === "unavailable";
  const Icon = good ? CheckCircle2 : bad ? AlertCircle : Mail;
  return (
    <section className="bg-paper py-24">
      <div className="container-page max-w-2xl">
        <div className="card p-8">
          <div className="flex items-center gap-3">
            <Icon
              aria-hidden="true"
              className={`size-8 ${good ? "text-green-700" : bad ? "text-red-700" : "text-navy-900"}`}
            />
            <h1 className="text-3xl font-bold text-navy-900">{newsletterPageHeading(state)}</h1>
          </div>
          <Body state={state} />
        </div>
      </div>
    </section>
  );
}
