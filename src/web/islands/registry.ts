import type { ComponentType } from "react";

// The parts of a public page the browser hydrates ("islands"): everything else is HTML the server
// rendered, which needs no JavaScript (docs/decisions/035-hydrate-only-the-interactive-parts.md).
// Each island is a chunk of its own; a page loads React and the islands it shows, nothing more.

export type IslandDefinition<P> = {
  /** The source module, as the build's manifest names it: the server preloads its chunk. */
  module: string;
  load: () => Promise<ComponentType<P>>;
};

const island = <P extends object>(module: string, load: () => Promise<ComponentType<P>>): IslandDefinition<P> => ({
  module,
  load,
});

export const islands = {
  menuButton: island("src/web/components/menu-button.tsx", () =>
    import("../components/menu-button.tsx").then((m) => m.MenuButton),
  ),
  consultationButton: island("src/web/components/consultation-button.tsx", () =>
    import("../components/consultation-button.tsx").then((m) => m.ConsultationButton),
  ),
  newsletterSignup: island("src/web/components/newsletter-signup.tsx", () =>
    import("../components/newsletter-signup.tsx").then((m) => m.NewsletterSignup),
  ),
  toaster: island("src/web/ui/toaster.tsx", () => import("../ui/toaster.tsx").then((m) => m.Toaster)),
  contactForm: island("src/web/pages/contact/contact-form.tsx", () =>
    import("../pages/contact/contact-form.tsx").then((m) => m.ContactForm),
  ),
  blogArticles: island("src/web/pages/blog/blog-articles.tsx", () =>
    import("../pages/blog/blog-articles.tsx").then((m) => m.BlogArticles),
  ),
  redirectCountdown: island("src/web/pages/thank-you/redirect-countdown.tsx", () =>
    import("../pages/thank-you/redirect-countdown.tsx").then((m) => m.RedirectCountdown),
  ),
};

export type IslandName = keyof typeof islands;
export type IslandProps<N extends IslandName> = (typeof islands)[N] extends IslandDefinition<infer P> ? P : never;

/** How the server hands an island to the browser: its name and its props, as JSON. */
export type IslandUse = { name: IslandName; props: object };

/** The id prefix of the island at this index: the server and the browser render it alike. */
export const islandIdPrefix = (index: number) => `i${index}-`;

/** The empty element the page renders where an island goes, before its own HTML is put in. */
export const islandSlot = (index: number) => `<div data-island="${index}" class="contents"></div>`;
