import { site } from "./site.ts";

// The words a subscriber consents to, written once: the "Stay Updated" box shows them, the
// confirmation page shows its own, and the server stores exactly these with a confirmed
// subscription (docs/decisions/044-newsletter-double-opt-in.md), so the proof of consent is what
// was on the screen.

/** The box's wording, above its address field. */
export const NEWSLETTER_BOX_TEXT =
  "One email a month with our newest articles on grid integration, renewables and power quality. No spam. We first email you a link to confirm your address, and every newsletter has a link to unsubscribe in one click.";

/** The answer to every subscription, whatever the address's state: nothing tells whether it was already on the list. */
export const SUBSCRIPTION_ANSWER = "Check your inbox to confirm your subscription.";

/** The confirmation page's wording, above its one button. */
export const CONFIRMATION_PAGE_TEXT = `Press the button to receive the ${site.shortName} newsletter: about one email a month featuring our new articles. Every newsletter has a link to unsubscribe in one click.`;

/** What a confirmed subscription keeps as the words consented to: the box's, then the confirmation page's. */
export const consentTextOf = (boxText: string = NEWSLETTER_BOX_TEXT) => `${boxText}\n\n${CONFIRMATION_PAGE_TEXT}`;

/** The field of the box's form naming the page it is on. */
export const CONSENT_PAGE_FIELD = "page";
