import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ApiErrorBody } from "#shared/api-types.ts";
import { type FormStateKey, formStateKeys, type PostedFormState } from "#shared/page-rendering.ts";
import { apiPaths, formPaths, paths } from "#shared/paths.ts";
import { MIN_FORM_FILL_MS } from "#shared/schemas/contact-limits.ts";
import { contactSubmissionSchema, fieldErrorsFrom } from "#shared/schemas/contact-submission.ts";
import { newsletterSignupSchema } from "#shared/schemas/newsletter-signup.ts";
import { CONSENT_PAGE_FIELD, NEWSLETTER_BOX_TEXT, SUBSCRIPTION_ANSWER } from "#shared/newsletter-consent.ts";
import { NOTICE_VERSION_FIELD, noticeVersionOf, UNKNOWN_NOTICE_VERSION } from "#shared/privacy-notice.ts";
import { matchRoute } from "#shared/routes.ts";
import { controlCharacterFields, hiddenFormFields } from "#shared/schemas/text-rules.ts";
import type { Database } from "../db/client.ts";
import { enquiryReference, storeEnquiry } from "../db/contact-repository.ts";
import { checkFormToken, issueFormToken } from "../enquiries/form-token.ts";
import { subscribe } from "../newsletter/subscriptions.ts";
import { clientRateLimitKey, hitRateLimit, rateLimitKey } from "../enquiries/rate-limit.ts";
import type { WorkAfterAnswer } from "../http/after-answer.ts";
import { type SameOriginOptions, sameOriginOnly } from "../http/same-origin.ts";
import { statusTitle } from "../plugins/errors.ts";
import { errorCode } from "../plugins/request-logging.ts";
import type { PageRenderer } from "../render/page-renderer.ts";
import type { ReadApi } from "./content-api.ts";
import type { Attribution } from "../analytics/counting.ts";

// The enquiry and newsletter posts, as JSON (the spec's call) and as plain form posts (no
// JavaScript). Nothing a visitor sends leads to a 500: bad input is a 4xx that names the field,
// an unreachable database a 503 the browser outbox answers by trying again later. A post from
// another site's page is refused (403) before its body is read.

export type EnquiryRouteDeps = {
  db: Database;
  formSecret: string;
  rateLimitPerMinute: number;
  mail: { configured: boolean; acknowledge: boolean };
  onEnquiryQueued?: () => void;
  renderer?: PageRenderer;
  readApi: ReadApi;
  /** Which origin the site's own forms post from (SITE_URL). */
  sameOrigin: SameOriginOptions;
  /** Where a conversion came from (analytics): its sender's first view today, when counted. */
  attributionOf?: (request: FastifyRequest) => Promise<Attribution | undefined>;
  /** Runs a subscription's work after its answer (http/after-answer.ts). */
  workAfterAnswer: WorkAfterAnswer;
  /** The app's own clock, when it has one (tests): enquiries and subscriptions are dated by it. */
  now?: () => Date;
  /** The site's public address (SITE_URL): a subscription's confirmation link starts with it. */
  siteUrl: string;
};

/**
 * The page a subscription was made on, for its proof of consent: the box's hidden field when it
 * names a page of the route table (nothing a client makes up is stored), else the blog, where the
 * box is.
 */
export function consentPageOf(value: unknown): string {
  return typeof value === "string" && value.length <= 200 && matchRoute(value) ? value : paths.blog;
}

/**
 * Enquiries without a form token (the spec's JSON call, or a form whose token failed to load) are
 * ordinary enquiries (docs/decisions/010), but one client gets this many a day; more are spam.
 */
export const TOKENLESS_ENQUIRIES_PER_DAY = 20;

/** An idempotency key: a random UUID as browsers make them (RFC 9562 version 1-8), stricter than an id's shape. */
const idempotencyKeyPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const UNAVAILABLE_MESSAGE =
  "We could not store your enquiry just now. Please try again in a few minutes; our contact form keeps it and resends it for you.";
