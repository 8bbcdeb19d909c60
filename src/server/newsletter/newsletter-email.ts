import type { NewsletterSnapshot } from "../db/schema.ts";

// PLACEHOLDER (helper B builds it): a newsletter's mail, HTML and plain text, made from what the
// newsletter said when it was sent (its snapshot).

export type NewsletterMailParts = { subject: string; html: string; text: string };

export type NewsletterMailOptions = {
  /** SITE_URL: every link and image is absolute on it. */
  siteUrl: string;
  /** utm_campaign of every link to the site. */
  campaign: string;
  /** The recipient's own unsubscribe address (absolute https link). */
  unsubscribeUrl: string;
};

export function renderNewsletter(snapshot: NewsletterSnapshot, options: NewsletterMailOptions): NewsletterMailParts {
  void snapshot;
  void options;
  throw new Error("not built yet");
}
