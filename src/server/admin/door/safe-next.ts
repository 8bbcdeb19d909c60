import { ADMIN_HOME, adminRoutes } from "#shared/admin/routes.ts";

// Where to go after signing in: a path of the back office and nothing else. It ends up in a
// Location header, so it is held to printable ASCII (a URL's own characters): a tab, a line break
// or U+2028 there once made the server answer 500. Anything else becomes the back office's home.

const localAdminPath = /^\/admin(?:[/?#][\x21-\x7e]*)?$/;

export function safeNextPath(value: unknown): string {
  if (typeof value !== "string" || value.length > 500) return ADMIN_HOME;
  if (!localAdminPath.test(value) || value.includes("//") || value.includes("\\")) return ADMIN_HOME;
  if (value.startsWith(adminRoutes.signIn.path)) return ADMIN_HOME;
  return value;
}
