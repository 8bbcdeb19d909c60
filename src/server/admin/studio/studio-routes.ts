import type { AdminContext, AdminHandlers } from "../context.ts";

// PLACEHOLDER, replaced by the studio's routes.

export type StudioRouteName =
  | "articles"
  | "articleNew"
  | "articleCreate"
  | "article"
  | "articleSave"
  | "articleAutosave"
  | "articlePresence"
  | "markdownPreview"
  | "articlePublish"
  | "articleUnpublish"
  | "articleTrash"
  | "articleUntrash"
  | "articlePreviewLink"
  | "articleShareLink"
  | "articleShareLinkRevoke"
  | "articleHistory"
  | "articleCompare"
  | "articleRevisionRestore";

export function studioRoutes(context: AdminContext): AdminHandlers<StudioRouteName> {
  const notYet = async (
    request: Parameters<AdminHandlers<"articles">["articles"]>[0],
    reply: Parameters<AdminHandlers<"articles">["articles"]>[1],
  ) => context.problem(request, reply, 404, "Not Found", "Not built yet.");
  return Object.fromEntries(
    (
      [
        "articles",
        "articleNew",
        "articleCreate",
        "article",
        "articleSave",
        "articleAutosave",
        "articlePresence",
        "markdownPreview",
        "articlePublish",
        "articleUnpublish",
        "articleTrash",
        "articleUntrash",
        "articlePreviewLink",
        "articleShareLink",
        "articleShareLinkRevoke",
        "articleHistory",
        "articleCompare",
        "articleRevisionRestore",
      ] as const
    ).map((name) => [name, notYet]),
  ) as unknown as AdminHandlers<StudioRouteName>;
}
