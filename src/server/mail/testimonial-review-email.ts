import { site } from "#shared/site.ts";
import { headerSafe, type OutgoingMail } from "./enquiry-email.ts";

// The monthly mail to the admins listing the testimonials and client logos whose permission is due
// for review (src/server/content/testimonial-review.ts). docs/decisions/061-testimonials-and-client-logos.md.

export const TESTIMONIAL_REVIEW_KIND = "testimonial-review";

/** One line of the mail: what it is, who, the organisation (or how an anonymised one shows), when, and its page. */
export type TestimonialReviewItem = {
  kind: "testimonial" | "client-logo";
  who: string;
  what: string;
  /** The review date, YYYY-MM-DD. */
  review: string;
  link: string;
};

/** The items of a row's payload, when it is one. */
export function testimonialReviewItems(payload: Record<string, string> | null): TestimonialReviewItem[] | undefined {
  if (!payload?.items || !/^\d{4}-\d{2}$/.test(payload.month ?? "")) return undefined;
  try {
    const items = JSON.parse(payload.items) as unknown;
    if (!Array.isArray(items) || items.length === 0) return undefined;
    return items as TestimonialReviewItem[];
  } catch {
    return undefined;
  }
}

export function testimonialReviewEmail(
  recipient: string,
  items: TestimonialReviewItem[],
  options: { from: string; outboxId: string; hostname: string },
): OutgoingMail {
  const count = items.length;
  const lines = items.flatMap((item) => [
    `- ${item.kind === "testimonial" ? "Testimonial" : "Client logo"}: ${item.who}${item.what && item.kind === "testimonial" ? `, ${item.what}` : ""}`,
    `  Review date: ${item.review}`,
    `  ${item.link}`,
  ]);
  return {
    from: options.from,
    to: headerSafe(recipient),
    messageId: `<${options.outboxId}@${options.hostname}>`,
    subject: `${count} client permission${count === 1 ? "" : "s"} to review on the ${site.shortName} website`,
    text: [
      "Hello,",
      "",
      `The permission to use ${count === 1 ? "this testimonial or logo" : "these testimonials and logos"} is due for review: ask the client again, then record the answer on its page (or withdraw it).`,
      "",
      ...lines,
      "",
      "Admins get this mail once a month while a permission is due.",
      "",
      `${site.name} website`,
    ].join("\n"),
  };
}
