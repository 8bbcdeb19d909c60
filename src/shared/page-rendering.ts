// The contract between the server and the server-rendering entry of the web app
// (src/web/entry-server.tsx). The server loads the entry as a module (Vite in development, the
// SSR build in production) and never imports web code directly.

/**
 * What the server loaded for the page: the API data it shows (keyed by API path) and, after a form
 * post without JavaScript, the form's state (keyed by a formStateKeys entry).
 */
export type PageData = Record<string, unknown>;

export const formStateKeys = { contact: "form-state:contact", newsletter: "form-state:newsletter" } as const;
export type FormStateKey = (typeof formStateKeys)[keyof typeof formStateKeys];

/**
 * What the 404 page says instead of its usual text (a string), for a 404 with a reason of its
 * own: an expired or withdrawn preview link (src/server/routes/preview-routes.ts).
 */
export const notFoundReasonKey = "page:not-found-reason";

/** What a form post without JavaScript hands back to its page: the values and each field's error. */
export type PostedFormState = {
  values: Record<string, string>;
  errors: Record<string, string>;
  /** A problem with the whole form, such as the database being unreachable. */
  formError?: string;
  /** The idempotency key the post carried: the form shown again keeps it, so it is stored once. */
  idempotencyKey?: string;
};

/** What a page's link-preview card shows (docs/decisions/053-link-preview-cards.md; link-card.ts draws on it). */
export type LinkCard = {
  kind: "page" | "article" | "project";
  /** The large words: the page's name or the item's title. */
  title: string;
  /** The small line above it: the category, or where on the site the page is. */
  label: string;
  /** An article's byline: its author and their photo (a media-library reference), when shown. */
  author?: { name: string; photo: string | null };
  /** A project's capacity ("250 MW"), when it has one. */
  capacity?: string;
};

export type Breadcrumb = { name: string; path: string };

export type PreviewImage = { path: string; width: number; height: number; alt: string };

export type PageMeta = {
  title: string;
  description: string;
  noindex?: boolean;
  /**
   * The page's own picture for link previews and its Article data: a JPEG on this site, about
   * 1200 pixels wide, with its size and words. Without one, the site's picture (/og-image.png).
   */
  image?: PreviewImage;
  /** What the page's link-preview card shows (#shared/link-card.ts); unset: its name and section. */
  card?: LinkCard;
  /** Visible breadcrumbs on inner pages, from Home to this page. */
  breadcrumbs?: Breadcrumb[];
  article?: { publishedAt: string; authorName: string | null; category: string };
  /**
   * Sends a visitor without JavaScript to another page after a delay (the head gets
   * <noscript><meta http-equiv="refresh" content="SECONDS;url=PATH"></noscript>). With JavaScript on
   * the page does this itself, so the refresh sits inside noscript and never reaches the browser.
   */
  redirectWithoutJavaScript?: { afterSeconds: number; to: string };
};

export type RenderedPage = {
  status: number;
  meta: PageMeta;
  appHtml: string;
  /** The islands the browser hydrates, in page order: each one's name and props, embedded as JSON. */
  islands: [name: string, props: object][];
  /** The source modules of those islands, whose chunks the page loads. */
  islandModules: string[];
};

export type ServerEntry = {
  /** The API paths whose data the page at this path shows. */
  pageDataFor: (pathname: string, search: string) => readonly string[];
  renderPage: (url: string, data: PageData) => RenderedPage;
};

/**
 * The newsletter's link pages (src/server/newsletter/public-routes.ts): no route of the table
 * serves them (their tokens are not slugs, and they must never enter the page cache or the
 * sitemap); the server renders them with their state under this key.
 */
export const newsletterPageKey = "page:newsletter";

export type NewsletterPageState =
  /** A confirmation link's page: one button posting to `action`. */
  | { kind: "confirm"; action: string }
  | { kind: "confirmed" }
  /** An unsubscribe link's page: one button posting to `action`. */
  | { kind: "unsubscribe"; action: string }
  | { kind: "unsubscribed" }
  /** The unsubscribe link of a test send: nothing to stop. */
  | { kind: "test" }
  /** A link used already, unknown or forged (404); `link` says which kind of link it was. */
  | { kind: "invalid"; link: "confirm" | "unsubscribe" }
  /** A confirmation link past its 48 hours (410). */
  | { kind: "expired" }
  /** The database could not be reached (503). */
  | { kind: "unavailable" };
