import { ARTICLES } from "./articles.ts";
import { CLIENT_LOGOS } from "./client-logos.ts";
import { PROJECTS } from "./projects.ts";
import { TEAM } from "./team.ts";
import { TESTIMONIALS } from "./testimonials.ts";

// The kinds of content the back office edits, one definition each (kind.ts says what a definition
// holds and what comes from it; docs/decisions/059-a-kind-of-content-declared-once.md). A new kind
// is a definition here, in its list, its server part (src/server/admin/studio/kinds.ts for a studio
// kind, src/server/admin/ordered/kinds.ts for an ordered one), and its table.

export { ARTICLES, CLIENT_LOGOS, PROJECTS, TEAM, TESTIMONIALS };

export const STUDIO_KINDS = [ARTICLES, PROJECTS] as const;

/** The ordered kinds: the team, then those whose pages are drawn from their definition. */
export const ORDERED_KINDS = [TEAM, TESTIMONIALS, CLIENT_LOGOS] as const;

/** The ordered kinds whose pages are drawn from their definition (src/web/admin/pages/ordered/). */
export const DRAWN_KINDS = [TESTIMONIALS, CLIENT_LOGOS] as const;
export type DrawnKindPlural = (typeof DRAWN_KINDS)[number]["plural"];
