import { site } from "#shared/site.ts";
import { CONFIRMATION_LINK_HOURS, PENDING_SUBSCRIPTION_DAYS } from "../newsletter/tokens.ts";
import { headerSafe, type OutgoingMail } from "./enquiry-email.ts";

// The mail that asks an address to confirm its newsletter subscription
// (docs/decisions/044-newsletter-double-opt-in.md): plain text, one link. The link is the outbox
// row's payload until the mail is sent, then cleared like a staff mail's: it is a credential.

export const SUBSCRIPTION_MAIL_KIND = "newsletter-confirmation";

export function confirmationEmail(
  recipient: string,
  payload: { link: string },
  options: { from: string; outboxId: string; hostname: string },
): OutgoingMail {
  return {
    from: options.from,
    to: headerSafe(recipient),
    messageId: `<${options.outboxId}@${options.hostname}>`,
    subject: `Confirm your subscription to the ${site.shortName} newsletter`,
    text: [
      "Hello,",
      "",
      `Someone (we hope you) asked to receive the ${site.shortName} newsletter at this address: about one email a month featuring our new articles. To confirm, open this link within ${CONFIRMATION_LINK_HOURS} hours and press "Confirm subscription":`,
      "",
      payload.link,
      "",
      `If you did not ask for it, ignore this message: we send nothing more, and delete the address within ${PENDING_SUBSCRIPTION_DAYS} days.`,
      "",
      site.name,
    ].join("\n"),
  };
}
