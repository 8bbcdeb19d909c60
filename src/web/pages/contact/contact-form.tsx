import { CheckCircle2, Send } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import type { FormFields } from "#shared/api-types.ts";
import type { PostedFormState } from "#shared/page-rendering.ts";
import { apiPaths, formPaths } from "#shared/paths.ts";
import { contactFieldLimits, MIN_FORM_FILL_MS } from "#shared/schemas/contact-limits.ts";
import type { ContactSubmissionInput } from "#shared/schemas/contact-submission.ts";
import { type FieldErrors, fieldErrorsFrom } from "#shared/schemas/field-errors.ts";
import { limits, serviceOptions } from "#shared/site.ts";
import { ApiError, apiRequest, readApi } from "../../lib/api-client.ts";
import { forgetEnquiry, isFinalAnswer, keepEnquiry, newIdempotencyKey } from "../../lib/enquiry-outbox.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { toast } from "../../ui/use-toast.ts";
import { enquiryErrorToast, enquirySentToast } from "./enquiry-toasts.ts";

type Values = Required<{ [K in keyof ContactSubmissionInput]: string }>;

const emptyValues: Values = { firstName: "", lastName: "", email: "", company: "", service: "", message: "" };
const fieldOrder: (keyof Values)[] = ["firstName", "lastName", "email", "company", "service", "message"];

// The shared schema (and zod with it) loads when the visitor starts on the form, not with the
// page: it is needed only to validate.
let schemaModule: Promise<typeof import("#shared/schemas/contact-submission.ts")> | undefined;
const loadSchema = () => (schemaModule ??= import("#shared/schemas/contact-submission.ts"));

async function validate(values: Values): Promise<FieldErrors> {
  const { contactSubmissionSchema } = await loadSchema();
  const result = contactSubmissionSchema.safeParse(values);
  return result.success ? {} : fieldErrorsFrom(result.error.issues);
}

type EnquiryPayload = Values & {
  idempotencyKey: string;
  formToken: string;
  "bot-field": string;
  /** The version of the privacy notice shown beside the button. */
  noticeVersion: string;
};

/**
 * Sends an enquiry. SPEC section 7: a network failure (fetch throwing) counts as success with a
 * fallback result; a non-OK answer is an error. Until the server answers for good, the enquiry
 * stays in the browser's outbox, which sends it again later under the same key.
 */
async function sendEnquiry(payload: EnquiryPayload): Promise<unknown> {
  const { idempotencyKey, ...fields } = payload;
  keepEnquiry(idempotencyKey, fields);
  try {
    const response = await apiRequest("POST", apiPaths.contact, payload);
    forgetEnquiry(idempotencyKey);
    return await response.json();
  } catch (error) {
    if (error instanceof TypeError) return { success: true, offline: true };
    if (error instanceof ApiError && (isFinalAnswer(error.status) || error.status === 429))
      forgetEnquiry(idempotencyKey);
    throw error;
  }
}

/**
 * The enquiry form, an island. `fields` are the hidden fields the server made for this page (a form
 * token and a key), absent when it could not; `posted` is what a form post without JavaScript
 * handed back: the values and each field's error. The page draws the box around it and, under its
 * button, the privacy notice's two lines (#enquiry-notice), whose version (`noticeVersion`) it
 * posts in the field the server reads (NOTICE_VERSION_FIELD of #shared/privacy-notice.ts).
 */
