import { ARTICLES } from "./articles.ts";
import { PROJECTS } from "./projects.ts";
import { TEAM } from "./team.ts";

// The kinds of content the back office edits, one definition each (kind.ts says what a definition
// holds and what comes from it; docs/decisions/059-a-kind-of-content-declared-once.md). A new kind
// is a definition here, its server part (src/server/admin/studio/kinds.ts or its own folder), and
// its table.

export { ARTICLES, PROJECTS, TEAM };

export const STUDIO_KINDS = [ARTICLES, PROJECTS] as const;