const SUBSCRIPTION_UNAVAILABLE_MESSAGE =
  "We could not save your subscription just now. Please try again in a few minutes.";
export const KEY_REUSED_MESSAGE =
  "An enquiry with different details was already received under this idempotency key. To send these details as a new enquiry, send them again under a new key.";
const FORM_REUSED_MESSAGE =
  "This form was already used to send an enquiry with different details. Press Send Message to send these details as a new enquiry.";

/** A form that also works without JavaScript: the page it is on, where its posted state goes. */
type PlainForm = { page: string; stateKey: FormStateKey; invalidMessage: string };
const contactForm: PlainForm = {
  page: paths.contact,
  stateKey: formStateKeys.contact,
  invalidMessage: "Some fields of the enquiry are missing or invalid.",
};
const newsletterForm: PlainForm = {
  page: paths.blog,
  stateKey: formStateKeys.newsletter,
  invalidMessage: "Enter a valid email address",
};

class Unavailable extends Error {}

/** Runs a database step; any failure there means the service is unavailable, not a bad request. */
async function database<T>(log: FastifyBaseLogger, step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    log.error({ err: error, errCode: errorCode(error), step }, "database unavailable");
    throw new Unavailable(step);
  }
}

function isFormPost(request: FastifyRequest): boolean {
  return String(request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded");
}

function bodyObject(body: unknown): Record<string, unknown> | undefined {
  return typeof body === "object" && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined;
}

function tooManyMessage(retryAfterSeconds: number, what: string): string {
  return `You have sent several ${what} in the last minute. Please wait ${retryAfterSeconds} seconds and try again.`;
}

function tooManyRequests(reply: FastifyReply, retryAfterSeconds: number, what: string) {
  const body: ApiErrorBody = { error: "Too Many Requests", message: tooManyMessage(retryAfterSeconds, what) };
  return reply.code(429).header("retry-after", String(retryAfterSeconds)).send(body);
}

/** What a plain form post gets back with its page: its values, its key (when valid) and the problems. */
function postedState(
  body: Record<string, unknown>,
  problems: { errors: Record<string, string>; formError?: string },
): PostedFormState {
  const keep = ["firstName", "lastName", "email", "company", "service", "message"];
  const values = Object.fromEntries(
    keep.map((key) => [key, typeof body[key] === "string" ? (body[key] as string) : ""]),
  );
  const key = body.idempotencyKey;
  return {
    values,
    idempotencyKey: typeof key === "string" && idempotencyKeyPattern.test(key) ? key.toLowerCase() : undefined,
    ...problems,
  };
}

export function registerEnquiryRoutes(app: FastifyInstance, deps: EnquiryRouteDeps): void {
  /**
   * Answers a plain form post with the form's page again: the visitor's values, each error by its
   * field. `formToken`, when given, is the token the form shown again carries instead of a new one.
   */
  async function renderWithFormState(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    form: PlainForm,
    state: PostedFormState,
    formToken?: string,
  ) {
    if (!deps.renderer) {
      const problem: ApiErrorBody = state.formError
        ? { error: statusTitle(status), message: state.formError }
        : { error: statusTitle(status), message: form.invalidMessage, fields: state.errors };
      return reply.code(status).send(problem);
    }
    const readApi: ReadApi =
      formToken === undefined
        ? deps.readApi
        : (path) =>
            path === apiPaths.formToken
              ? Promise.resolve({ token: formToken, idempotencyKey: randomUUID() })
              : deps.readApi(path);
    const page = await deps.renderer.render(form.page, {
      readApi,
      log: request.log,
      extraData: { [form.stateKey]: state },
    });
    return reply.code(status).header("cache-control", "no-store").type("text/html; charset=utf-8").send(page.html);
  }

  /** The attribution of a conversion; never a reason for the conversion to fail. */
  async function attributionOf(request: FastifyRequest): Promise<Attribution | undefined> {
    try {
      return await deps.attributionOf?.(request);
    } catch (error) {
      request.log.warn({ errCode: errorCode(error) }, "attributing a conversion failed");
      return undefined;
    }
  }

  async function handleEnquiry(request: FastifyRequest, reply: FastifyReply) {
    const asForm = isFormPost(request);
    const body = bodyObject(request.body);
    if (!body) {
      const problem: ApiErrorBody = {
        error: "Bad Request",
        message: "The body must be a JSON object with firstName, lastName, email, company, service and message.",
      };
      return reply.code(400).send(problem);
    }
    const formToken = checkFormToken(deps.formSecret, body.formToken);
    // The form shown again (invalid fields, the rate limit, the database down) keeps the token it
    // was sent with: nothing was stored, so it is unused, and a new one would be "too fast" if the
    // visitor sent the form again at once. A forged or outlived one is replaced.
    const unusedToken = formToken.token ? (body.formToken as string) : undefined;
    try {
      const limit = await database(request.log, "rate limit", () =>
        hitRateLimit(deps.db, clientRateLimitKey(deps.formSecret, "enquiry", request.ip), deps.rateLimitPerMinute),
      );
      if (!limit.allowed) {
        if (!asForm) return tooManyRequests(reply, limit.retryAfterSeconds, "enquiries");
        // Without JavaScript the visitor sees the form again, values kept, with the same message.
        reply.header("retry-after", String(limit.retryAfterSeconds));
        const formError = tooManyMessage(limit.retryAfterSeconds, "enquiries");
        return renderWithFormState(
          request,
          reply,
          429,
          contactForm,
          postedState(body, { errors: {}, formError }),
          unusedToken,
        );
      }

      const parsed = contactSubmissionSchema.safeParse(body);
      const hiddenFieldProblems = controlCharacterFields(body, hiddenFormFields);
      const noticeVersion = noticeVersionOf(body[NOTICE_VERSION_FIELD]);
      if (noticeVersion === undefined) hiddenFieldProblems[NOTICE_VERSION_FIELD] ??= UNKNOWN_NOTICE_VERSION;
      if (!parsed.success || noticeVersion === undefined || Object.keys(hiddenFieldProblems).length > 0) {
        const fields = {
          ...(parsed.success ? {} : (fieldErrorsFrom(parsed.error.issues) as Record<string, string>)),
          ...hiddenFieldProblems,
        };
        if (asForm)
          return renderWithFormState(
            request,
            reply,
            400,
            contactForm,
            postedState(body, { errors: fields }),
            unusedToken,
          );
        const problem: ApiErrorBody = { error: "Bad Request", message: contactForm.invalidMessage, fields };
        return reply.code(400).send(problem);
      }

      const givenKey = body.idempotencyKey ?? request.headers["idempotency-key"];
      if (
        givenKey !== undefined &&
        givenKey !== "" &&
        (typeof givenKey !== "string" || !idempotencyKeyPattern.test(givenKey))
      ) {
        const problem: ApiErrorBody = {
          error: "Bad Request",
          message: "The idempotency key must be a UUID.",
          fields: { idempotencyKey: "must be a UUID" },
        };
        return reply.code(400).send(problem);
      }
      const idempotencyKey = typeof givenKey === "string" && givenKey ? givenKey.toLowerCase() : randomUUID();

      const honeypot = typeof body["bot-field"] === "string" && body["bot-field"].trim() !== "";
      // A missing (or outlived) token is not spam: the spec's JSON call carries none, and a form
      // whose token could not be fetched must still reach the firm. Only a forged or too-fast
      // token is, and (in storeEnquiry) one already used by another enquiry.
      const spamReason = honeypot
        ? "honeypot"
        : formToken.verdict === "invalid" || formToken.verdict === "too-fast"
          ? `form-token-${formToken.verdict}`
          : null;
      const withoutToken = formToken.verdict === "missing" || formToken.verdict === "expired";

      const attribution = spamReason === null ? await attributionOf(request) : undefined;
      const stored = await database(request.log, "store enquiry", () =>
        storeEnquiry(deps.db, {
          attribution,
          createdAt: deps.now?.(),
          data: parsed.data,
          idempotencyKey,
          noticeVersion,
          spamReason,
          mail: deps.mail,
          formToken: formToken.token,
          // Only a post from the site's own form may have the visitor's address written to, once a day.
          acknowledgementKey:
            formToken.verdict === "ok"
              ? rateLimitKey(deps.formSecret, "acknowledgement", parsed.data.email.toLowerCase())
              : undefined,
          tokenlessLimit: withoutToken
            ? {
                key: clientRateLimitKey(deps.formSecret, "enquiry-without-token", request.ip),
                perDay: TOKENLESS_ENQUIRIES_PER_DAY,
              }
            : undefined,
        }),
      );
      request.log.info(
        {
          outcome: stored.outcome,
          submissionId: stored.outcome === "spam-counted" ? undefined : stored.submission.id,
          spam: stored.outcome === "spam-counted" || stored.isSpam,
          spamReason: stored.outcome === "repeat" ? undefined : stored.spamReason,
          sameBody: stored.outcome === "repeat" ? stored.sameBody : undefined,
          formToken: formToken.verdict,
        },
        "enquiry stored",
      );
      if (stored.outcome === "created" && !stored.isSpam && deps.mail.configured) deps.onEnquiryQueued?.();

      // A key already used for another enquiry: never answer with that enquiry, nor store this one as it.
      if (stored.outcome === "repeat" && !stored.sameBody) {
        if (asForm) {
          // A new key, and a new token: the posted one was used by the first enquiry. When that
          // token showed a person at work, the new one starts as old as the minimum fill time, so
          // sending the form again at once is not taken for a script.
          const state = {
            ...postedState(body, { errors: {}, formError: FORM_REUSED_MESSAGE }),
            idempotencyKey: undefined,
          };
          const nextToken =
            formToken.verdict === "ok" ? issueFormToken(deps.formSecret, Date.now() - MIN_FORM_FILL_MS) : undefined;
          return renderWithFormState(request, reply, 409, contactForm, state, nextToken);
        }
        const problem: ApiErrorBody = { error: "Conflict", message: KEY_REUSED_MESSAGE };
        return reply.code(409).send(problem);
      }
      if (asForm) return reply.code(303).header("location", paths.thankYou).send();
      // Only the reference: a repeat must not hand back what was stored (it may not be the sender's).
      // Spam over the hourly cap is answered like any other success, with a reference of its own.
      const reference = enquiryReference(stored.outcome === "spam-counted" ? randomUUID() : stored.submission.id);
      return reply.code(stored.outcome === "repeat" ? 200 : 201).send({ reference });
    } catch (error) {
      if (!(error instanceof Unavailable)) throw error;
      if (asForm) {
        return renderWithFormState(
          request,
          reply,
          503,
          contactForm,
          postedState(body, { errors: {}, formError: UNAVAILABLE_MESSAGE }),
          unusedToken,
        );
      }
      const problem: ApiErrorBody = { error: "Service Unavailable", message: UNAVAILABLE_MESSAGE };
      return reply.code(503).header("retry-after", "30").send(problem);
    }
  }

  const fromOwnPages = { onRequest: sameOriginOnly(deps.sameOrigin) };
  app.post(apiPaths.contact, fromOwnPages, handleEnquiry);
  app.post(formPaths.contact, fromOwnPages, handleEnquiry);

  async function handleNewsletter(request: FastifyRequest, reply: FastifyReply) {
    const asForm = isFormPost(request);
    const body = bodyObject(request.body);
    if (!body)
      return reply.code(400).send({ error: "Bad Request", message: "The body must be a JSON object with an email." });
    // Without JavaScript the visitor sees the blog again, the address kept and the problem by it.
    const showForm = (status: number, problems: { errors: Record<string, string>; formError?: string }) =>
      renderWithFormState(request, reply, status, newsletterForm, {
        values: { email: typeof body.email === "string" ? body.email : "" },
        ...problems,
      });
    try {
      const limit = await database(request.log, "rate limit", () =>
        hitRateLimit(deps.db, clientRateLimitKey(deps.formSecret, "newsletter", request.ip), deps.rateLimitPerMinute),
      );
      if (!limit.allowed) {
        if (!asForm) return tooManyRequests(reply, limit.retryAfterSeconds, "subscriptions");
        reply.header("retry-after", String(limit.retryAfterSeconds));
        return showForm(429, { errors: {}, formError: tooManyMessage(limit.retryAfterSeconds, "subscriptions") });
      }
      const parsed = newsletterSignupSchema.safeParse(body);
      const hiddenFieldProblems = controlCharacterFields(body, hiddenFormFields);
      const noticeVersion = noticeVersionOf(body[NOTICE_VERSION_FIELD]);
      if (noticeVersion === undefined) hiddenFieldProblems[NOTICE_VERSION_FIELD] ??= UNKNOWN_NOTICE_VERSION;
      if (!parsed.success || noticeVersion === undefined || Object.keys(hiddenFieldProblems).length > 0) {
        const fields = {
          ...(parsed.success ? {} : (fieldErrorsFrom(parsed.error.issues) as Record<string, string>)),
          ...hiddenFieldProblems,
        };
        if (asForm) return showForm(400, { errors: fields });
        return reply.code(400).send({
          error: "Bad Request",
          message: fields.email ?? Object.values(fields)[0] ?? newsletterForm.invalidMessage,
          fields,
        });
      }
      const honeypot = typeof body["bot-field"] === "string" && body["bot-field"].trim() !== "";
      // Double opt-in (docs/decisions/044-newsletter-double-opt-in.md): the address is asked to
      // confirm by mail. Whatever its state (new, pending, confirmed, unsubscribed, mailed within
      // the day, over a daily limit) and for a bot too, the answer is the same, so it tells nobody
      // who is on the list; and it is sent first, the work after it (as the staff sign-in link by
      // email), so neither does the time it takes. Only when too much work is waiting is the
      // answer a 503, for every address alike.
      if (!honeypot) {
        const email = parsed.data.email;
        const consentPage = consentPageOf(body[CONSENT_PAGE_FIELD]);
        const now = deps.now?.() ?? new Date();
        const client = { address: request.ip, secret: deps.formSecret };
        const accepted = deps.workAfterAnswer.accept(request.log, "newsletter subscription", async () => {
          const result = await subscribe(
            deps.db,
            {
              email,
              consentPage,
              consentText: NEWSLETTER_BOX_TEXT,
              noticeVersion,
              attribution: await attributionOf(request),
            },
            { siteUrl: deps.siteUrl, mailConfigured: deps.mail.configured, now, client },
          );
          if (result.limited)
            request.log.info({ limit: result.limited }, "newsletter confirmation mail not sent: a daily limit");
          if (result.queued && deps.mail.configured) deps.onEnquiryQueued?.();
        });
        if (!accepted) throw new Unavailable("work after answer");
      }
      if (asForm) return reply.code(303).header("location", `${paths.blog}?subscribed=1#newsletter`).send();
      return reply.code(201).send({ subscribed: true, confirm: true, message: SUBSCRIPTION_ANSWER });
    } catch (error) {
      if (!(error instanceof Unavailable)) throw error;
      reply.header("retry-after", "30");
      if (asForm) return showForm(503, { errors: {}, formError: SUBSCRIPTION_UNAVAILABLE_MESSAGE });
      return reply.code(503).send({ error: "Service Unavailable", message: SUBSCRIPTION_UNAVAILABLE_MESSAGE });
    }
  }

  app.post(apiPaths.newsletter, fromOwnPages, handleNewsletter);
  app.post(formPaths.newsletter, fromOwnPages, handleNewsletter);
}