export function ContactForm({
  fields,
  posted,
  noticeVersion,
}: {
  fields?: FormFields;
  posted?: PostedFormState;
  noticeVersion: string;
}) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [formFields, setFormFields] = useState(fields);
  const formToken = formFields?.token ?? "";
  // Only a post without JavaScript sends this; the script makes a key of its own per enquiry.
  const plainPostKey = posted?.idempotencyKey ?? formFields?.idempotencyKey ?? "";
  const [values, setValues] = useState<Values>(() => ({ ...emptyValues, ...posted?.values }));
  const [errors, setErrors] = useState<FieldErrors>(() => posted?.errors ?? {});
  const [submitted, setSubmitted] = useState(() => posted !== undefined);
  const [announcement, setAnnouncement] = useState(
    () =>
      posted?.formError ??
      (posted && Object.keys(posted.errors).length ? "Please correct the fields marked below." : ""),
  );
  const [sent, setSent] = useState(false);
  const [botField, setBotField] = useState("");
  // One key per enquiry: sending the same enquiry again (after an error) cannot store it twice.
  const idempotencyKey = useRef<string | undefined>(undefined);

  // When the card replaces the form, or the form the card, the element that held focus is gone:
  // focus moves to the card's heading (with the whole short card scrolled into view), and back to
  // the first field for another message.
  const sentCardRef = useRef<HTMLDivElement>(null);
  const sentHeadingRef = useRef<HTMLHeadingElement>(null);
  const firstFieldRef = useRef<HTMLInputElement>(null);
  const moveFocus = useRef(false);
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    if (sent) {
      sentHeadingRef.current?.focus({ preventScroll: true });
      sentCardRef.current?.scrollIntoView({ block: "nearest" });
    } else {
      firstFieldRef.current?.focus();
    }
  }, [sent]);

  // A form token is good for one enquiry. It normally comes with the page; after a message is
  // sent, "Send Another Message" fetches the next one. When the token in hand is missing (loading
  // it failed) or already spent, one is fetched at send time. A token this page fetched is let age
  // past the server's minimum fill time before it is sent, or the enquiry would be taken for a
  // script; when fetching fails, the enquiry goes without one (the server stores and notifies it
  // all the same).
  const spentToken = useRef<string | undefined>(undefined);
  const tokenArrivedAt = useRef(new Map<string, number>());
  async function fetchFormToken(): Promise<string> {
    const data = await readApi<FormFields>([apiPaths.formToken], { on401: "throw" }).catch(() => null);
    if (!data) return "";
    setFormFields(data);
    if (!tokenArrivedAt.current.has(data.token)) tokenArrivedAt.current.set(data.token, Date.now());
    return data.token;
  }
  async function tokenForSending(inHand: string): Promise<string> {
    const token = inHand && inHand !== spentToken.current ? inHand : await fetchFormToken();
    if (!token || token === spentToken.current) return "";
    const arrived = tokenArrivedAt.current.get(token);
    const wait = arrived === undefined ? 0 : arrived + MIN_FORM_FILL_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return token;
  }

  const [sending, setSending] = useState(false);
  /** Sends one enquiry: SPEC section 7's contact call, with its success and error toasts. */
  async function send(payload: EnquiryPayload): Promise<void> {
    setSending(true);
    const formToken = await tokenForSending(payload.formToken);
    try {
      await sendEnquiry({ ...payload, formToken });
      // Sent (or kept to be sent by the outbox): this token has done its one enquiry.
      if (formToken) spentToken.current = formToken;
    } catch (error) {
      // 409: an enquiry with other details was stored under this key (and token) before: both
      // are used up, and sending again makes a new enquiry.
      if (error instanceof Error && error.message.startsWith("409:")) {
        if (formToken) spentToken.current = formToken;
        idempotencyKey.current = undefined;
      }
      setSending(false);
      toast(enquiryErrorToast(error));
      return;
    }
    setSending(false);
    toast(enquirySentToast);
    setValues(emptyValues);
    setErrors({});
    setSubmitted(false);
    setAnnouncement("");
    idempotencyKey.current = undefined;
    moveFocus.current = true;
    setSent(true);
  }

  const fieldId = (name: keyof Values) => `${id}-${name}`;
  const errorId = (name: keyof Values) => `${id}-${name}-error`;

  const latest = useRef(values);
  function update(name: keyof Values, value: string) {
    const next = { ...values, [name]: value };
    latest.current = next;
    setValues(next);
    // After the first submit, every change validates again (SPEC section 5).
    if (submitted) {
      void validate(next).then((found) => {
        if (latest.current === next) setErrors(found);
      });
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const found = await validate(values);
    setErrors(found);
    const invalid = fieldOrder.filter((name) => found[name]);
    if (invalid.length > 0) {
      setAnnouncement(
        `Please correct ${invalid.length} field${invalid.length > 1 ? "s" : ""}: ${invalid.map((name) => found[name]).join(". ")}.`,
      );
      formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(fieldId(invalid[0]!))}`)?.focus();
      return;
    }
    setAnnouncement("");
    idempotencyKey.current ??= newIdempotencyKey();
    void send({
      ...values,
      idempotencyKey: idempotencyKey.current,
      formToken,
      "bot-field": botField,
      noticeVersion,
    });
  }

  if (sent) {
    return (
      <div ref={sentCardRef} className="p-2 text-center">
        <CheckCircle2 aria-hidden="true" className="mx-auto size-14 text-green-700" />
        <h2 ref={sentHeadingRef} tabIndex={-1} className="mt-4 text-2xl font-bold text-navy-900 focus:outline-none">
          Message Sent!
        </h2>
        <p className="mt-2 text-slate-600">
          Thank you for your message. We have received it and an engineer will reply within {limits.replyWithinHours}{" "}
          hours.
        </p>
        <button
          type="button"
          className="btn-primary mt-6"
          onClick={() => {
            // The next enquiry needs a token of its own: fetched now, while the visitor writes.
            void fetchFormToken();
            moveFocus.current = true;
            setSent(false);
          }}
        >
          Send Another Message
        </button>
      </div>
    );
  }

  const inputClass = (name: keyof Values) =>
    `mt-1.5 block min-h-11 w-full rounded-md border bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 ${
      errors[name] ? "border-red-700" : "border-slate-300 focus:border-brand-600"
    }`;

  const describe = (name: keyof Values) => ({
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? errorId(name) : undefined,
  });

  const fieldError = (name: keyof Values) =>
    errors[name] ? (
      <p id={errorId(name)} className="mt-1.5 text-sm font-medium text-red-700">
        {errors[name]}
      </p>
    ) : null;

  return (
    <div>
      <h2 className="text-2xl font-bold text-navy-900">Send Us a Message</h2>
      {/* Screen readers hear each field's own "required" (and "optional" in its label), and this once. */}
      <p className="mt-1 text-sm text-slate-600">
        <span aria-hidden="true">Fields marked * are required.</span>
        <span className="sr-only">All fields are required unless marked optional.</span>
      </p>
      <form
        ref={formRef}
        method="post"
        action={formPaths.contact}
        noValidate
        onSubmit={onSubmit}
        onFocus={() => void loadSchema()}
        onPointerDown={() => void loadSchema()}
        className="mt-6 grid gap-5"
        aria-describedby={`${id}-announce`}
      >
        <input type="hidden" name="form-name" value="contact" />
        <input type="hidden" name="formToken" value={formToken} />
        <input type="hidden" name="idempotencyKey" value={plainPostKey} />
        <input type="hidden" name="noticeVersion" value={noticeVersion} />
        <p className="hidden" aria-hidden="true">
          <label>
            Don&apos;t fill this out if you&apos;re human:{" "}
            <input
              name="bot-field"
              type="text"
              tabIndex={-1}
              autoComplete="off"
              value={botField}
              onChange={(event) => setBotField(event.target.value)}
            />
          </label>
        </p>
        <p
          id={`${id}-announce`}
          role="alert"
          className={posted?.formError ? "rounded-md bg-red-50 p-3 text-sm font-medium text-red-800" : "sr-only"}
        >
          {announcement}
        </p>

        <div className="grid gap-5 sm:grid-cols-2">
          <div>
            <label htmlFor={fieldId("firstName")} className="text-sm font-semibold text-navy-900">
              First Name <span aria-hidden="true">*</span>
            </label>
            <input
              ref={firstFieldRef}
              id={fieldId("firstName")}
              name="firstName"
              type="text"
              autoComplete="given-name"
              required
              maxLength={contactFieldLimits.firstName}
              value={values.firstName}
              onChange={(event) => update("firstName", event.target.value)}
              className={inputClass("firstName")}
              {...describe("firstName")}
            />
            {fieldError("firstName")}
          </div>
          <div>
            <label htmlFor={fieldId("lastName")} className="text-sm font-semibold text-navy-900">
              Last Name <span aria-hidden="true">*</span>
            </label>
            <input
              id={fieldId("lastName")}
              name="lastName"
              type="text"
              autoComplete="family-name"
              required
              maxLength={contactFieldLimits.lastName}
              value={values.lastName}
              onChange={(event) => update("lastName", event.target.value)}
              className={inputClass("lastName")}
              {...describe("lastName")}
            />
            {fieldError("lastName")}
          </div>
        </div>

        <div>
          <label htmlFor={fieldId("email")} className="text-sm font-semibold text-navy-900">
            Email Address <span aria-hidden="true">*</span>
          </label>
          <input
            id={fieldId("email")}
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={contactFieldLimits.email}
            value={values.email}
            onChange={(event) => update("email", event.target.value)}
            className={inputClass("email")}
            {...describe("email")}
          />
          {fieldError("email")}
        </div>

        <div>
          <label htmlFor={fieldId("company")} className="text-sm font-semibold text-navy-900">
            Company <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <input
            id={fieldId("company")}
            name="company"
            type="text"
            autoComplete="organization"
            maxLength={contactFieldLimits.company}
            value={values.company}
            onChange={(event) => update("company", event.target.value)}
            className={inputClass("company")}
            {...describe("company")}
          />
          {fieldError("company")}
        </div>

        <div>
          <label htmlFor={fieldId("service")} className="text-sm font-semibold text-navy-900">
            Service of Interest <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <select
            id={fieldId("service")}
            name="service"
            value={values.service}
            onChange={(event) => update("service", event.target.value)}
            className={inputClass("service")}
            {...describe("service")}
          >
            <option value="">Select a service</option>
            {serviceOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          {fieldError("service")}
        </div>

        <div>
          <label htmlFor={fieldId("message")} className="text-sm font-semibold text-navy-900">
            Project Details <span aria-hidden="true">*</span>
          </label>
          <textarea
            id={fieldId("message")}
            name="message"
            rows={limits.contactMessageRows}
            required
            maxLength={contactFieldLimits.message}
            placeholder="Tell us about your project: voltage level, capacity, location, and what you need studied."
            value={values.message}
            onChange={(event) => update("message", event.target.value)}
            className={inputClass("message")}
            {...describe("message")}
          />
          {fieldError("message")}
        </div>

        <button
          type="submit"
          className="btn-primary w-full sm:w-auto sm:justify-self-start"
          disabled={sending}
          aria-describedby="enquiry-notice"
        >
          {sending ? (
            <>
              <Spinner className="size-4" /> Sending...
            </>
          ) : (
            <>
              <Send aria-hidden="true" className="size-4" /> Send Message
            </>
          )}
        </button>
      </form>
    </div>
  );
}
